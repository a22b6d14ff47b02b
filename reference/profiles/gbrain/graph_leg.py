"""The graph backend the profile supplies to the core's graph leg (GBRAIN-13..15)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from reference.data import SpecDataError, load_json
from reference.profile_hooks import ProfileCall
from reference.rrf import Fused
from reference.text import normalise, words
from reference.types import (
    MAX_INTEGER,
    Candidate,
    InvalidInput,
    candidates_from_json,
    whole_number,
)

from .links import Edge, extract_links, page_of_path
from .routing import classify, route_weights
from .traverse import WalkOptions, adjacency, edges_from_json, walk, walk_options

SOURCES_FILE = "profiles/gbrain/sources.json"
OPTION_FIELDS = frozenset(
    {"depth", "fanout", "types", "direction", "exclude", "dedup", "boost", "tokenBudget",
     "variants", "bundle", "expansion", "reranker"}
)


@dataclass(frozen=True)
class Bundle:
    """GBRAIN-26, GBRAIN-27: a mode bundle's defaults."""

    expansion: bool
    reranker: bool
    token_budget: int


#: GBRAIN-26 (expansion, the balanced reranker: seed 004) and GBRAIN-27 (the rest: the kit's).
BUNDLES = {
    "conservative": Bundle(expansion=False, reranker=False, token_budget=4000),
    "balanced": Bundle(expansion=False, reranker=True, token_budget=8000),
    "tokenmax": Bundle(expansion=True, reranker=True, token_budget=16000),
}
#: GBRAIN-22: at most this many caller-supplied query variants.
MAX_VARIANTS = 8
#: GBRAIN-25: seed 004's "RRF fusion → top 30": the fused list is cut to this many.
FUSED_TOP = 30


@dataclass(frozen=True)
class GbrainOptions:
    """GBRAIN-13: the walk's options, the hard-exclude prefixes (GBRAIN-16), dedup (GBRAIN-17)."""

    walk: WalkOptions
    exclude: tuple[str, ...]
    dedup: bool
    #: GBRAIN-18: (prefix, factor), longest prefix first.
    boost: tuple[tuple[str, float], ...] = ()
    #: GBRAIN-21: the token budget, or None.
    token_budget: int | None = None
    #: GBRAIN-22: the caller's query variants, in their order.
    variants: tuple[str, ...] = ()
    #: GBRAIN-26: the mode bundle (None: none), whether variants run, whether the reranker runs.
    bundle: str | None = None
    expansion: bool = True
    reranker: bool = True


@dataclass(frozen=True)
class GraphData:
    """GBRAIN-13: the pages the graph leg may return (by page id) and the edges it walks."""

    pages: Mapping[str, Candidate]
    edges: Sequence[Edge]


def parse_options(obj: Mapping[str, Any]) -> GbrainOptions:
    """GBRAIN-13: request.profiles.gbrain; unknown members are invalid input."""
    where = "request.profiles.gbrain"
    if not isinstance(obj, Mapping):
        raise InvalidInput(f"{where} must be an object")
    unknown = sorted(set(obj) - OPTION_FIELDS)
    if unknown:
        raise InvalidInput(f"{where}: unknown option {unknown[0]!r}")
    exclude = obj.get("exclude")
    if exclude is None:
        exclude = default_excludes()
    elif not isinstance(exclude, list) or not all(isinstance(p, str) and p for p in exclude):
        raise InvalidInput(f"{where}.exclude must be a list of non-empty strings")
    bundle = obj.get("bundle")
    if bundle is not None and bundle not in BUNDLES:
        raise InvalidInput(f"{where}.bundle must be one of {sorted(BUNDLES)}")
    preset = BUNDLES.get(bundle) if isinstance(bundle, str) else None
    budget = obj.get("tokenBudget")
    if budget is None and preset is not None:
        budget = preset.token_budget
    return GbrainOptions(
        walk_options(obj, f"{where}."),
        tuple(exclude),
        _flag(obj, "dedup", True, where),
        _boost_map(obj.get("boost"), f"{where}.boost"),
        None if budget is None else whole_number(budget, f"{where}.tokenBudget"),
        _variants(obj.get("variants"), f"{where}.variants"),
        bundle,
        _flag(obj, "expansion", True if preset is None else preset.expansion, where),
        _flag(obj, "reranker", True if preset is None else preset.reranker, where),
    )


def _flag(obj: Mapping[str, Any], name: str, default: bool, where: str) -> bool:
    """A boolean option; absent or null takes the default (OP-5)."""
    value = obj.get(name)
    if value is None:
        return default
    if not isinstance(value, bool):
        raise InvalidInput(f"{where}.{name} must be a boolean")
    return value


def _variants(raw: object, where: str) -> tuple[str, ...]:
    """GBRAIN-22: at most 8 strings, none empty after normalisation (TEXT-1..4); null is none."""
    if raw is None:
        return ()
    if not isinstance(raw, list) or len(raw) > MAX_VARIANTS:
        raise InvalidInput(f"{where} must be a list of at most {MAX_VARIANTS} strings")
    for i, variant in enumerate(raw):
        if not isinstance(variant, str) or normalise(variant) == "":
            raise InvalidInput(f"{where}[{i}] must be a string, not empty after normalisation")
    return tuple(raw)


def query_variants(call: ProfileCall, query: str) -> list[str]:
    """GBRAIN-22: the caller's variants, run by the core and merged by RRF (PIPE-12), when
    expansion is on (GBRAIN-26); records the bundle in the trace."""
    options: GbrainOptions = call.options
    if options.bundle is not None:
        call.trace["bundle"] = {
            "name": options.bundle,
            "expansion": options.expansion,
            "reranker": options.reranker,
            "tokenBudget": options.token_budget,
        }
    return list(options.variants) if options.expansion else []


def rerank_enabled(call: ProfileCall) -> bool:
    """GBRAIN-26: the bundle's (or the option's) reranker switch."""
    return bool(call.options.reranker)


def _boost_map(raw: object, where: str) -> tuple[tuple[str, float], ...]:
    """GBRAIN-18: {prefix: factor}, factors finite and > 0; longest prefix first."""
    if raw is None:
        return ()
    if not isinstance(raw, Mapping):
        raise InvalidInput(f"{where} must be an object")
    out: list[tuple[str, float]] = []
    for prefix, factor in raw.items():
        if prefix == "":
            raise InvalidInput(f"{where}: a prefix must not be empty")
        if isinstance(factor, bool) or not isinstance(factor, int | float):
            raise InvalidInput(f"{where}.{prefix} must be a number")
        value = float(factor)
        if not math.isfinite(value) or value <= 0:
            raise InvalidInput(f"{where}.{prefix} must be a finite number > 0")
        out.append((prefix, value))
    return tuple(sorted(out, key=lambda pf: -len(pf[0])))


def boost(options: GbrainOptions, items: list[Fused]) -> list[Fused]:
    """GBRAIN-18: multiply by the longest matching prefix's factor, re-sort by exact value."""
    if not options.boost:
        return items
    keyed: list[tuple[Fraction, int, Fused]] = []
    for position, item in enumerate(items):
        factor = next((f for p, f in options.boost if item.candidate.path.startswith(p)), None)
        if factor is not None:
            item = replace(item, score=item.score * factor, exact=item.exact * Fraction(factor))
        keyed.append((-item.exact, position, item))
    return [item for _, _, item in sorted(keyed, key=lambda t: (t[0], t[1]))]


def default_excludes() -> list[str]:
    """GBRAIN-16: seed 004's hard-exclude prefixes, from sources.json."""
    doc = load_json(SOURCES_FILE)
    try:
        return [str(p) for p in doc["exclude"]]
    except (KeyError, TypeError) as exc:
        raise SpecDataError(f"{SOURCES_FILE} is malformed: {exc}") from exc


def leg_limit(call: ProfileCall, leg: str, candidate_k: int) -> int:
    """GBRAIN-16: with excludes, ask for every hit, so the cut sees the answer without them."""
    return MAX_INTEGER if call.options.exclude else candidate_k


def filter_leg(call: ProfileCall, leg: str, hits: list[Candidate]) -> list[Candidate]:
    """GBRAIN-16: drop hits under a hard-exclude prefix, before the candidateK cut."""
    prefixes = call.options.exclude
    return [h for h in hits if not h.path.startswith(prefixes)] if prefixes else hits


def adjust_weights(call: ProfileCall, query: str, weights: dict[str, float]) -> dict[str, float]:
    """GBRAIN-19, GBRAIN-20: classify the query once, record it, route the graph weight."""
    intent = classify(query)
    call.trace["intent"] = intent
    return route_weights(intent, weights)


def after_fusion(call: ProfileCall, query: str, items: list[Fused]) -> list[Fused]:
    """GBRAIN-18 (not for temporal queries, GBRAIN-20), then the cut to FUSED_TOP (GBRAIN-25).

    GBRAIN-23: the class that decides the temporal bypass (and the trace's `intent`) is the
    one of the query this stage sees, variant 0's, whatever the variants' classes were.
    The kept candidates are handed to `after_rerank` (dedup and budget, GBRAIN-17, GBRAIN-21).
    """
    call.trace["intent"] = classify(query)
    if call.trace["intent"] != "temporal":
        items = boost(call.options, items)
    items = items[:FUSED_TOP]
    call.state["candidates"] = {item.id: item.candidate for item in items}
    return items


def after_rerank(
    call: ProfileCall, query: str, entries: list[tuple[str, float | None]], outcome: str
) -> list[str]:
    """GBRAIN-21 then GBRAIN-17 on the reranked list, in seed 004's order: the budget, then
    dedup keeps the best reranked chunk of each page."""
    by_id: Mapping[str, Candidate] = call.state["candidates"]
    items = [by_id[item_id] for item_id, _ in entries]
    if call.options.token_budget is not None:
        items = within_budget(call, call.options.token_budget, items)
    if call.options.dedup:
        items = dedup(items)
    return [item.id for item in items]


def dedup(items: list[Candidate]) -> list[Candidate]:
    """GBRAIN-17: the first item of each page (page id of its path, or the path)."""
    seen: set[str] = set()
    out: list[Candidate] = []
    for item in items:
        page = page_of_path(item.path)
        key = item.path if page is None else page
        if key not in seen:
            seen.add(key)
            out.append(item)
    return out


def within_budget(call: ProfileCall, budget: int, items: list[Candidate]) -> list[Candidate]:
    """GBRAIN-21: the longest prefix whose TEXT-7 word count of contents fits the budget."""
    used = 0
    kept = 0
    for item in items:
        tokens = len(words(item.content))
        if used + tokens > budget:
            break
        used += tokens
        kept += 1
    call.trace["budget"] = {"limit": budget, "used": used, "dropped": len(items) - kept}
    return items[:kept]


def parse_graph_data(obj: Any | None) -> GraphData | None:
    """GBRAIN-13: backends.profiles.gbrain {pages, edges?}; absent edges are extracted."""
    if obj is None:
        return None
    where = "backends.profiles.gbrain"
    if not isinstance(obj, Mapping):
        raise InvalidInput(f"{where} must be an object")
    pages = candidates_from_json(obj.get("pages"), f"{where}.pages")
    by_page: dict[str, Candidate] = {}
    ids: set[str] = set()
    for i, page in enumerate(pages):
        pid = page_of_path(page.path)
        if pid is None:
            raise InvalidInput(f"{where}.pages[{i}]: path {page.path!r} names no page")
        if pid in by_page or page.id in ids:
            raise InvalidInput(f"{where}.pages[{i}]: repeated id or page {pid!r}")
        by_page[pid] = page
        ids.add(page.id)
    if obj.get("edges") is not None:
        edges = edges_from_json(obj["edges"], f"{where}.edges")
    else:
        edges = [e for page in pages for e in extract_links(page.path, page.content)[1]]
    return GraphData(by_page, stored_edges(edges, by_page))


def stored_edges(edges: Sequence[Edge], pages: Mapping[str, Candidate]) -> list[Edge]:
    """GBRAIN-24: only edges between two indexed pages are stored (the seed's JOIN pages)."""
    return [e for e in edges if e.source in pages and e.target in pages]


def _names(page_id: str, page: Candidate) -> list[list[str]]:
    """GBRAIN-14: the page's names as word lists (title, last id segment with - and _ spaced)."""
    names = [page.title] if page.title else []
    names.append(page_id.rsplit("/", 1)[-1].replace("-", " ").replace("_", " "))
    return [w for w in (words(n) for n in names) if w]


def _occurs(name: list[str], query: list[str]) -> bool:
    size = len(name)
    return any(query[i : i + size] == name for i in range(len(query) - size + 1))


def entity_seeds(query: str, data: GraphData) -> list[str]:
    """GBRAIN-14: page ids one of whose names occurs in the query's words, by code point."""
    query_words = words(query)
    return sorted(
        pid for pid, page in data.pages.items()
        if any(_occurs(name, query_words) for name in _names(pid, page))
    )


def graph_backend(call: ProfileCall) -> GbrainGraphBackend | None:
    """GBRAIN-13: the profile supplies a graph backend exactly when its backend data is given."""
    if call.backend is None:
        return None
    return GbrainGraphBackend(call.options, call.backend, call.trace)


class GbrainGraphBackend:
    """GBRAIN-15: reached pages in rank order as candidates; writes the profile's trace."""

    def __init__(self, options: GbrainOptions, data: GraphData, trace: dict[str, Any]) -> None:
        self._options = options
        self._data = data
        self._trace = trace

    def search_graph(self, query: str, limit: int) -> list[Candidate]:
        seeds = entity_seeds(query, self._data)
        options = self._options.walk
        reached = walk(adjacency(self._data.edges, options), seeds, options)
        self._trace["seeds"] = seeds
        self._trace["reached"] = len(reached)
        hits = [self._data.pages[r.page] for r in reached if r.page in self._data.pages]
        return hits[:limit]
