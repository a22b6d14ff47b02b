"""How an enabled profile plugs into the pipeline (spec/pipeline.md PIPE-10, PIPE-11), on
fixture profiles patched into the reference's profile registry."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

import reference.profiles as profiles_pkg
from reference.pipeline import Backends, search
from reference.profile_hooks import PipelineHooks, ProfileCall
from reference.profiles import ReferenceProfile
from reference.rrf import Fused
from reference.types import Candidate, InvalidInput
from tests.fakes import FakeEmbedder, FakeGraph, FakeIndex, FakeVectors, c

LOG: list[str] = []


def _options(obj: Mapping[str, Any]) -> dict[str, Any]:
    unknown = set(obj) - {"tag"}
    if unknown:
        raise InvalidInput(f"unknown option(s) {sorted(unknown)}")
    return dict(obj)


def _rewrite(call: ProfileCall, query: str) -> str:
    LOG.append(f"{call.name}:rewrite")
    call.trace["rewritten"] = True
    return query + " setup"


def _weights(call: ProfileCall, query: str, w: dict[str, float]) -> dict[str, float]:
    LOG.append(f"{call.name}:weights:{query}")
    return {**w, "vector": 0.0}


def _only_a(call: ProfileCall, leg: str, hits: list[Candidate]) -> list[Candidate]:
    LOG.append(f"{call.name}:filter:{leg}:{len(hits)}")
    return [h for h in hits if h.id != "x"]


def _reverse(call: ProfileCall, query: str, items: list[Fused]) -> list[Fused]:
    LOG.append(f"{call.name}:after")
    return list(reversed(items))


def _drop_b(
    call: ProfileCall, query: str, entries: list[tuple[str, float | None]], outcome: str
) -> list[str]:
    LOG.append(f"{call.name}:after_rerank:{outcome}:{','.join(i for i, _ in entries)}")
    return [i for i, _ in entries if i != "b"]


HOOKS = {
    "alpha": PipelineHooks(parse_request=_options, rewrite_query=_rewrite, adjust_weights=_weights),
    "beta": PipelineHooks(
        parse_request=_options,
        parse_backends=lambda raw: raw,
        leg_limit=lambda call, leg, n: n * 2,
        filter_leg=_only_a,
        after_fusion=_reverse,
        graph_backend=lambda call: FakeGraph([c("g")]) if call.backend else None,
    ),
    "gamma": PipelineHooks(parse_request=_options, after_rerank=_drop_b),
}


@pytest.fixture(autouse=True)
def fixture_profiles(monkeypatch: pytest.MonkeyPatch) -> None:
    LOG.clear()
    found = {n: ReferenceProfile(n, "1.0.0", {}, h) for n, h in HOOKS.items()}
    monkeypatch.setattr(profiles_pkg, "discover", lambda: found)


def _backends(**kw: Any) -> Backends:
    index = FakeIndex({'"kubernetes" OR "setup"': [c("x"), c("a"), c("b")]})
    return Backends(index=index, **kw)


def test_unknown_profile_is_invalid_input() -> None:
    """PIPE-10: a name the port does not implement is rejected before any backend call."""
    index = FakeIndex()
    with pytest.raises(InvalidInput, match="unknown profile"):
        search({"query": "kubernetes", "profiles": {"delta": {}}}, Backends(index=index))
    assert index.calls == []


def test_profile_options_are_validated_by_the_profile() -> None:
    """PIPE-10: the profile's parse_request rejects an unknown option."""
    with pytest.raises(InvalidInput, match="unknown option"):
        search({"query": "kubernetes", "profiles": {"alpha": {"nope": 1}}}, _backends())


def test_null_entry_enables_nothing() -> None:
    """PIPE-10, OP-5: `{alpha: null}` is absent; no hook runs and no trace member appears."""
    _, trace = search({"query": "kubernetes", "profiles": {"alpha": None}}, _backends())
    assert LOG == [] and "profiles" not in trace


def test_hooks_run_in_stage_order_and_name_order() -> None:
    """PIPE-11: rewrite before parse, weights before legs, filters per backend answer, post-
    fusion last; alpha before beta at every point."""
    request = {"query": "kubernetes", "mode": "bm25", "profiles": {"beta": {}, "alpha": {}}}
    results, trace = search(request, _backends())
    assert LOG == [
        "alpha:rewrite",
        "alpha:weights:kubernetes setup",
        "beta:filter:bm25:3",
        "beta:after",
    ]
    assert trace["query"]["normalised"] == "kubernetes setup"
    assert [r["id"] for r in results] == ["b", "a"]  # x filtered before fusion, then reversed
    assert trace["profiles"] == {"alpha": {"rewritten": True}, "beta": {}}
    assert trace["request"]["query"] == "kubernetes"  # the request as sent (TRACE-4)


def test_leg_limit_asks_more_and_the_cut_keeps_candidate_k() -> None:
    """PIPE-11, PIPE-4: beta doubles the ask; the leg still keeps candidateK after filtering."""
    index = FakeIndex({'"kubernetes"': [c("x"), c("a"), c("b"), c("d")]})
    request = {"query": "kubernetes", "mode": "bm25", "candidateK": 2, "profiles": {"beta": {}}}
    results, _ = search(request, Backends(index=index))
    assert index.calls == [('"kubernetes"', 4)]
    assert sorted(r["id"] for r in results) == ["a", "b"]


def test_adjusted_weight_zero_removes_the_leg() -> None:
    """PIPE-11 then PIPE-8: alpha sets the vector weight to 0, so the vector leg never runs."""
    vectors = FakeVectors([c("v")])
    request = {"query": "kubernetes", "mode": "hybrid", "profiles": {"alpha": {}}}
    _, trace = search(request, _backends(embedder=FakeEmbedder(), vectors=vectors))
    assert vectors.limits == []
    assert trace["vector"]["skip"] == "zero_weight"


def test_profile_graph_backend_used_unless_scripted() -> None:
    """GRAPH-2, PIPE-11: beta's graph backend runs when backends.graph is absent; a scripted
    graph takes precedence."""
    request = {"query": "kubernetes", "mode": "hybrid", "profiles": {"beta": {}}}
    emb = {"embedder": FakeEmbedder(), "vectors": FakeVectors([])}
    results, trace = search(request, _backends(**emb, profile_data={"beta": True}))
    assert "g" in [r["id"] for r in results] and trace["graph"]["ran"] is True
    scripted = FakeGraph([c("s")])
    results, _ = search(request, _backends(**emb, graph=scripted, profile_data={"beta": True}))
    assert "s" in [r["id"] for r in results] and "g" not in [r["id"] for r in results]


def test_after_rerank_removes_before_the_top_k_cut() -> None:
    """PIPE-11: the post-rerank point sees the reranked order and the outcome, and removes
    items before topK, so the next item takes the removed one's place."""
    index = FakeIndex({'"kubernetes"': [c("a"), c("b"), c("d")]})
    request = {"query": "kubernetes", "mode": "bm25", "topK": 2, "profiles": {"gamma": {}}}
    results, trace = search(request, Backends(index=index))
    assert LOG == ["gamma:after_rerank:no_reranker:a,b,d"]
    assert [r["id"] for r in results] == ["a", "d"]
    assert trace["resultIds"] == ["a", "d"]
