"""Query variants in the core pipeline (spec/pipeline.md PIPE-12, spec/trace.md TRACE-16), on
fixture profiles patched into the reference's profile registry."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

import reference.profiles as profiles_pkg
from reference.pipeline import Backends, search
from reference.profile_hooks import PipelineHooks, ProfileCall
from reference.profiles import ReferenceProfile
from reference.types import IndexError_, InvalidInput
from tests.fakes import FakeEmbedder, FakeIndex, FakeReranker, FakeVectors, c

LOG: list[str] = []


def _options(obj: Mapping[str, Any]) -> dict[str, Any]:
    return dict(obj)


def _variants(call: ProfileCall, query: str) -> list[str]:
    LOG.append(f"{call.name}:variants:{query}")
    return list(call.options.get("variants", []))


def _rewrite(call: ProfileCall, query: str) -> str:
    LOG.append(f"{call.name}:rewrite:{query}")
    call.trace["last"] = query
    call.trace.setdefault("seen", []).append(query)
    return query


def _weights(call: ProfileCall, query: str, w: dict[str, float]) -> dict[str, float]:
    LOG.append(f"{call.name}:weights:{query}")
    return w


def _mute_vector_for_beta(call: ProfileCall, query: str, w: dict[str, float]) -> dict[str, float]:
    return {**w, "vector": 0.0} if query == "beta" else w


HOOKS = {
    "mute": PipelineHooks(parse_request=_options, adjust_weights=_mute_vector_for_beta),
    "vary": PipelineHooks(parse_request=_options, query_variants=_variants),
    "watch": PipelineHooks(
        parse_request=_options, query_variants=_variants, rewrite_query=_rewrite,
        adjust_weights=_weights,
    ),
}


@pytest.fixture(autouse=True)
def fixture_profiles(monkeypatch: pytest.MonkeyPatch) -> None:
    LOG.clear()
    found = {n: ReferenceProfile(n, "1.0.0", {}, h) for n, h in HOOKS.items()}
    monkeypatch.setattr(profiles_pkg, "discover", lambda: found)


def _search(variants: list[str], index: FakeIndex, **request: Any) -> Any:
    req = {"query": "acme", "mode": "bm25", "profiles": {"vary": {"variants": variants}}}
    return search({**req, **request}, Backends(index=index))


def _without_timings(trace: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in trace.items() if k != "timings"}


def test_one_variant_leaves_output_and_trace_unchanged() -> None:
    """PIPE-12: variants that all repeat the query give exactly the call without any."""
    answers = {'"acme"': [c("a"), c("b")]}
    plain = _search([], FakeIndex(answers))
    repeats = _search(["acme", " acme\u200b"], FakeIndex(answers))
    assert plain[0] == repeats[0]
    assert _without_timings(plain[1]) == _without_timings(repeats[1])
    assert "variants" not in plain[1]


def test_repeats_after_normalisation_are_dropped_and_never_searched() -> None:
    """PIPE-12: `Beta  widgets` and `Beta widgets` are one variant; the repeat makes no
    backend call."""
    # the variant's initial search hits, so its ladder (which may repeat it, LADDER-6) never runs
    index = FakeIndex({'"acme"': [c("a")], '"beta" OR "widgets"': [c("b")]})
    _, trace = _search(["Beta  widgets", "Beta widgets", "acme "], index)
    assert [v["query"] for v in trace["variants"]] == ["acme", "Beta  widgets"]
    assert [e for e, _ in index.calls].count('"beta" OR "widgets"') == 1


def test_variants_keep_profile_name_order_then_each_profile_order() -> None:
    """PIPE-12: the request's query, then vary's variants, then watch's, in their order."""
    profiles = {"watch": {"variants": ["w2", "w1"]}, "vary": {"variants": ["v2", "v1"]}}
    _, trace = _search([], FakeIndex(), profiles=profiles)
    assert [v["query"] for v in trace["variants"]] == ["acme", "v2", "v1", "w2", "w1"]


def test_empty_variant_is_invalid_input_before_any_backend_call() -> None:
    """PIPE-12, PIPE-9: the core rejects a variant that normalises to "" (a safety net)."""
    index = FakeIndex()
    with pytest.raises(InvalidInput, match="variant"):
        _search(["beta", " \u200b"], index)
    assert index.calls == []


def test_merge_is_rrf_of_ranks_not_of_fused_scores() -> None:
    """PIPE-12: the worked example: x (2/61 in F_0) ranks below y (1/62 + 1/61); variant 1
    runs BM25 alone (its vector weight is 0), so F_1 = [y]."""
    backends = Backends(
        index=FakeIndex({'"acme"': [c("x"), c("y")], '"beta"': [c("y")]}),
        embedder=FakeEmbedder(),
        vectors=FakeVectors([c("x")]),
    )
    profiles = {"vary": {"variants": ["beta"]}, "mute": {}}
    results, trace = search({"query": "acme", "mode": "hybrid", "profiles": profiles}, backends)
    assert [(r["id"], r["score"]) for r in results] == [("y", 1 / 62 + 1 / 61), ("x", 1 / 61)]
    assert trace["fusion"]["lists"] == [
        {"name": "variant:0", "weight": 1.0, "size": 2},
        {"name": "variant:1", "weight": 1.0, "size": 1},
    ]
    assert trace["variants"][1]["vector"]["skip"] == "zero_weight"


def test_per_variant_hooks_run_in_variant_order_and_later_trace_writes_win() -> None:
    """PIPE-12: query_variants once on the request's query; rewrite and weights per variant,
    in order; a key written per variant holds the last variant's value."""
    _, trace = _search([], FakeIndex(), profiles={"watch": {"variants": ["beta"]}})
    assert LOG == [
        "watch:variants:acme",
        "watch:rewrite:acme", "watch:weights:acme",
        "watch:rewrite:beta", "watch:weights:beta",
    ]
    assert trace["profiles"]["watch"] == {"last": "beta", "seen": ["acme", "beta"]}


def test_a_failed_variant_contributes_an_empty_list() -> None:
    """PIPE-12, PIPE-7: variant 1's only leg errors; the call returns variant 0's hits."""
    index = FakeIndex({'"acme"': [c("a")]}, errors={'"beta"': "boom"})
    results, trace = _search(["beta"], index)
    assert [r["id"] for r in results] == ["a"]
    assert trace["variants"][1]["bm25"]["error"] == {"kind": "index_error", "message": "boom"}
    assert trace["fusion"]["lists"][1]["size"] == 0


def test_every_bm25_leg_of_every_variant_failing_answers_empty() -> None:
    """PIPE-12, PIPE-7: BM25 ran, so every variant's error is recorded and the call answers []."""
    index = FakeIndex(errors={'"acme"': "boom", '"beta"': "bang"})
    results, trace = _search(["beta"], index)
    assert results == []
    assert [v["bm25"]["error"]["message"] for v in trace["variants"]] == ["boom", "bang"]


def test_unanimity_votes_with_variant_0_legs() -> None:
    """PIPE-12, UNAN-6: variant 0's legs agree, variant 1's do not: the shortcut fires."""
    abc = [c("a"), c("b"), c("c")]
    backends = Backends(
        index=FakeIndex({'"acme"': abc, '"beta"': [c("x"), c("y"), c("z")]}),
        embedder=FakeEmbedder(),
        vectors=FakeVectors(abc),
        reranker=FakeReranker(),
    )
    request = {"query": "acme", "mode": "hybrid", "profiles": {"vary": {"variants": ["beta"]}}}
    trace = search(request, backends)[1]
    assert trace["unanimity"] == {"evaluated": True, "agreements": 3, "fired": True}


class _VectorsFailingForBeta(FakeVectors):
    """Fails the vector search of the variant `beta` only (the embedder saw it last)."""

    def __init__(self, embedder: FakeEmbedder) -> None:
        super().__init__([c("a")])
        self.embedder = embedder

    def search_vector(self, vector: Any, limit: int) -> list[Any]:
        if self.embedder.seen[-1] == "beta":
            raise IndexError_("down")
        return super().search_vector(vector, limit)


def test_vector_error_in_a_later_variant_falls_back() -> None:
    """PIPE-12, MODE-6: variant 0's vector leg succeeds, variant 1's errors in hybrid:
    fellBackToBM25 is set, and variant 0's vector leg (top level) shows no error."""
    embedder = FakeEmbedder()
    backends = Backends(
        index=FakeIndex({'"acme"': [c("a")]}),
        embedder=embedder,
        vectors=_VectorsFailingForBeta(embedder),
    )
    request = {"query": "acme", "mode": "hybrid", "profiles": {"vary": {"variants": ["beta"]}}}
    trace = search(request, backends)[1]
    assert trace["fellBackToBM25"] is True
    assert trace["vector"]["error"] is None
    assert trace["variants"][1]["vector"]["error"] == {"kind": "index_error", "message": "down"}


def test_trace_with_variants_validates_against_the_schema() -> None:
    """TRACE-16: variant:i fusion lists and the variants member are in the trace schema."""
    schema_path = Path(__file__).resolve().parent.parent / "schemas" / "trace.schema.json"
    schema = json.loads(schema_path.read_text(encoding="utf-8"))
    _, trace = _search(["beta", "gamma"], FakeIndex({'"acme"': [c("a")]}))
    Draft202012Validator(schema).validate(trace)
    assert len(trace["variants"]) == 3
    assert set(trace["variants"][0]) == {"query", "bm25", "vector", "lists", "fusedHits"}
    trace["fusion"]["lists"][0]["name"] = "bm25"
    assert not Draft202012Validator(schema).is_valid(trace)
