"""Broken ports of the trace's members (spec/trace.md), registered on import.

Most of them post-process the reference's trace, as a port that builds its trace in a
separate step would get one member wrong."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from conformance.selftest.broken_ports.patching import (
    _mod,
    mutant,
    swap,
)

Trace = dict[str, Any]


def _edit_trace(edit: Callable[[Mapping[str, Any], Trace], None]) -> None:
    """Every search trace goes through `edit(request, trace)` before it is returned."""
    pipe = _mod("reference.pipeline")
    original = pipe.search

    def search(request: Any, backends: Any) -> Any:
        results, trace = original(request, backends)
        edit(request, trace)
        return results, trace

    swap(pipe, "search", search)


@mutant(
    "trace-anchor-embedder-used",
    "TRACE-1",
    "the trace keeps the anchor's embedderUsed member beside the kit's fields",
    seams=("reference.pipeline.search",),
)
def _trace_extra_member() -> None:
    def edit(request: Mapping[str, Any], trace: Trace) -> None:
        trace["embedderUsed"] = trace["vector"]["ran"]

    _edit_trace(edit)


@mutant(
    "trace-agreements-zero-unevaluated",
    "TRACE-3",
    "unanimity.agreements is 0, not null, when the check was not evaluated",
    seams=("reference.pipeline.search",),
)
def _trace_agreements_zero() -> None:
    def edit(request: Mapping[str, Any], trace: Trace) -> None:
        if trace["unanimity"]["agreements"] is None:
            trace["unanimity"]["agreements"] = 0

    _edit_trace(edit)


@mutant(
    "trace-requested-mode-effective",
    "TRACE-4",
    "requestedMode reports the effective mode (auto never appears)",
    seams=("reference.pipeline.search",),
)
def _trace_requested_effective() -> None:
    def edit(request: Mapping[str, Any], trace: Trace) -> None:
        trace["requestedMode"] = trace["effectiveMode"]

    _edit_trace(edit)


@mutant(
    "trace-query-normalised-raw",
    "TRACE-6",
    "query.normalised is the request's query as sent, not its normalised form",
    seams=("reference.pipeline.search",),
)
def _trace_query_raw() -> None:
    def edit(request: Mapping[str, Any], trace: Trace) -> None:
        trace["query"]["normalised"] = request["query"]

    _edit_trace(edit)


@mutant(
    "trace-zero-weight-before-mode",
    "TRACE-7",
    "a leg's skip reason tests zero_weight before mode",
    seams=("reference.pipeline.leg_skip",),
)
def _trace_skip_order() -> None:
    pipe = _mod("reference.pipeline")

    def leg_skip(runs_in_mode: bool, weight: float) -> str | None:
        if weight == 0:
            return str(pipe.SKIP_ZERO_WEIGHT)
        return None if runs_in_mode else str(pipe.SKIP_MODE)

    swap(pipe, "leg_skip", leg_skip)


@mutant(
    "trace-vector-error-message-only",
    "TRACE-9",
    "vector.error is the bare message string, not {kind, message}",
    seams=("reference.pipeline.search",),
)
def _trace_vector_error_string() -> None:
    def edit(request: Mapping[str, Any], trace: Trace) -> None:
        error = trace["vector"]["error"]
        if isinstance(error, dict):
            trace["vector"]["error"] = error["message"]

    _edit_trace(edit)


@mutant(
    "trace-fusion-k-default",
    "TRACE-10",
    "fusion.k is always 60, not the request's rrfK",
    seams=("reference.pipeline.search",),
)
def _trace_fusion_k() -> None:
    def edit(request: Mapping[str, Any], trace: Trace) -> None:
        trace["fusion"]["k"] = 60

    _edit_trace(edit)


@mutant(
    "trace-adjusted-final-order",
    "TRACE-11",
    "intent.adjusted lists the matched items in their reweighted order, not in fused order",
    seams=("reference.intent.reweight",),
)
def _trace_adjusted_order() -> None:
    intent = _mod("reference.intent")
    original = intent.reweight

    def reweight(detected: Any, fused: Sequence[Any]) -> tuple[list[Any], list[Any]]:
        items, adjustments = original(detected, fused)
        order = {item.id: i for i, item in enumerate(items)}
        return items, sorted(adjustments, key=lambda a: order[a.id])

    swap(intent, "reweight", reweight)


@mutant(
    "trace-unanimity-evaluated-is-fired",
    "TRACE-12",
    "unanimity.evaluated is true only when the check fired",
    seams=("reference.pipeline.search",),
)
def _trace_evaluated_fired() -> None:
    def edit(request: Mapping[str, Any], trace: Trace) -> None:
        trace["unanimity"]["evaluated"] = trace["unanimity"]["fired"]

    _edit_trace(edit)


@mutant(
    "trace-rerank-provider-only-when-run",
    "TRACE-13",
    "rerank.provider is null unless the reranker was called",
    seams=("reference.pipeline.search",),
)
def _trace_provider_only_run() -> None:
    def edit(request: Mapping[str, Any], trace: Trace) -> None:
        if trace["rerank"]["outcome"] not in ("reranked", "failed"):
            trace["rerank"]["provider"] = None

    _edit_trace(edit)


@mutant(
    "trace-result-ids-before-topk",
    "TRACE-14",
    "resultIds lists every ranked id, before the topK cut",
    seams=("reference.pipeline.search",),
)
def _trace_ids_before_cut() -> None:
    pipe = _mod("reference.pipeline")
    req = _mod("reference.request")
    original = pipe.search

    def search(request: Any, backends: Any) -> Any:
        top_k = req.parse_request(request).top_k
        results, trace = original({**request, "topK": 2**31 - 1}, backends)
        trace["request"]["topK"] = top_k
        return results[:top_k], trace

    swap(pipe, "search", search)


@mutant(
    "trace-variants-always",
    "TRACE-1",
    "the trace has a variants member with one variant too",
    seams=("reference.pipeline.search",),
)
def _trace_variants_always() -> None:
    def edit(request: Mapping[str, Any], trace: Trace) -> None:
        if "variants" in trace:
            return
        entry: Trace = {"query": request["query"], "bm25": trace["bm25"], "vector": trace["vector"]}
        if "graph" in trace:
            entry["graph"] = trace["graph"]
        entry["lists"] = trace["fusion"]["lists"]
        entry["fusedHits"] = trace["fusion"]["fusedHits"]
        trace["variants"] = [entry]

    _edit_trace(edit)


@mutant(
    "trace-first-pass-always",
    "TRACE-17",
    "bm25.firstPass is present (one row, the compiled query) without bm25Fanout too",
    seams=("reference.pipeline.search",),
)
def _trace_first_pass_always() -> None:
    def edit(request: Mapping[str, Any], trace: Trace) -> None:
        bm25 = trace["bm25"]
        if "firstPass" not in bm25:
            first = bm25["attempts"][:1]
            bm25["firstPass"] = [
                {"expression": row["expression"], "hits": row["hits"]}
                for row in first
                if row["searched"]
            ]

    _edit_trace(edit)

