"""`gbrain.search`: seed 004's "Putting it together", stage by stage (spec/profiles/gbrain.md
GBRAIN-28..40): intent -> expansion -> hybrid (legs, hard excludes, source-aware re-rank,
RRF) -> top 30 -> graph augment -> reranker -> token budget -> dedup -> results.

Its RRF is gbrain's own (`rrfFusionWeighted`, GBRAIN-31), not the core's RRF-*; nothing of
the jeffs-brain pipeline: no query DSL, no ladder, no fanout, no anchor intent table, no
unanimity, no trigram rescue.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from reference.types import Candidate

from .augment import walk
from .links import page_of_path
from .routing import classify, intent_table, leg_ks
from .search_input import Hit, Leg, SearchInput, Variant, parse_search

JSON = dict[str, Any]
#: GBRAIN-25: seed 004's "RRF fusion -> top 30"; also the reranker's head (GBRAIN-36).
TOP = 30


@dataclass(frozen=True)
class Item:
    """One entry of the list after fusion: its document, score, and where it came from."""

    doc: Candidate
    score: float
    source: str  # "fused" or "graph"


def page_key(doc: Candidate) -> str:
    """GBRAIN-17: a document's page (the page id of its path, GBRAIN-6)."""
    page = page_of_path(doc.path)
    return doc.path if page is None else page


def factor(boost: Sequence[tuple[str, float]], path: str) -> float | None:
    """GBRAIN-30: the factor of the longest prefix of `path` in the map, or None."""
    return next((f for prefix, f in boost if path.startswith(prefix)), None)


def rerank_leg(request: SearchInput, hits: Sequence[Hit], bypass: bool) -> list[Hit]:
    """GBRAIN-16 then GBRAIN-30: drop excluded documents, multiply each score by its source
    factor (not for a temporal query, GBRAIN-20), order by the new score, ties as given."""
    kept = [h for h in hits if not h.doc.path.startswith(request.exclude)]
    if bypass or not request.boost:
        return kept
    scored = []
    for position, hit in enumerate(kept):
        f = factor(request.boost, hit.doc.path)
        score = hit.score if f is None else hit.score * f
        scored.append((-score, position, Hit(hit.doc, score)))
    return [hit for _, _, hit in sorted(scored, key=lambda t: (t[0], t[1]))]


@dataclass(frozen=True)
class Fusion:
    """A fused list and its divisor M, the largest raw sum (GBRAIN-31; 1 when not fused)."""

    items: list[Item]
    divisor: float


def rrf(lists: Sequence[tuple[Sequence[Candidate], float]]) -> Fusion:
    """GBRAIN-31: gbrain's `rrfFusionWeighted`. The item at rank r (from 0) of a list fused at
    k adds 1 / (k + r); sums accumulate in list order; each sum is divided by the largest;
    the order is by score descending, equal scores in first-sighting order (a stable sort)."""
    sums: dict[str, float] = {}
    docs: dict[str, Candidate] = {}
    for docs_of_list, k in lists:
        for rank, doc in enumerate(docs_of_list):
            share = 1.0 / (k + rank)
            if doc.id in sums:
                sums[doc.id] += share
            else:
                sums[doc.id] = share
                docs[doc.id] = doc
    if not sums:
        return Fusion([], 1.0)
    top = max(sums.values())
    items = [Item(docs[i], total / top, "fused") for i, total in sums.items()]
    items.sort(key=lambda item: -item.score)
    return Fusion(items, top)


def hybrid(request: SearchInput, variant: Variant, intent: str, trace: JSON) -> Fusion:
    """GBRAIN-31: each leg re-ranked (GBRAIN-30), then gbrain's RRF of the two, vector first,
    each at gbrain's k over the class's leg weight; a failed vector leg leaves the keyword
    leg with its own (factored) scores, unfused."""
    bypass = intent == "temporal"
    legs: JSON = {}
    kept: dict[str, list[Hit] | None] = {}
    for name in ("vector", "keyword"):
        leg = variant.legs.get(name, Leg())
        if leg.error is not None:
            legs[name] = {"error": leg.error}
            kept[name] = None
            continue
        hits = rerank_leg(request, leg.hits, bypass)
        legs[name] = {"hits": len(hits)}
        kept[name] = hits
    trace["variants"].append({"query": variant.query, "legs": legs})
    keyword = kept["keyword"] or []
    vector = kept["vector"]
    if vector is None:
        return Fusion([Item(h.doc, h.score, "fused") for h in keyword], 1.0)
    vector_k, keyword_k = leg_ks(intent)
    return rrf([(tuple(h.doc for h in vector), vector_k),
                (tuple(h.doc for h in keyword), keyword_k)])


def fused_list(request: SearchInput, intent: str, trace: JSON) -> Fusion:
    """GBRAIN-31, GBRAIN-32: the query's fused list, or the RRF merge of every variant's at
    gbrain's k, the query's list first."""
    variants = request.variants if request.expansion else request.variants[:1]
    per_variant = [hybrid(request, v, intent, trace) for v in variants]
    if len(per_variant) == 1:
        return per_variant[0]
    k = intent_table().rrf_k
    return rrf([(tuple(item.doc for item in fusion.items), k) for fusion in per_variant])


def augment(request: SearchInput, fusion: Fusion, intent: str, trace: JSON) -> list[Item]:
    """GBRAIN-24, GBRAIN-34, GBRAIN-35, GBRAIN-40: walk the stored edges from every page of the
    top 30; the walk's list is one more ranked list, w / (k + r) / M to each page's first
    document (M the fused list's divisor)."""
    head = fusion.items[:TOP]
    if not request.graph:
        trace["graph"] = {"seeds": 0, "reached": 0, "added": []}
        return head
    first_doc: dict[str, Candidate] = {}
    for doc in request.documents:
        if not doc.path.startswith(request.exclude):
            first_doc.setdefault(page_key(doc), doc)
    stored = [e for e in request.edges if e.source in first_doc and e.target in first_doc]
    seeds = sorted({page_key(item.doc) for item in head} & set(first_doc))
    reached = walk(stored, seeds, request.walk, request.limit)
    table = intent_table()
    weight = table.entity_graph_factor if intent == "entity" else 1.0
    raised: dict[str, float] = {}
    added: list[Item] = []
    fused_ids = {item.doc.id for item in head}
    for rank, r in enumerate(reached):
        doc = first_doc[r.page]
        share = weight / (table.rrf_k + rank) / fusion.divisor
        if doc.id in fused_ids:
            raised[doc.id] = raised.get(doc.id, 0.0) + share
        else:
            added.append(Item(doc, share, "graph"))
    pages = set(seeds) | {r.page for r in reached}
    trace["graph"] = {"seeds": len(seeds), "reached": len(pages),
                      "added": [item.doc.id for item in added]}
    fused = [Item(i.doc, i.score + raised[i.doc.id], i.source) if i.doc.id in raised else i
             for i in head]
    keyed = [(-item.score, 0, i, item) for i, item in enumerate(fused)]
    keyed += [(-item.score, 1, i, item) for i, item in enumerate(added)]
    return [t[3] for t in sorted(keyed, key=lambda t: t[:3])]


def rerank(request: SearchInput, items: list[Item], trace: JSON) -> list[Item]:
    """GBRAIN-36: the cross-encoder's order of the first 30, the rest after them."""
    if not request.reranker:
        trace["rerank"] = "disabled"
        return items
    if request.rerank is None:
        trace["rerank"] = "absent"
        return items
    if isinstance(request.rerank, str):
        trace["rerank"] = "failed"
        return items
    head, tail = items[:TOP], items[TOP:]
    by_id = {item.doc.id: item for item in head}
    order: list[Item] = []
    for rid in request.rerank:
        item = by_id.pop(rid, None)
        if item is not None:
            order.append(item)
    order += [item for item in head if item.doc.id in by_id]
    trace["rerank"] = "reranked"
    return order + tail


def utf16_length(text: str) -> int:
    """JavaScript's String.length: UTF-16 code units."""
    return sum(2 if ord(ch) > 0xFFFF else 1 for ch in text)


def tokens(doc: Candidate) -> int:
    """GBRAIN-37: ceil(length / 4) of the title plus that of the content."""
    return math.ceil(utf16_length(doc.title) / 4) + math.ceil(utf16_length(doc.content) / 4)


def within_budget(budget: int | None, items: list[Item], trace: JSON) -> list[Item]:
    """GBRAIN-37: the longest prefix whose tokens fit the budget; when even the first item does
    not fit, that item alone, cut to fit (the code's minKeep failsafe)."""
    if budget is None:
        return items
    used = kept = 0
    for item in items:
        cost = tokens(item.doc)
        if used + cost > budget:
            break
        used += cost
        kept += 1
    if kept == 0 and items:
        trace["budget"] = {"limit": budget, "used": cut_cost(items[0].doc, budget),
                           "dropped": len(items) - 1, "truncated": True}
        return items[:1]
    trace["budget"] = {"limit": budget, "used": used, "dropped": len(items) - kept}
    return items[:kept]


def cut_cost(doc: Candidate, budget: int) -> int:
    """GBRAIN-37: the cost of the first item cut to fit: its title to 4 x budget UTF-16 units,
    its content to what the cut title leaves, 4 units a token."""
    title = min(utf16_length(doc.title), 4 * budget)
    title_tokens = math.ceil(title / 4)
    content = min(utf16_length(doc.content), max(0, budget - title_tokens) * 4)
    return title_tokens + math.ceil(content / 4)


def dedup(items: list[Item], trace: JSON) -> list[Item]:
    """GBRAIN-17: the first item of each page, in the reranked order."""
    seen: set[str] = set()
    out: list[Item] = []
    for item in items:
        key = page_key(item.doc)
        if key not in seen:
            seen.add(key)
            out.append(item)
    trace["dedup"] = {"removed": len(items) - len(out)}
    return out


def search(request: SearchInput) -> JSON:
    """GBRAIN-28..40 in seed 004's order."""
    intent = classify(request.variants[0].query)
    trace: JSON = {
        "intent": intent,
        "bundle": {"name": request.bundle, "expansion": request.expansion,
                   "reranker": request.reranker, "graph": request.graph,
                   "tokenBudget": request.token_budget,
                   "limit": request.limit},
        "variants": [],
    }
    fusion = fused_list(request, intent, trace)
    trace["fused"] = len(fusion.items)
    items = augment(request, fusion, intent, trace)
    items = rerank(request, items, trace)
    items = within_budget(request.token_budget, items, trace)
    if request.dedup:
        items = dedup(items, trace)
    results = [{"id": item.doc.id, "path": item.doc.path, "score": item.score,
                "source": item.source} for item in items[: request.limit]]
    return {"results": results, "trace": trace}


def op_search(obj: Mapping[str, Any]) -> JSON:
    """`gbrain.search` (GBRAIN-28)."""
    return search(parse_search(obj))
