"""Broken ports of profile gbrain: `gbrain.search`, stage by stage (spec/profiles/gbrain.md
GBRAIN-16, GBRAIN-17, GBRAIN-20, GBRAIN-24, GBRAIN-25, GBRAIN-28..39), registered on import.
Several are the real gbrain's own departures from seed 004 (the chapter's "where the code
differs") or the profile's 2.x readings."""

from __future__ import annotations

import math
from dataclasses import replace
from types import ModuleType
from typing import Any

from conformance.selftest.broken_ports.patching import _mod, mutant, set_attr, swap


def _search() -> ModuleType:
    return _mod("reference.profiles.gbrain.search")


def _input() -> ModuleType:
    return _mod("reference.profiles.gbrain.search_input")


@mutant(
    "gbrain-archive-not-excluded",
    "GBRAIN-16",
    "the code's hard excludes: archive/ is only demoted (source-boost.ts:64-68)",
    seams=("reference.profiles.gbrain.search_input.default_excludes",),
)
def _archive_kept() -> None:
    mod = _input()
    original = mod.default_excludes
    swap(mod, "default_excludes", lambda: [p for p in original() if p != "archive/"])


@mutant(
    "gbrain-dedup-two-per-page",
    "GBRAIN-17",
    "the code's dedup keeps two chunks per page",
    seams=("reference.profiles.gbrain.search.dedup",),
)
def _dedup_two() -> None:
    mod = _search()

    def dedup(items: list[Any], trace: dict[str, Any]) -> list[Any]:
        count: dict[str, int] = {}
        out = []
        for item in items:
            key = mod.page_key(item.doc)
            count[key] = count.get(key, 0) + 1
            if count[key] <= 2:
                out.append(item)
        trace["dedup"] = {"removed": len(items) - len(out)}
        return out

    swap(mod, "dedup", dedup)


@mutant(
    "gbrain-dedup-before-rerank",
    "GBRAIN-17",
    "the code's order: dedup, then the reranker, then the budget (hybrid.ts:2051-2189)",
    seams=("reference.profiles.gbrain.search.rerank", "reference.profiles.gbrain.search.dedup"),
)
def _dedup_first() -> None:
    mod = _search()
    original_rerank, original_dedup = mod.rerank, mod.dedup

    def rerank(request: Any, items: list[Any], trace: dict[str, Any]) -> Any:
        if request.dedup:
            items = original_dedup(items, trace)
        return original_rerank(request, items, trace)

    swap(mod, "rerank", rerank)
    swap(mod, "dedup", lambda items, trace: items)


@mutant(
    "gbrain-temporal-keeps-boost",
    "GBRAIN-20",
    "temporal queries get the source factors too",
    seams=("reference.profiles.gbrain.search.rerank_leg",),
)
def _temporal_boost() -> None:
    mod = _search()
    original = mod.rerank_leg
    swap(mod, "rerank_leg", lambda request, hits, bypass: original(request, hits, False))


@mutant(
    "gbrain-walks-unstored-edges",
    "GBRAIN-24",
    "every edge is walked, through pages that are not documents; only documents are added",
    seams=("reference.profiles.gbrain.search.augment",),
)
def _unstored() -> None:
    mod = _search()
    walker = _mod("reference.profiles.gbrain.augment")
    original = mod.augment

    def augment(request: Any, fusion: Any, intent: str, trace: dict[str, Any]) -> list[Any]:
        if not request.graph:
            out: list[Any] = original(request, fusion, intent, trace)
            return out
        head = fusion.items[: mod.TOP]
        first: dict[str, Any] = {}
        for doc in request.documents:
            if not doc.path.startswith(request.exclude):
                first.setdefault(mod.page_key(doc), doc)
        seeds = sorted({mod.page_key(item.doc) for item in head} & set(first))
        reached = walker.walk(request.edges, seeds, request.walk, request.limit)
        fused_ids = {item.doc.id for item in head}
        w = mod.intent_table().entity_graph_factor if intent == "entity" else 1.0
        raised: dict[str, float] = {}
        added: list[Any] = []
        for rank, r in enumerate(reached):
            doc = first.get(r.page)
            if doc is None:
                continue
            share = w / (60 + rank) / fusion.divisor
            if doc.id in fused_ids:
                raised[doc.id] = share
            else:
                added.append(mod.Item(doc, share, "graph"))
        pages = set(seeds) | {r.page for r in reached}
        trace["graph"] = {"seeds": len(seeds), "reached": len(pages),
                          "added": [item.doc.id for item in added]}
        out = [replace(i, score=i.score + raised.get(i.doc.id, 0.0)) for i in head] + added
        keyed = [(-i.score, i.source != "fused", n, i) for n, i in enumerate(out)]
        return [t[3] for t in sorted(keyed, key=lambda t: t[:3])]

    swap(mod, "augment", augment)


@mutant(
    "gbrain-augment-fused-not-raised",
    "GBRAIN-40",
    "the 3.0.0 reading: a reached page of the top 30 keeps its fused score",
    seams=("reference.profiles.gbrain.search.augment",),
)
def _not_raised() -> None:
    mod = _search()
    original = mod.augment

    def augment(request: Any, fusion: Any, intent: str, trace: dict[str, Any]) -> list[Any]:
        scores = {item.doc.id: item.score for item in fusion.items}
        out = [replace(i, score=scores[i.doc.id]) if i.source == "fused" else i
               for i in original(request, fusion, intent, trace)]
        keyed = [(-i.score, i.source != "fused", n, i) for n, i in enumerate(out)]
        return [t[3] for t in sorted(keyed, key=lambda t: t[:3])]

    swap(mod, "augment", augment)


@mutant(
    "gbrain-augment-added-counted-apart",
    "GBRAIN-40",
    "the 3.0.0 reading: the j-th added page scores w/(60 + j)/M, fused pages uncounted",
    seams=("reference.profiles.gbrain.search.augment",),
)
def _counted_apart() -> None:
    mod = _search()
    original = mod.augment

    def augment(request: Any, fusion: Any, intent: str, trace: dict[str, Any]) -> list[Any]:
        out = original(request, fusion, intent, trace)
        weight = 2.0 if intent == "entity" else 1.0
        added = [i for i in out if i.source == "graph"]
        order = {i.doc.id: j for j, i in enumerate(
            sorted(added, key=lambda i: -i.score))}
        out = [replace(i, score=weight / (60 + order[i.doc.id]) / fusion.divisor)
               if i.source == "graph" else i for i in out]
        keyed = [(-i.score, i.source != "fused", n, i) for n, i in enumerate(out)]
        return [t[3] for t in sorted(keyed, key=lambda t: t[:3])]

    swap(mod, "augment", augment)


@mutant(
    "gbrain-augment-accepts-fanout",
    "GBRAIN-28",
    "the 3.0.0 member fanout is still accepted (and ignored)",
    seams=("reference.profiles.gbrain.search_input.FIELDS",),
)
def _accepts_fanout() -> None:
    mod = _input()
    swap(mod, "FIELDS", mod.FIELDS | {"fanout"})


@mutant(
    "gbrain-graph-always-on",
    "GBRAIN-39",
    "the augment runs in every bundle and the graph option is ignored",
    seams=("reference.profiles.gbrain.search.augment",),
)
def _graph_always_on() -> None:
    mod = _search()
    original = mod.augment
    swap(mod, "augment", lambda request, fusion, intent, trace: original(
        replace(request, graph=True), fusion, intent, trace))


@mutant(
    "gbrain-no-top-30-cut",
    "GBRAIN-25",
    "the fused list is not cut to 30 before the augment",
    seams=("reference.profiles.gbrain.search.TOP",),
)
def _no_cut() -> None:
    set_attr(_search(), "TOP", 10**6)


@mutant(
    "gbrain-leg-ids-unchecked",
    "GBRAIN-28",
    "a leg id that is no document is skipped",
    seams=("reference.profiles.gbrain.search_input._leg",),
)
def _ids_unchecked() -> None:
    mod = _input()
    original = mod._leg

    def leg(raw: object, where: str, docs: Any) -> Any:
        if isinstance(raw, list):
            raw = [e for e in raw if not isinstance(e, dict) or e.get("id") in docs]
        return original(raw, where, docs)

    swap(mod, "_leg", leg)


@mutant(
    "gbrain-source-always-fused",
    "GBRAIN-29",
    "every result says source fused",
    seams=("reference.profiles.gbrain.search.search",),
)
def _source_fused() -> None:
    mod = _search()
    original = mod.search

    def search(request: Any) -> Any:
        out = original(request)
        for result in out["results"]:
            result["source"] = "fused"
        return out

    swap(mod, "search", search)


@mutant(
    "gbrain-boost-on-fused-score",
    "GBRAIN-30",
    "the 2.x reading (G2): the factor multiplies the fused score, legs keep their order",
    seams=(
        "reference.profiles.gbrain.search.rerank_leg",
        "reference.profiles.gbrain.search.fused_list",
    ),
)
def _boost_fused() -> None:
    mod = _search()
    original_leg, original_fused = mod.rerank_leg, mod.fused_list

    def rerank_leg(request: Any, hits: Any, bypass: bool) -> Any:
        return original_leg(replace(request, boost=()), hits, bypass)

    def fused_list(request: Any, intent: str, trace: dict[str, Any]) -> Any:
        fusion = original_fused(request, intent, trace)
        if intent == "temporal":
            return fusion
        keyed = []
        for position, item in enumerate(fusion.items):
            f = mod.factor(request.boost, item.doc.path)
            score = item.score if f is None else item.score * f
            keyed.append((-score, position, replace(item, score=score)))
        items = [t[2] for t in sorted(keyed, key=lambda t: (t[0], t[1]))]
        return replace(fusion, items=items)

    swap(mod, "rerank_leg", rerank_leg)
    swap(mod, "fused_list", fused_list)


@mutant(
    "gbrain-no-default-boost",
    "GBRAIN-30",
    "the 2.x reading: no default boost map",
    seams=("reference.profiles.gbrain.search_input.sources",),
)
def _no_default_boost() -> None:
    mod = _input()
    original = mod.sources
    swap(mod, "sources", lambda: {**original(), "boost": {}})


@mutant(
    "gbrain-rrf-ranks-from-one",
    "GBRAIN-31",
    "the kit's RRF-2 reading in gbrain's fusion: rank r adds 1/(k + r + 1), the top hit 1/61",
    seams=("reference.profiles.gbrain.search.rrf",),
)
def _ranks_from_one() -> None:
    mod = _search()
    original = mod.rrf
    swap(mod, "rrf", lambda lists: original([(docs, k + 1) for docs, k in lists]))


@mutant(
    "gbrain-rrf-not-normalised",
    "GBRAIN-31",
    "the fused sums are emitted as they are, not divided by the largest",
    seams=("reference.profiles.gbrain.search.rrf",),
)
def _not_normalised() -> None:
    mod = _search()
    original = mod.rrf

    def rrf(lists: Any) -> Any:
        fusion = original(lists)
        top = fusion.divisor
        return mod.Fusion([replace(i, score=i.score * top) for i in fusion.items], 1.0)

    swap(mod, "rrf", rrf)


@mutant(
    "gbrain-rrf-ties-by-path",
    "GBRAIN-31",
    "the core's RRF-8/RRF-12 tie order (path, then id) instead of the first sighting",
    seams=("reference.profiles.gbrain.search.rrf",),
)
def _ties_by_path() -> None:
    mod = _search()
    original = mod.rrf

    def rrf(lists: Any) -> Any:
        fusion = original(lists)
        items = sorted(fusion.items, key=lambda i: (-i.score, i.doc.path, i.doc.id))
        return replace(fusion, items=items)

    swap(mod, "rrf", rrf)


@mutant(
    "gbrain-rrf-no-intent-tilt",
    "GBRAIN-31",
    "both legs fuse at k 60 for every class (the code's intent weights ignored)",
    seams=("reference.profiles.gbrain.search.leg_ks",),
)
def _no_tilt() -> None:
    mod = _search()
    original = mod.leg_ks
    swap(mod, "leg_ks", lambda intent: original("general"))


@mutant(
    "gbrain-rrf-weight-times-k",
    "GBRAIN-31",
    "a leg's k is multiplied by its weight instead of divided (a higher weight flattens)",
    seams=("reference.profiles.gbrain.search.leg_ks",),
)
def _weight_times_k() -> None:
    mod = _search()
    original = mod.leg_ks

    def leg_ks(intent: str) -> tuple[float, float]:
        vector, keyword = original(intent)
        k = 60.0
        return k * (k / vector), k * (k / keyword)

    swap(mod, "leg_ks", leg_ks)


@mutant(
    "gbrain-vector-error-still-fused",
    "GBRAIN-31",
    "a failed vector leg is an empty list: the keyword leg is fused alone (RRF shares)",
    seams=("reference.profiles.gbrain.search.hybrid",),
)
def _vector_error_fused() -> None:
    mod = _search()
    original = mod.hybrid

    def hybrid(request: Any, variant: Any, intent: str, trace: dict[str, Any]) -> Any:
        vector = variant.legs.get("vector")
        if vector is None or vector.error is None:
            return original(request, variant, intent, trace)
        legs = {**variant.legs, "vector": mod.Leg()}
        fusion = original(request, replace(variant, legs=legs), intent, trace)
        trace["variants"][-1]["legs"]["vector"] = {"error": vector.error}
        return fusion

    swap(mod, "hybrid", hybrid)


@mutant(
    "gbrain-keyword-error-unfused",
    "GBRAIN-31",
    "a failed keyword leg leaves the vector leg's own scores, unfused (as a failed vector leg)",
    seams=("reference.profiles.gbrain.search.hybrid",),
)
def _keyword_error_unfused() -> None:
    mod = _search()
    original = mod.hybrid

    def hybrid(request: Any, variant: Any, intent: str, trace: dict[str, Any]) -> Any:
        fusion = original(request, variant, intent, trace)
        keyword, vector = variant.legs.get("keyword"), variant.legs.get("vector")
        if keyword is None or keyword.error is None or vector is None or vector.error is not None:
            return fusion
        hits = mod.rerank_leg(request, vector.hits, intent == "temporal")
        return mod.Fusion([mod.Item(h.doc, h.score, "fused") for h in hits], 1.0)

    swap(mod, "hybrid", hybrid)


@mutant(
    "gbrain-graph-share-unscaled",
    "GBRAIN-40",
    "the walk's share w/(60 + r) is added as it is, not over the fused list's divisor",
    seams=("reference.profiles.gbrain.search.augment",),
)
def _share_unscaled() -> None:
    mod = _search()
    original = mod.augment
    swap(mod, "augment", lambda request, fusion, intent, trace: original(
        request, replace(fusion, divisor=1.0), intent, trace))


@mutant(
    "gbrain-variants-always-run",
    "GBRAIN-32",
    "variants run whatever the expansion switch",
    seams=("reference.profiles.gbrain.search.fused_list",),
)
def _variants_always() -> None:
    mod = _search()
    original = mod.fused_list
    swap(mod, "fused_list",
         lambda request, intent, trace: original(replace(request, expansion=True), intent, trace))


@mutant(
    "gbrain-limit-ignored",
    "GBRAIN-33",
    "every item is returned, whatever the limit",
    seams=("reference.profiles.gbrain.search.search",),
)
def _limit_ignored() -> None:
    mod = _search()
    original = mod.search
    swap(mod, "search", lambda request: original(replace(request, limit=10**6)))


@mutant(
    "gbrain-graph-added-last",
    "GBRAIN-34",
    "added pages go after every fused item",
    seams=("reference.profiles.gbrain.search.augment",),
)
def _added_last() -> None:
    mod = _search()
    original = mod.augment

    def augment(request: Any, fusion: Any, intent: str, trace: dict[str, Any]) -> list[Any]:
        out = original(request, fusion, intent, trace)
        return [i for i in out if i.source == "fused"] + [i for i in out if i.source == "graph"]

    swap(mod, "augment", augment)


@mutant(
    "gbrain-entity-weight-ignored",
    "GBRAIN-35",
    "entity queries add pages with weight 1",
    seams=("reference.profiles.gbrain.search.augment",),
)
def _entity_ignored() -> None:
    mod = _search()
    original = mod.augment
    swap(mod, "augment",
         lambda request, fusion, intent, trace: original(request, fusion, "general", trace))


@mutant(
    "gbrain-rerank-ignored",
    "GBRAIN-36",
    "the reranker's order is never applied",
    seams=("reference.profiles.gbrain.search.rerank",),
)
def _rerank_ignored() -> None:
    mod = _search()
    original = mod.rerank

    def rerank(request: Any, items: list[Any], trace: dict[str, Any]) -> list[Any]:
        original(request, items, trace)
        return items

    swap(mod, "rerank", rerank)


@mutant(
    "gbrain-budget-counts-words",
    "GBRAIN-37",
    "the 2.x reading: tokens are TEXT-7 words",
    seams=("reference.profiles.gbrain.search.tokens",),
)
def _budget_words() -> None:
    mod = _search()
    words = _mod("reference.text").words
    swap(mod, "tokens", lambda doc: len(words(doc.title)) + len(words(doc.content)))


@mutant(
    "gbrain-budget-code-points",
    "GBRAIN-37",
    "lengths in code points, not UTF-16 units",
    seams=("reference.profiles.gbrain.search.tokens",),
)
def _budget_code_points() -> None:
    mod = _search()
    swap(mod, "tokens",
         lambda doc: math.ceil(len(doc.title) / 4) + math.ceil(len(doc.content) / 4))


@mutant(
    "gbrain-budget-strict",
    "GBRAIN-37",
    "no minKeep failsafe: a first item over the budget leaves nothing (packToBudget's strict edge)",
    seams=("reference.profiles.gbrain.search.within_budget",),
)
def _budget_strict() -> None:
    mod = _search()

    def within_budget(budget: int | None, items: list[Any], trace: dict[str, Any]) -> list[Any]:
        if budget is None:
            return items
        used = kept = 0
        for item in items:
            cost = mod.tokens(item.doc)
            if used + cost > budget:
                break
            used, kept = used + cost, kept + 1
        trace["budget"] = {"limit": budget, "used": used, "dropped": len(items) - kept}
        return items[:kept]

    swap(mod, "within_budget", within_budget)


@mutant(
    "gbrain-budget-cut-counts-the-whole-title",
    "GBRAIN-37",
    "the failsafe cuts only the content and counts the title whole",
    seams=("reference.profiles.gbrain.search.cut_cost",),
)
def _budget_cut_title_whole() -> None:
    mod = _search()

    def cut_cost(doc: Any, budget: int) -> int:
        title_tokens = math.ceil(mod.utf16_length(doc.title) / 4)
        content = min(mod.utf16_length(doc.content), max(0, budget - title_tokens) * 4)
        return int(title_tokens + math.ceil(content / 4))

    swap(mod, "cut_cost", cut_cost)


@mutant(
    "gbrain-balanced-reranker-off",
    "GBRAIN-39",
    "balanced has the reranker off",
    seams=("reference.profiles.gbrain.search_input.BUNDLES",),
)
def _balanced_off() -> None:
    mod = _input()
    bundles = dict(mod.BUNDLES)
    bundles["balanced"] = replace(bundles["balanced"], reranker=False)
    set_attr(mod, "BUNDLES", bundles)
