"""The pipeline's orchestration (spec/pipeline.md PIPE-*, MODE-6; spec/trace.md TRACE-*)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from reference.pipeline import Backends, search
from reference.types import Candidate, IndexError_, InvalidInput
from tests.fakes import FakeEmbedder, FakeIndex, FakeReranker, FakeVectors, c

SCHEMA = json.loads(
    (Path(__file__).resolve().parent.parent / "schemas" / "trace.schema.json").read_text()
)


def run(request: dict[str, Any], backends: Backends) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    results, trace = search(request, backends)
    jsonschema.validate(trace, SCHEMA)
    return results, trace


def ids(results: list[dict[str, Any]]) -> list[str]:
    return [r["id"] for r in results]


@pytest.mark.parametrize("field", ["topK", "candidateK", "rerankTopN", "rrfK"])
@pytest.mark.parametrize("low", [0, -5, -0.5])
def test_integer_at_or_below_zero_means_the_default(field: str, low: float) -> None:
    """PIPE-13: a number <= 0 takes the field's default, as the anchor reads it; the BM25
    leg then asks for candidateK 60."""
    index = FakeIndex({'"kubernetes"': [c("a")]})
    _, trace = search({"query": "kubernetes", field: low}, Backends(index=index))
    defaults = {"topK": 10, "candidateK": 60, "rerankTopN": 20, "rrfK": 60}
    assert trace["request"][field] == defaults[field]
    assert index.calls == [('"kubernetes"', 60)]


def test_positive_fraction_is_still_rejected() -> None:
    """PIPE-1: 0.5 is above 0 and not a whole number: invalid_input, the kit's pin."""
    with pytest.raises(InvalidInput):
        search({"query": "kubernetes", "topK": 0.5}, Backends(index=FakeIndex()))


def test_blank_query_is_rejected() -> None:
    """PIPE-2: a query that normalises to nothing is invalid."""
    with pytest.raises(InvalidInput):
        search({"query": "\u200b \u3000"}, Backends(index=FakeIndex()))


def test_stages_feed_the_reranker_the_fused_head_and_truncate_last() -> None:
    """PIPE-3: fusion before rerank, rerank before the topK cut."""
    index = FakeIndex({'"kubernetes"': [c("a"), c("b"), c("c")]})
    reranker = FakeReranker({"c": 3.0, "b": 2.0, "a": 1.0})
    results, trace = run({"query": "kubernetes", "mode": "bm25", "topK": 1},
                         Backends(index=index, reranker=reranker))
    assert reranker.heads == [["a", "b", "c"]]
    assert ids(results) == ["c"]
    assert trace["resultIds"] == ["c"]


def test_each_leg_is_asked_for_candidate_k_and_keeps_at_most_that() -> None:
    """PIPE-4: the limit is passed down and enforced on what comes back."""
    index = FakeIndex({'"kubernetes"': [c("a"), c("b"), c("c")]})
    vectors = FakeVectors([c("x"), c("y"), c("z")])
    results, trace = run({"query": "kubernetes", "mode": "hybrid", "candidateK": 2},
                         Backends(index=index, embedder=FakeEmbedder(), vectors=vectors))
    assert index.calls[0] == ('"kubernetes"', 2)
    assert vectors.limits == [2]
    assert trace["vector"]["hits"] == 2 and trace["bm25"]["hits"] == 2
    assert set(ids(results)) == {"a", "b", "x", "y"}


def test_fusion_lists_are_bm25_then_vector() -> None:
    """PIPE-5: fixed list order and names in the trace."""
    _, trace = run({"query": "kubernetes", "mode": "hybrid"},
                   Backends(index=FakeIndex({'"kubernetes"': [c("a")]}), embedder=FakeEmbedder(),
                            vectors=FakeVectors([c("b"), c("a")])))
    assert [x["name"] for x in trace["fusion"]["lists"]] == ["bm25", "vector"]
    assert [x["size"] for x in trace["fusion"]["lists"]] == [1, 2]


def test_results_carry_score_and_null_rerank_score_without_reranker() -> None:
    """PIPE-6: result rows are the candidate fields plus score and rerankScore."""
    results, _ = run({"query": "kubernetes", "mode": "bm25"},
                     Backends(index=FakeIndex({'"kubernetes"': [c("a")]})))
    assert results == [{"id": "a", "path": "a.md", "title": "", "summary": "",
                        "content": "text of a", "metadata": {}, "score": 1 / 61,
                        "rerankScore": None}]


def test_bm25_error_is_recorded_and_never_starts_the_ladder() -> None:
    """PIPE-7: an index error is not zero hits."""
    index = FakeIndex(errors={'"kubernetes"': "locked"})
    results, trace = run({"query": "kubernetes", "mode": "hybrid"},
                         Backends(index=index, embedder=FakeEmbedder(),
                                  vectors=FakeVectors([c("v")])))
    assert ids(results) == ["v"]
    assert len(index.calls) == 1
    assert [a["rung"] for a in trace["bm25"]["attempts"]] == ["initial"]
    assert trace["bm25"]["error"] == {"kind": "index_error", "message": "locked"}


def test_bm25_error_in_bm25_mode_answers_empty_with_the_error() -> None:
    """PIPE-7: the anchor records errorStage bm25 and returns; the call does not fail."""
    results, trace = run({"query": "kubernetes", "mode": "bm25"},
                         Backends(index=FakeIndex(errors={'"kubernetes"': "locked"})))
    assert results == []
    assert trace["bm25"]["error"] == {"kind": "index_error", "message": "locked"}
    assert [a["rung"] for a in trace["bm25"]["attempts"]] == ["initial"]


def test_both_legs_failing_in_hybrid_answers_empty_with_both_errors() -> None:
    """PIPE-7, PIPE-15: BM25 ran, so its error is recorded, not raised; the vector's too."""
    results, trace = run({"query": "kubernetes", "mode": "hybrid"},
                         Backends(index=FakeIndex(errors={'"kubernetes"': "locked"}),
                                  embedder=FakeEmbedder(), vectors=FakeVectors([], error="down")))
    assert results == [] and trace["fellBackToBM25"] is True
    assert trace["bm25"]["error"] == {"kind": "index_error", "message": "locked"}
    assert trace["vector"]["error"] == {"kind": "index_error", "message": "down"}


@pytest.mark.parametrize("request_", [
    {"query": "kubernetes", "mode": "semantic"},
    {"query": "kubernetes", "mode": "hybrid", "weights": {"bm25": 0}},
])
def test_vector_error_without_a_bm25_leg_fails_the_search(request_: dict[str, Any]) -> None:
    """PIPE-15: no BM25 leg ran and every leg that ran errored: index_error."""
    index = CountingIndex()
    with pytest.raises(IndexError_, match="down"):
        search(request_, Backends(index=index, embedder=FakeEmbedder(),
                                  vectors=FakeVectors([], error="down")))
    assert index.calls == []


def test_vector_error_in_hybrid_sets_fell_back_but_keeps_mode() -> None:
    """MODE-6."""
    _, trace = run({"query": "kubernetes", "mode": "hybrid"},
                   Backends(index=FakeIndex({'"kubernetes"': [c("a")]}), embedder=FakeEmbedder(),
                            vectors=FakeVectors([], error="down")))
    assert (trace["effectiveMode"], trace["fellBackToBM25"]) == ("hybrid", True)


def test_vector_leg_embeds_the_normalised_query() -> None:
    """PIPE-3 step 4: the embedder sees the normalised text, not the raw query."""
    embedder = FakeEmbedder()
    run({"query": "  kubernetes\u200b\u00a0setup ", "mode": "semantic"},
        Backends(embedder=embedder, vectors=FakeVectors([c("a")])))
    assert embedder.seen == ["kubernetes setup"]


def test_reranker_exception_keeps_fused_order() -> None:
    """PIPE-7 and the rerank fault rules: a failing reranker loses nothing."""
    results, trace = run({"query": "kubernetes", "mode": "bm25"},
                         Backends(index=FakeIndex({'"kubernetes"': [c("a"), c("b")]}),
                                  reranker=FakeReranker(fail=True)))
    assert ids(results) == ["a", "b"]
    assert trace["rerank"]["outcome"] == "failed"


def test_trace_validates_against_the_schema_in_every_mode() -> None:
    """TRACE-1: every field present, nothing extra, for each mode."""
    for mode in ("bm25", "semantic", "hybrid", "auto"):
        run({"query": "kubernetes", "mode": mode},
            Backends(index=FakeIndex({'"kubernetes"': [c("a")]}), embedder=FakeEmbedder(),
                     vectors=FakeVectors([c("b")]), reranker=FakeReranker({"a": 1.0})))


def test_timings_are_the_only_uncompared_part() -> None:
    """TRACE-2: two runs differ only in timings."""
    backends = Backends(index=FakeIndex({'"kubernetes"': [c("a")]}))
    _, first = run({"query": "kubernetes"}, backends)
    _, second = run({"query": "kubernetes"}, backends)
    first.pop("timings")
    second.pop("timings")
    assert first == second


def test_absent_values_are_null_not_zero() -> None:
    """TRACE-3: unanimity agreements and winningRung are null when there is nothing to report."""
    _, trace = run({"query": "kubernetes", "mode": "semantic"},
                   Backends(embedder=FakeEmbedder(), vectors=FakeVectors([c("a")])))
    assert trace["unanimity"]["agreements"] is None
    assert trace["bm25"]["winningRung"] is None


class CountingIndex(FakeIndex):
    """A FakeIndex that also counts chunk listings (the trigram rung's only index call)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.listings = 0

    def chunks(self) -> Sequence[Candidate] | None:
        self.listings += 1
        return [c("k")]


@pytest.mark.parametrize("mode", ["bm25", "hybrid", "auto"])
def test_zero_weight_bm25_leg_makes_no_index_call(mode: str) -> None:
    """PIPE-8: weights.bm25 = 0 means no search, no ladder, no chunk listing."""
    index = CountingIndex()
    vectors = FakeVectors([c("v")])
    _, trace = run({"query": "kubernets setup", "mode": mode, "weights": {"bm25": 0}},
                   Backends(index=index, embedder=FakeEmbedder(), vectors=vectors))
    assert (index.calls, index.listings) == ([], 0)
    assert trace["bm25"] == {"ran": False, "skip": "zero_weight", "attempts": [],
                             "usedRetry": False, "winningRung": None, "hits": 0, "error": None}
    assert [x["name"] for x in trace["fusion"]["lists"]] == ([] if mode == "bm25" else ["vector"])


@pytest.mark.parametrize("mode", ["semantic", "hybrid"])
def test_zero_weight_vector_leg_makes_no_embed_or_vector_call(mode: str) -> None:
    """PIPE-8: weights.vector = 0 means no embed call and no vector call; no fallback flag."""
    embedder, vectors = FakeEmbedder(), FakeVectors([c("v")], error="must not be called")
    results, trace = run({"query": "kubernetes", "mode": mode, "weights": {"vector": 0}},
                         Backends(index=FakeIndex({'"kubernetes"': [c("a")]}),
                                  embedder=embedder, vectors=vectors))
    assert (embedder.seen, vectors.limits) == ([], [])
    assert trace["vector"] == {"ran": False, "skip": "zero_weight", "hits": 0, "error": None}
    assert trace["fellBackToBM25"] is False and trace["effectiveMode"] == mode
    assert ids(results) == (["a"] if mode == "hybrid" else [])


@pytest.mark.parametrize("zero", ["bm25", "vector"])
def test_zero_weight_leg_has_no_vote_so_the_reranker_runs(zero: str) -> None:
    """PIPE-8, UNAN-6: identical top threes do not fire the shortcut when one leg has weight 0."""
    reranker = FakeReranker({"a": 1.0, "b": 2.0, "c": 3.0})
    results, trace = run({"query": "kubernetes", "mode": "hybrid", "weights": {zero: 0}},
                         Backends(index=FakeIndex({'"kubernetes"': [c("a"), c("b"), c("c")]}),
                                  embedder=FakeEmbedder(),
                                  vectors=FakeVectors([c("a"), c("b"), c("c")]),
                                  reranker=reranker))
    assert trace["unanimity"] == {"evaluated": False, "agreements": None, "fired": False}
    assert reranker.heads == [["a", "b", "c"]] and ids(results) == ["c", "b", "a"]


def test_no_leg_running_is_an_empty_success() -> None:
    """PIPE-8, PIPE-15: with both weights 0 nothing runs and nothing fails."""
    index = CountingIndex(errors={'"kubernetes"': "must not be called"})
    results, trace = run({"query": "kubernetes", "mode": "hybrid",
                          "weights": {"bm25": 0, "vector": 0}},
                         Backends(index=index, embedder=FakeEmbedder(),
                                  vectors=FakeVectors([], error="must not be called")))
    assert results == [] and index.calls == []
    assert (trace["bm25"]["skip"], trace["vector"]["skip"]) == ("zero_weight", "zero_weight")


def test_a_leg_the_mode_does_not_run_says_mode() -> None:
    """MODE-4, PIPE-8: the mode is checked before the weight."""
    _, trace = run({"query": "kubernetes", "mode": "semantic", "weights": {"bm25": 0}},
                   Backends(embedder=FakeEmbedder(), vectors=FakeVectors([c("a")])))
    assert (trace["bm25"]["skip"], trace["vector"]["skip"]) == ("mode", None)


def _hybrid_trace() -> tuple[list[dict[str, Any]], dict[str, Any]]:
    return run({"query": "k8s deploy", "mode": "hybrid", "aliases": {"k8s": ["kubernetes"]},
                "weights": {"vector": 0.5}},
               Backends(index=FakeIndex({'"kubernetes" OR "deploy"': [c("a"), c("b")]}),
                        embedder=FakeEmbedder(), vectors=FakeVectors([c("b"), c("z")]),
                        reranker=FakeReranker({"a": 1.0, "b": 2.0})))


def test_trace_request_and_modes() -> None:
    """TRACE-4, TRACE-5: the request after defaults without aliases; effective mode never auto."""
    _, trace = run({"query": "kubernetes"}, Backends(index=FakeIndex()))
    assert trace["specVersion"] == "5.0.0" and "aliases" not in trace["request"]
    assert trace["request"]["weights"] == {"bm25": 1.0, "vector": 1.0}
    assert (trace["requestedMode"], trace["effectiveMode"]) == ("auto", "bm25")


def test_trace_query_tokens_after_alias_expansion() -> None:
    """TRACE-6: an alias key shows as its alternatives, plain tokens without members."""
    _, trace = _hybrid_trace()
    assert trace["query"]["tokens"][0] == {"kind": "term", "text": "kubernetes", "operator": None}
    assert trace["query"]["expression"] == '"kubernetes" OR "deploy"'


def test_trace_legs_and_rows() -> None:
    """TRACE-7, TRACE-8, TRACE-9: leg fields, one row per rung reached, skip null when run."""
    _, trace = _hybrid_trace()
    assert trace["bm25"]["skip"] is None and trace["vector"]["skip"] is None
    assert [set(row) for row in trace["bm25"]["attempts"]] == [
        {"rung", "expression", "searched", "hits", "skip", "error"}
    ]
    assert (trace["bm25"]["hits"], trace["vector"]["hits"]) == (2, 2)


def test_trace_fusion_intent_unanimity_rerank_and_result_ids() -> None:
    """TRACE-10, TRACE-11, TRACE-12, TRACE-13, TRACE-14: lists, reports, resultIds order."""
    results, trace = _hybrid_trace()
    assert trace["fusion"]["lists"] == [{"name": "bm25", "weight": 1.0, "size": 2},
                                        {"name": "vector", "weight": 0.5, "size": 2}]
    assert trace["fusion"]["fusedHits"] == 3 and trace["intent"]["adjusted"] == []
    assert trace["unanimity"] == {"evaluated": True, "agreements": 0, "fired": False}  # short legs
    assert (trace["rerank"]["outcome"], trace["rerank"]["provider"]) == ("reranked",
                                                                        "fake-reranker")
    assert trace["resultIds"] == ids(results) == ["b", "a", "z"]
