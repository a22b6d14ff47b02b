"""The optional graph leg (spec/graph.md GRAPH-*) and its trace members (spec/trace.md TRACE-15)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from conformance.judging.capabilities import GRAPH_LEG, detected
from conformance.judging.schemas import schema_validator
from reference.pipeline import Backends, search
from reference.types import InvalidInput
from tests.fakes import FakeEmbedder, FakeGraph, FakeIndex, FakeVectors, c

DATA = Path(__file__).resolve().parent.parent / "spec" / "data"


def hybrid(graph: FakeGraph, **request: Any) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    backends = Backends(
        index=FakeIndex({'"kubernetes"': [c("a"), c("b")]}),
        embedder=FakeEmbedder(),
        vectors=FakeVectors([c("b"), c("c")]),
        graph=graph,
    )
    return search({"query": "Kubernetes", "mode": "hybrid", **request}, backends)


def test_graph_leg_is_a_capability_read_from_the_input() -> None:
    """GRAPH-1: a search input with backends.graph or weights.graph needs `graph-leg`."""
    scripted = {"request": {}, "backends": {"graph": {"hits": []}}}
    assert GRAPH_LEG in detected("search", scripted, DATA)
    assert GRAPH_LEG in detected("search", {"request": {"weights": {"graph": 1}}}, DATA)
    assert GRAPH_LEG not in detected("search", {"request": {"weights": {"graph": None}}}, DATA)
    assert GRAPH_LEG not in detected("search", {"request": {}, "backends": {}}, DATA)


def test_graph_backend_gets_the_normalised_query_and_candidate_k() -> None:
    """GRAPH-2, GRAPH-3: one call, with the normalised query and candidateK."""
    graph = FakeGraph([c("d")])
    hybrid(graph, candidateK=7)
    assert graph.calls == [("Kubernetes", 7)]  # NFC and spacing; case is kept (TEXT-1..4)


def test_graph_leg_runs_only_in_hybrid() -> None:
    """GRAPH-3: bm25 mode never calls the graph and reports skip `mode`."""
    graph = FakeGraph([c("d")])
    backends = Backends(index=FakeIndex({'"kubernetes"': [c("a")]}), graph=graph)
    _, trace = search({"query": "kubernetes", "mode": "bm25"}, backends)
    assert graph.calls == []
    assert trace["graph"] == {"ran": False, "skip": "mode", "hits": 0, "error": None}


def test_graph_list_is_fused_third_and_never_votes() -> None:
    """GRAPH-4: lists bm25, vector, graph; unanimity voters are still bm25 and vector."""
    results, trace = hybrid(FakeGraph([c("d"), c("c"), c("a")]))
    assert [x["name"] for x in trace["fusion"]["lists"]] == ["bm25", "vector", "graph"]
    assert [r["id"] for r in results] == ["b", "a", "c", "d"]


def test_graph_error_is_recorded_and_not_a_fallback() -> None:
    """GRAPH-3: the error is in the trace; fellBackToBM25 stays false."""
    _, trace = hybrid(FakeGraph([], error="graph offline"))
    assert trace["graph"]["error"] == {"kind": "index_error", "message": "graph offline"}
    assert trace["fellBackToBM25"] is False


def test_graph_trace_members_only_with_a_graph_backend() -> None:
    """GRAPH-5, TRACE-15: without a graph backend the trace has no graph member and no
    weights.graph, whatever the request says; with one it has both."""
    backends = Backends(index=FakeIndex({'"kubernetes"': [c("a")]}))
    _, trace = search({"query": "kubernetes", "weights": {"graph": 3}}, backends)
    assert "graph" not in trace and "graph" not in trace["request"]["weights"]
    _, trace = hybrid(FakeGraph([c("d")]), weights={"graph": 2})
    assert trace["request"]["weights"]["graph"] == 2
    assert not list(schema_validator("trace.schema.json").iter_errors(trace))


def test_graph_weight_is_validated_like_the_others() -> None:
    """GRAPH-1, PIPE-1: a negative graph weight is invalid_input before the graph is called."""
    graph = FakeGraph([c("d")])
    with pytest.raises(InvalidInput):
        hybrid(graph, weights={"graph": -1})
    assert graph.calls == []
