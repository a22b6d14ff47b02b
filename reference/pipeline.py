"""The search pipeline: stage order, legs, fusion, post-fusion stages (spec/pipeline.md).

`search(request, backends)` returns (results, trace). Stages are the pure functions of the
other reference modules; this module only orchestrates them and calls the backends.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from reference import SPEC_VERSION
from reference.backends.protocols import Embedder, Index, RerankEntry, Reranker, VectorStore
from reference.fanout import plan_expressions
from reference.intent import detect, reweight
from reference.ladder import Bm25LegResult, plan_ladder, run_bm25_leg
from reference.modes import ResolvedMode, resolve_mode
from reference.profile_hooks import GraphBackend, PipelineHooks, ProfileCall
from reference.query import ParsedQuery, compile_query, parse
from reference.request import WEIGHT_NAMES, Request, parse_request
from reference.rerank import RerankOutcome, rerank_head, skip_before_unanimity, skipped
from reference.rrf import Fused, RankedList, check_weight, fuse
from reference.text import normalise
from reference.trigram import TrigramIndex
from reference.types import Candidate, IndexError_, InvalidInput
from reference.unanimity import check as unanimity_check

TrigramSearch = Callable[[Sequence[str], int], list[Candidate]]


@dataclass
class Backends:
    """What the pipeline calls; None means "not configured" (MODE-1, MODE-2, RERANK)."""

    index: Index | None = None
    embedder: Embedder | None = None
    vectors: VectorStore | None = None
    reranker: Reranker | None = None
    #: GRAPH-2: the graph leg's backend; None when no graph is configured.
    graph: GraphBackend | None = None
    #: PIPE-10: `backends.profiles`, each profile's raw backend data, parsed when enabled.
    profile_data: Mapping[str, Any] = field(default_factory=dict)
    _trigram_cache: dict[int, TrigramIndex] = field(default_factory=dict, repr=False)

    def trigram_search(self) -> TrigramSearch | None:
        """The trigram rung's search over the index's chunk contents, or None without chunks.

        The trigram index is built lazily, only when the rung is reached, and cached per
        chunk list so a long-lived Backends pays for it once.
        """
        index = self.index
        if index is None:
            return None
        # An index that always lists its chunks says so, and loads them only when the rung
        # is reached (100k chunks take about 0.6 s to load, a cost most searches never need).
        if getattr(index, "lists_chunks", False) is not True and index.chunks() is None:
            return None
        cache = self._trigram_cache

        def run(tokens: Sequence[str], limit: int) -> list[Candidate]:
            listed = index.chunks()
            if listed is None:
                raise IndexError_("the index no longer lists its chunks")
            key = id(listed)
            tri = cache.get(key)
            if tri is None:
                # An index that stored its chunks' words at index time loads them (TRI-1).
                stored = getattr(index, "trigram_index", None)
                tri = stored() if callable(stored) else None
            if tri is None:
                tri = TrigramIndex(list(listed))
                cache.clear()
                cache[key] = tri
            return [hit.candidate for hit in tri.search(tokens, limit)]

        return run


#: PIPE-8, MODE-4: why a leg did not run (the trace's `bm25.skip` / `vector.skip`).
SKIP_MODE = "mode"
SKIP_ZERO_WEIGHT = "zero_weight"


def leg_skip(runs_in_mode: bool, weight: float) -> str | None:
    """MODE-4, PIPE-8: None when the leg runs; else `mode` (checked first) or `zero_weight`."""
    if not runs_in_mode:
        return SKIP_MODE
    if weight == 0:
        return SKIP_ZERO_WEIGHT
    return None


#: PIPE-5, GRAPH-4: the order in which the legs' lists are fused.
FUSION_ORDER = ("bm25", "vector", "graph")


def graph_in_mode(effective_mode: str) -> bool:
    """GRAPH-3: the graph is one of the hybrid legs."""
    return effective_mode == "hybrid"


_BM25_NOT_RUN: dict[str, Any] = {
    "ran": False,
    "attempts": [],
    "usedRetry": False,
    "winningRung": None,
    "hits": 0,
    "error": None,
}


def _error(exc: BaseException) -> dict[str, str]:
    kind = getattr(exc, "kind", "index_error")
    return {"kind": str(kind), "message": str(exc)}


@dataclass
class LegOutcome:
    """The vector leg's (or the graph leg's, GRAPH-4) outcome."""

    ran: bool = False
    skip: str | None = SKIP_MODE
    hits: list[Candidate] = field(default_factory=list)
    error: dict[str, str] | None = None
    #: PIPE-11: False when the leg ran at weight 0 for a profile: not fused, no vote.
    fused: bool = True

    def trace_json(self) -> dict[str, Any]:
        return {"ran": self.ran, "skip": self.skip, "hits": len(self.hits), "error": self.error}


Search = Callable[[int], list[Candidate]]


class _Profiles:
    """PIPE-10, PIPE-11: the profiles a request enables, applied in name order at each hook."""

    def __init__(self, req: Request, data: Mapping[str, Any]) -> None:
        from reference.profiles import discover

        known = discover()
        self.calls: list[tuple[PipelineHooks, ProfileCall]] = []
        for name in sorted(req.profiles):
            hooks = known[name].pipeline
            assert hooks is not None  # parse_request checked it (PIPE-10)
            raw = data.get(name)
            backend = hooks.parse_backends(raw) if hooks.parse_backends is not None else None
            self.calls.append((hooks, ProfileCall(name, req.profiles[name], backend)))

    def query_variants(self, query: str) -> list[str]:
        """PIPE-11, PIPE-12: every profile's variants of the request's query, in name order."""
        out: list[str] = []
        for hooks, call in self.calls:
            if hooks.query_variants is not None:
                out.extend(hooks.query_variants(call, query))
        return out

    def rewrite_query(self, query: str, fanout: bool = False) -> str:
        """PIPE-11; with the fanout a profile with `fanout_base` does not rewrite (FANOUT-15)."""
        for hooks, call in self.calls:
            if fanout and hooks.fanout_base is not None:
                continue
            if hooks.rewrite_query is not None:
                query = hooks.rewrite_query(call, query)
        return query

    def fanout_base(self, query: str) -> str:
        """FANOUT-15: the base query of the first pass (the query when no profile has one)."""
        for hooks, call in self.calls:
            if hooks.fanout_base is not None:
                query = hooks.fanout_base(call, query)
        return query

    def adjust_weights(self, query: str, weights: dict[str, float]) -> dict[str, float]:
        for hooks, call in self.calls:
            if hooks.adjust_weights is not None:
                weights = dict(hooks.adjust_weights(call, query, dict(weights)))
                if set(weights) != set(WEIGHT_NAMES):
                    raise RuntimeError(f"profile {call.name}: adjust_weights changed the legs")
                for name, value in weights.items():
                    weights[name] = check_weight(value)
        return weights

    def rerank_enabled(self) -> bool:
        """PIPE-11: False when an enabled profile switches the reranker off for this call."""
        return all(
            hooks.rerank_enabled(call)
            for hooks, call in self.calls
            if hooks.rerank_enabled is not None
        )

    def vector_query(self, text: str) -> str:
        """PIPE-11: the text the vector leg embeds (the normalised query unless a profile says)."""
        for hooks, call in self.calls:
            if hooks.vector_query is not None:
                text = hooks.vector_query(call, text)
        return text

    def runs_at_zero_weight(self, leg: str) -> bool:
        """PIPE-11: whether an enabled profile runs this leg although its weight is 0."""
        return any(
            hooks.runs_at_zero_weight(call, leg)
            for hooks, call in self.calls
            if hooks.runs_at_zero_weight is not None
        )

    def leg_search(self, leg: str, candidate_k: int, ask: Search) -> Search:
        """PIPE-11: ask for the profiles' limit, filter, then keep `limit` (PIPE-4)."""
        asked = candidate_k
        for hooks, call in self.calls:
            if hooks.leg_limit is not None:
                asked = hooks.leg_limit(call, leg, asked)
        filters = [(h.filter_leg, c) for h, c in self.calls if h.filter_leg is not None]
        if asked == candidate_k and not filters:
            return ask

        def run(limit: int) -> list[Candidate]:
            hits = ask(max(asked, limit))
            for hook, call in filters:
                hits = hook(call, leg, hits)
            return hits[:limit]

        return run

    def graph_backend(self) -> GraphBackend | None:
        for hooks, call in self.calls:
            if hooks.graph_backend is not None:
                backend = hooks.graph_backend(call)
                if backend is not None:
                    return backend
        return None

    def after_fusion(self, query: str, items: list[Fused]) -> list[Fused]:
        for hooks, call in self.calls:
            if hooks.after_fusion is not None:
                items = hooks.after_fusion(call, query, list(items))
        return items

    def after_rerank(self, query: str, items: list[Fused], outcome: RerankOutcome) -> list[Fused]:
        """PIPE-11: each profile keeps a subsequence of the reranked list (ids it returns)."""
        for hooks, call in self.calls:
            if hooks.after_rerank is not None:
                entries = [(f.id, outcome.rerank_scores.get(f.id)) for f in items]
                keep = set(hooks.after_rerank(call, query, entries, outcome.outcome))
                items = [f for f in items if f.id in keep]
        return items

    def trace_json(self) -> dict[str, Any]:
        return {call.name: call.trace for _, call in self.calls}


def leg_errors_fail_call(bm25_ran: bool, errors: Sequence[dict[str, str] | None]) -> bool:
    """PIPE-15: True when no BM25 leg ran and every leg that ran errored; a BM25 error is
    recorded and answered, never raised (PIPE-7), and a graph error alone never fails (GRAPH-3)."""
    return not bm25_ran and bool(errors) and all(error is not None for error in errors)


def _run_listing_leg(search_fn: Search, candidate_k: int) -> LegOutcome:
    """PIPE-4, PIPE-15: one backend call for candidateK hits; an error is recorded, not raised."""
    leg = LegOutcome(ran=True, skip=None)
    try:
        leg.hits = list(search_fn(candidate_k))[:candidate_k]
    except IndexError_ as exc:
        leg.error = _error(exc)
        leg.hits = []
    return leg


def _run_vector_leg(
    req: Request, backends: Backends, normalised: str, profiles: _Profiles
) -> LegOutcome:
    """PIPE-4, PIPE-15: embed the normalised query, ask for candidateK hits, record errors."""
    embedder, vectors = backends.embedder, backends.vectors
    assert embedder is not None and vectors is not None
    ask = profiles.leg_search(
        "vector", req.candidate_k, lambda n: vectors.search_vector(embedder.embed(normalised), n)
    )
    return _run_listing_leg(ask, req.candidate_k)


def unanimity_voters(
    bm25: Bm25LegResult | None, vleg: LegOutcome
) -> tuple[list[str], list[str]] | None:
    """UNAN-6, PIPE-8: both legs' hit ids when both legs ran; None (no vote) otherwise."""
    if bm25 is None or not vleg.ran or not vleg.fused:
        return None
    return [c.id for c in bm25.hits], [c.id for c in vleg.hits]


def _run_bm25(
    req: Request, backends: Backends, query: str, profiles: _Profiles
) -> Bm25LegResult:
    if backends.index is None:
        raise InvalidInput("the BM25 leg needs an index")
    index = backends.index
    plan = plan_ladder(query, req.aliases, req.stopword_list)
    first_pass = None
    if req.bm25_fanout:  # FANOUT-1, FANOUT-13..15
        base = profiles.fanout_base(query)
        first_pass = plan_expressions(query, base, req.aliases, req.stopword_list)

    def search_bm25(expression: str, limit: int) -> list[Candidate]:
        ask = profiles.leg_search("bm25", limit, lambda n: index.search_bm25(expression, n))
        return ask(limit)

    trigram = backends.trigram_search()
    trigram_search: TrigramSearch | None = None
    if trigram is not None:
        tri = trigram

        def trigram_search(tokens: Sequence[str], limit: int) -> list[Candidate]:
            return profiles.leg_search("bm25", limit, lambda n: tri(tokens, n))(limit)

    return run_bm25_leg(
        plan,
        search_bm25,
        trigram_search,
        req.candidate_k,
        not req.skip_retry_ladder,
        first_pass,
    )


@dataclass
class _VariantRun:
    """PIPE-12: stages 1-5 of one query variant: its rewritten query, its legs, its fused list."""

    text: str
    query: str
    parsed: ParsedQuery
    expression: str
    bm25: Bm25LegResult | None
    bm25_skip: str | None
    vleg: LegOutcome
    gleg: LegOutcome
    lists: list[RankedList]
    #: PIPE-7, PIPE-15: the errors of the legs that ran (None for a leg without error).
    ran_errors: list[dict[str, str] | None]
    #: Stage 5's fused list F_i, set once every variant's legs ran and none failed the call.
    fused: list[Fused] = field(default_factory=list)
    #: FANOUT-19: the trace has `bm25.firstPass` (the request enables the fanout).
    fanout: bool = False

    def bm25_trace(self) -> dict[str, Any]:
        if self.bm25 is not None:
            return {"ran": True, "skip": None, **self.bm25.trace_json()}
        not_run = {**_BM25_NOT_RUN, "skip": self.bm25_skip, "attempts": []}
        return {**not_run, "firstPass": []} if self.fanout else not_run

    def lists_json(self) -> list[dict[str, Any]]:
        return [{"name": x.name, "weight": x.weight, "size": len(x.items)} for x in self.lists]


def query_variants(query: str, profiles: _Profiles) -> list[str]:
    """PIPE-12: the request's query, then the profiles' variants; repeats (TEXT-1..4) dropped."""
    out = [query]
    seen = {normalise(query)}
    for variant in profiles.query_variants(query):
        key = normalise(variant)
        if key == "":
            raise InvalidInput("a query variant is empty after normalisation")
        if key not in seen:
            seen.add(key)
            out.append(variant)
    return out


def _run_variant(
    req: Request,
    backends: Backends,
    profiles: _Profiles,
    mode: ResolvedMode,
    graph: GraphBackend | None,
    text: str,
    timings: dict[str, float],
) -> _VariantRun:
    """PIPE-3 stages 1, 3 and 4 (and the graph leg) for one query variant, with the lists
    stage 5 fuses (PIPE-12); fusion waits until every variant ran (PIPE-15 is checked first)."""
    # 1. Query (DSL), after the profiles' rewrites (PIPE-11).
    query = profiles.rewrite_query(text, req.bm25_fanout)
    parsed = parse(query, req.aliases, req.stopword_list)
    expression = compile_query(parsed)
    weights = profiles.adjust_weights(
        query,
        {"bm25": req.bm25_weight, "vector": req.vector_weight, "graph": req.graph_weight},
    )

    # 3. BM25 leg and ladder; a leg of weight 0 makes no backend call at all (PIPE-8).
    bm25_skip = leg_skip(mode.runs_bm25, weights["bm25"])
    vector_skip = leg_skip(mode.runs_vector, weights["vector"])
    unfused = vector_skip == SKIP_ZERO_WEIGHT and profiles.runs_at_zero_weight("vector")
    if unfused:
        vector_skip = None
    graph_skip = leg_skip(graph_in_mode(mode.effective), weights["graph"])  # GRAPH-3
    t = time.perf_counter()
    bm25 = _run_bm25(req, backends, query, profiles) if bm25_skip is None else None
    timings["bm25Ms"] = timings.get("bm25Ms", 0.0) + (time.perf_counter() - t) * 1000

    # 4. Vector leg, then the graph leg (GRAPH-3).
    t = time.perf_counter()
    vleg = (
        _run_vector_leg(req, backends, profiles.vector_query(parsed.normalised), profiles)
        if vector_skip is None
        else LegOutcome(skip=vector_skip)
    )
    vleg.fused = not unfused
    timings["vectorMs"] = timings.get("vectorMs", 0.0) + (time.perf_counter() - t) * 1000
    gleg = LegOutcome(skip=graph_skip)
    if graph is not None and graph_skip is None:
        store = graph
        gleg = _run_listing_leg(
            profiles.leg_search(
                "graph", req.candidate_k, lambda n: store.search_graph(parsed.normalised, n)
            ),
            req.candidate_k,
        )
    ran_errors = [
        (bm25 is not None, bm25.error if bm25 is not None else None),
        (vleg.ran, vleg.error),
        (gleg.ran, gleg.error),
    ]

    # The lists of stage 5.
    ran_lists = {
        "bm25": tuple(bm25.hits) if bm25 is not None else None,
        "vector": tuple(vleg.hits) if vleg.ran and vleg.fused else None,
        "graph": tuple(gleg.hits) if gleg.ran else None,
    }
    lists = [
        RankedList(name, weights[name], items)
        for name in FUSION_ORDER
        if (items := ran_lists[name]) is not None
    ]
    return _VariantRun(
        text, query, parsed, expression, bm25, bm25_skip, vleg, gleg, lists,
        [error for did, error in ran_errors if did], fanout=req.bm25_fanout,
    )


def merge_variants(runs: Sequence[_VariantRun], k: int) -> tuple[list[RankedList], list[Fused]]:
    """PIPE-5 per variant, then PIPE-12: one variant's fused list as is; several merge by RRF
    of their ranks, weight 1."""
    for run in runs:
        run.fused = fuse(run.lists, k)
    if len(runs) == 1:
        return runs[0].lists, runs[0].fused
    lists = [
        RankedList(f"variant:{i}", 1.0, tuple(f.candidate for f in run.fused))
        for i, run in enumerate(runs)
    ]
    return lists, fuse(lists, k)


def _variant_trace(run: _VariantRun, with_graph: bool) -> dict[str, Any]:
    """TRACE-16: one entry of `variants`."""
    entry: dict[str, Any] = {
        "query": run.text,
        "bm25": run.bm25_trace(),
        "vector": run.vleg.trace_json(),
    }
    if with_graph:
        entry["graph"] = run.gleg.trace_json()
    entry["lists"] = run.lists_json()
    entry["fusedHits"] = len(run.fused)
    return entry


def search(
    request: Mapping[str, Any], backends: Backends
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """PIPE-3: run every stage in order; returns (results, trace) as JSON-ready objects."""
    started = time.perf_counter()
    timings: dict[str, float] = {}
    req = parse_request(request)
    profiles = _Profiles(req, backends.profile_data)  # PIPE-9: backend data checked up front
    variants = query_variants(req.query, profiles)  # PIPE-12, before any backend call

    # 2. Mode (once for every variant, PIPE-12).
    has_embedder = backends.embedder is not None and backends.vectors is not None
    mode = resolve_mode(req.mode, has_embedder)
    graph = backends.graph if backends.graph is not None else profiles.graph_backend()

    # Stages 1, 3 and 4 per variant, in list order (PIPE-12).
    runs = [
        _run_variant(req, backends, profiles, mode, graph, text, timings) for text in variants
    ]
    ran = [error for run in runs for error in run.ran_errors]
    if leg_errors_fail_call(any(run.bm25 is not None for run in runs), ran):
        message = "; ".join(e["message"] for e in ran if e is not None)
        raise IndexError_(f"every leg failed: {message}")
    fell_back = mode.fell_back_to_bm25 or (
        mode.effective == "hybrid" and any(run.vleg.error is not None for run in runs)
    )  # MODE-6
    # 5. Fusion per variant, then the merge (PIPE-12).
    t = time.perf_counter()
    lists, fused = merge_variants(runs, req.rrf_k)
    first = runs[0]
    query, parsed, bm25, vleg = first.query, first.parsed, first.bm25, first.vleg

    # 6. Intent reweighting, then the profiles' post-fusion stages (PIPE-11).
    intent = detect(query, req.intent_table)
    reweighted, adjustments = reweight(intent, fused)
    reweighted = profiles.after_fusion(query, reweighted)
    timings["fusionMs"] = (time.perf_counter() - t) * 1000

    # 7. Unanimity.
    enabled = req.rerank and profiles.rerank_enabled()  # PIPE-11
    skip = skip_before_unanimity(enabled, backends.reranker is not None, len(reweighted))
    # UNAN-6, PIPE-8: a vote between two legs that ran; a zero-weight leg has no vote.
    voters = unanimity_voters(bm25, vleg) if skip is None else None
    evaluated = voters is not None
    agreements: int | None = None
    fired = False
    if voters is not None:
        verdict = unanimity_check(*voters)
        agreements, fired = verdict.agreements, verdict.fired
        if fired:
            skip = "unanimity"

    # 8. Rerank.
    t = time.perf_counter()
    provider = backends.reranker.name if backends.reranker is not None else None
    if skip is None:
        assert backends.reranker is not None
        head = reweighted[: req.rerank_top_n]
        entries: list[RerankEntry] | None = None
        failure: str | None = None
        try:
            entries = list(backends.reranker.rerank(query, [f.candidate for f in head]))
        except Exception as exc:  # a failing reranker must never lose results (RERANK-8)
            failure = str(exc) or type(exc).__name__
        outcome = rerank_head(
            reweighted, req.rerank_top_n, entries, failure, backends.reranker.name
        )
    else:
        outcome = skipped(reweighted, skip, provider)
    timings["rerankMs"] = (time.perf_counter() - t) * 1000

    # 9. The profiles' post-rerank removals (PIPE-11), then truncate.
    kept = profiles.after_rerank(query, outcome.items, outcome)
    results = []
    for item in kept[: req.top_k]:
        row = item.candidate.to_json()
        row["score"] = item.score
        row["rerankScore"] = outcome.rerank_scores.get(item.id)
        results.append(row)

    timings["totalMs"] = (time.perf_counter() - started) * 1000
    request_json = req.to_json()
    if graph is not None:
        request_json["weights"]["graph"] = req.graph_weight  # GRAPH-5
    trace: dict[str, Any] = {
        "specVersion": SPEC_VERSION,
        "request": request_json,
        "requestedMode": req.mode,
        "effectiveMode": mode.effective,
        "fellBackToBM25": fell_back,
        "query": {
            "normalised": parsed.normalised,
            "hasOperators": parsed.has_operators,
            "tokens": [tok.to_json() for tok in parsed.tokens],
            "expression": first.expression,
        },
        "bm25": first.bm25_trace(),
        "vector": vleg.trace_json(),
    }
    if graph is not None:
        trace["graph"] = first.gleg.trace_json()  # GRAPH-5
    trace.update(
        {
            "fusion": {
                "k": req.rrf_k,
                "lists": [
                    {"name": x.name, "weight": x.weight, "size": len(x.items)} for x in lists
                ],
                "fusedHits": len(fused),
            },
            "intent": {
                "preference": intent.preference,
                "concreteFact": intent.concrete_fact,
                "label": intent.label,
                "adjusted": [
                    {"id": a.id, "multiplier": a.multiplier, "rules": list(a.rules)}
                    for a in adjustments
                ],
            },
            "unanimity": {"evaluated": evaluated, "agreements": agreements, "fired": fired},
            "rerank": outcome.report(),
            "resultIds": [r["id"] for r in results],
            "timings": timings,
        }
    )
    if len(runs) > 1:
        trace["variants"] = [_variant_trace(run, graph is not None) for run in runs]  # TRACE-16
    if profiles.calls:
        trace["profiles"] = profiles.trace_json()  # PIPE-11
    return results, trace
