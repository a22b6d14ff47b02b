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
from reference.intent import detect, reweight
from reference.ladder import Bm25LegResult, plan_ladder, run_bm25_leg
from reference.modes import resolve_mode
from reference.query import compile_query, parse
from reference.request import Request, parse_request
from reference.rerank import rerank_head, skip_before_unanimity, skipped
from reference.rrf import RankedList, fuse
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
    _trigram_cache: dict[int, TrigramIndex] = field(default_factory=dict, repr=False)

    def trigram_search(self) -> TrigramSearch | None:
        """The trigram rung's search over the index's chunk contents, or None without chunks.

        The trigram index is built lazily, only when the rung is reached, and cached per
        chunk list so a long-lived Backends pays for it once.
        """
        if self.index is None:
            return None
        chunks = self.index.chunks()
        if chunks is None:
            return None
        listed = chunks
        cache = self._trigram_cache

        def run(tokens: Sequence[str], limit: int) -> list[Candidate]:
            key = id(listed)
            tri = cache.get(key)
            if tri is None:
                # An index that stored its chunks' words at index time loads them (TRI-1).
                stored = getattr(self.index, "trigram_index", None)
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
class _VectorLeg:
    ran: bool = False
    skip: str | None = SKIP_MODE
    hits: list[Candidate] = field(default_factory=list)
    error: dict[str, str] | None = None


def _run_vector_leg(req: Request, backends: Backends, normalised: str) -> _VectorLeg:
    """PIPE-4, PIPE-7: embed the normalised query, ask for candidateK hits, record errors."""
    assert backends.embedder is not None and backends.vectors is not None
    leg = _VectorLeg(ran=True, skip=None)
    try:
        vector = backends.embedder.embed(normalised)
        leg.hits = list(backends.vectors.search_vector(vector, req.candidate_k))[: req.candidate_k]
    except IndexError_ as exc:
        leg.error = _error(exc)
        leg.hits = []
    return leg


def unanimity_voters(
    bm25: Bm25LegResult | None, vleg: _VectorLeg
) -> tuple[list[str], list[str]] | None:
    """UNAN-6, PIPE-8: both legs' hit ids when both legs ran; None (no vote) otherwise."""
    if bm25 is None or not vleg.ran:
        return None
    return [c.id for c in bm25.hits], [c.id for c in vleg.hits]


def _run_bm25(req: Request, backends: Backends) -> Bm25LegResult:
    if backends.index is None:
        raise InvalidInput("the BM25 leg needs an index")
    index = backends.index
    plan = plan_ladder(req.query, req.aliases, req.stopword_list)
    return run_bm25_leg(
        plan,
        index.search_bm25,
        backends.trigram_search(),
        req.candidate_k,
        not req.skip_retry_ladder,
    )


def search(
    request: Mapping[str, Any], backends: Backends
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """PIPE-3: run every stage in order; returns (results, trace) as JSON-ready objects."""
    started = time.perf_counter()
    timings: dict[str, float] = {}
    req = parse_request(request)

    # 1. Query (DSL).
    parsed = parse(req.query, req.aliases, req.stopword_list)
    expression = compile_query(parsed)

    # 2. Mode.
    has_embedder = backends.embedder is not None and backends.vectors is not None
    mode = resolve_mode(req.mode, has_embedder)
    fell_back = mode.fell_back_to_bm25

    # 3. BM25 leg and ladder; a leg of weight 0 makes no backend call at all (PIPE-8).
    bm25_skip = leg_skip(mode.runs_bm25, req.bm25_weight)
    vector_skip = leg_skip(mode.runs_vector, req.vector_weight)
    t = time.perf_counter()
    bm25: Bm25LegResult | None = _run_bm25(req, backends) if bm25_skip is None else None
    timings["bm25Ms"] = (time.perf_counter() - t) * 1000

    # 4. Vector leg.
    t = time.perf_counter()
    vleg = (
        _run_vector_leg(req, backends, parsed.normalised)
        if vector_skip is None
        else _VectorLeg(skip=vector_skip)
    )
    timings["vectorMs"] = (time.perf_counter() - t) * 1000
    if vleg.error is not None and mode.effective == "hybrid":
        fell_back = True  # MODE-6

    legs_ran = [x for x in ((bm25 is not None), vleg.ran) if x]
    errored = (1 if bm25 is not None and bm25.error is not None else 0) + (
        1 if vleg.error is not None else 0
    )
    if legs_ran and errored == len(legs_ran):
        message = "; ".join(
            e["message"] for e in (bm25.error if bm25 else None, vleg.error) if e is not None
        )
        raise IndexError_(f"every leg failed: {message}")

    # 5. Fusion.
    t = time.perf_counter()
    lists: list[RankedList] = []
    if bm25 is not None:
        lists.append(RankedList("bm25", req.bm25_weight, tuple(bm25.hits)))
    if vleg.ran:
        lists.append(RankedList("vector", req.vector_weight, tuple(vleg.hits)))
    fused = fuse(lists, req.rrf_k)

    # 6. Intent reweighting.
    intent = detect(req.query, req.intent_table)
    reweighted, adjustments = reweight(intent, fused)
    timings["fusionMs"] = (time.perf_counter() - t) * 1000

    # 7. Unanimity.
    skip = skip_before_unanimity(req.rerank, backends.reranker is not None, len(reweighted))
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
            entries = list(backends.reranker.rerank(req.query, [f.candidate for f in head]))
        except Exception as exc:  # a failing reranker must never lose results (RERANK-8)
            failure = str(exc) or type(exc).__name__
        outcome = rerank_head(
            reweighted, req.rerank_top_n, entries, failure, backends.reranker.name
        )
    else:
        outcome = skipped(reweighted, skip, provider)
    timings["rerankMs"] = (time.perf_counter() - t) * 1000

    # 9. Truncate.
    results = []
    for item in outcome.items[: req.top_k]:
        row = item.candidate.to_json()
        row["score"] = item.score
        row["rerankScore"] = outcome.rerank_scores.get(item.id)
        results.append(row)

    timings["totalMs"] = (time.perf_counter() - started) * 1000
    trace: dict[str, Any] = {
        "specVersion": SPEC_VERSION,
        "request": req.to_json(),
        "requestedMode": req.mode,
        "effectiveMode": mode.effective,
        "fellBackToBM25": fell_back,
        "query": {
            "normalised": parsed.normalised,
            "hasOperators": parsed.has_operators,
            "tokens": [tok.to_json() for tok in parsed.tokens],
            "expression": expression,
        },
        "bm25": (
            {"ran": True, "skip": None, **bm25.trace_json()}
            if bm25
            else {**_BM25_NOT_RUN, "skip": bm25_skip, "attempts": []}
        ),
        "vector": {
            "ran": vleg.ran,
            "skip": vleg.skip,
            "hits": len(vleg.hits),
            "error": vleg.error,
        },
        "fusion": {
            "k": req.rrf_k,
            "lists": [{"name": x.name, "weight": x.weight, "size": len(x.items)} for x in lists],
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
    return results, trace

