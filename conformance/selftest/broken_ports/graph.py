"""Broken ports of the graph leg (spec/graph.md), registered on import."""

from __future__ import annotations

from typing import Any

from conformance.selftest.broken_ports.patching import (
    _mod,
    _trace_member_always,
    mutant,
    swap,
)


@mutant(
    "graph-runs-in-every-mode",
    "GRAPH-3",
    "the graph leg runs whenever a graph is configured, in bm25 mode too",
    seams=("reference.pipeline.graph_in_mode",),
)
def _graph_every_mode() -> None:
    swap(_mod("reference.pipeline"), "graph_in_mode", lambda effective_mode: True)


@mutant(
    "graph-fused-first",
    "GRAPH-4",
    "the graph list is fused first, before bm25 and vector",
    seams=("reference.pipeline.FUSION_ORDER",),
)
def _graph_fused_first() -> None:
    swap(_mod("reference.pipeline"), "FUSION_ORDER", ("graph", "bm25", "vector"))


@mutant(
    "graph-error-fails-call",
    "GRAPH-3",
    "a graph error fails the call, or two failed core legs fail it whatever the graph returned",
    seams=("reference.pipeline.leg_errors_fail_call",),
)
def _graph_error_fails() -> None:
    pipe = _mod("reference.pipeline")

    def leg_errors_fail_call(bm25_ran: bool, errors: Any) -> bool:
        return any(error is not None for error in errors)

    swap(pipe, "leg_errors_fail_call", leg_errors_fail_call)


@mutant(
    "graph-votes-in-unanimity",
    "GRAPH-4",
    "the graph leg's hits replace the vector leg's in the unanimity vote",
    seams=("reference.pipeline._run_listing_leg", "reference.pipeline.unanimity_voters"),
)
def _graph_votes() -> None:
    pipe = _mod("reference.pipeline")
    original = pipe._run_listing_leg
    last: list[Any] = []

    def run_listing_leg(search_fn: Any, candidate_k: int) -> Any:
        leg = original(search_fn, candidate_k)
        last.append(leg)
        return leg

    def voters(bm25: Any, vleg: Any) -> Any:
        if bm25 is None or not vleg.ran:
            return None
        graph = last[-1] if len(last) > 1 else vleg
        last.clear()
        return [c.id for c in bm25.hits], [c.id for c in graph.hits]

    swap(pipe, "_run_listing_leg", run_listing_leg)
    swap(pipe, "unanimity_voters", voters)


@mutant(
    "graph-backend-both-hits-and-error-accepted",
    "GRAPH-2",
    "a scripted graph with both hits and error is accepted (hits win) instead of invalid_input",
    seams=("reference.backends.scripted._graph",),
)
def _graph_both_accepted() -> None:
    scripted = _mod("reference.backends.scripted")
    original = scripted._graph

    def graph(raw: Any) -> Any:
        if isinstance(raw, dict) and "hits" in raw:
            raw = {"hits": raw["hits"]}
        return original(raw)

    swap(scripted, "_graph", graph)


@mutant(
    "graph-trace-member-without-backend",
    "GRAPH-5",
    "the trace carries a graph member (not run, skip mode) even when no graph backend is set",
    seams=("reference.pipeline.search",),
)
def _graph_member_always() -> None:
    _trace_member_always("graph", {"ran": False, "skip": "mode", "hits": 0, "error": None})
