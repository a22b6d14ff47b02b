"""Tail-preserving rerank and reranker faults, one behaviour per test (spec/rerank.md)."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from conformance.adapters.ops.fusion import op_rerank
from reference.backends.protocols import RerankEntry
from reference.rerank import (
    NON_FINITE_MESSAGE,
    RerankOutcome,
    check_top_n,
    rerank_head,
    skip_before_unanimity,
    skipped,
)
from reference.rrf import Fused
from reference.types import Candidate, InvalidInput


def fl(ids: str, scores: list[float] | None = None) -> list[Fused]:
    values = scores or [1.0 - i / 10 for i in range(len(ids))]
    return [
        Fused(Candidate(id=i, path=f"{i}.md"), s, Fraction(s))
        for i, s in zip(ids, values, strict=True)
    ]


def run(ids: str, top_n: int, *entries: tuple[str, float]) -> RerankOutcome:
    return rerank_head(fl(ids), top_n, [RerankEntry(i, s) for i, s in entries], None, "t")


def order(out: RerankOutcome) -> str:
    return "".join(f.id for f in out.items)


@pytest.mark.parametrize("bad", [1.5, "3", True, None])
def test_top_n_must_be_a_whole_number(bad: object) -> None:
    """RERANK-1: a fractional or non-numeric rerankTopN above 0 is invalid_input."""
    with pytest.raises(InvalidInput):
        check_top_n(bad)


@pytest.mark.parametrize("low", [0, -1, -0.5])
def test_top_n_at_or_below_zero_means_20(low: float) -> None:
    """RERANK-1: rerankTopN <= 0 is the default 20, as in the request (PIPE-13)."""
    assert check_top_n(low) == 20


def test_top_n_larger_than_the_list_takes_everything() -> None:
    """RERANK-1: the head is min(rerankTopN, n) items."""
    assert run("abc", 10, ("c", 0.9)).sent == ("a", "b", "c")


def test_only_the_head_is_sent() -> None:
    """RERANK-2: `sent` lists the head ids in head order."""
    assert run("abcde", 2, ("b", 0.9)).sent == ("a", "b")


def test_tail_is_never_resorted() -> None:
    """RERANK-3: tail items with higher fused scores stay behind the head, in fused order."""
    items = fl("abcd", [0.01, 0.009, 0.5, 0.9])
    out = rerank_head(items, 2, [RerankEntry("b", 0.2), RerankEntry("a", 0.1)], None, "t")
    assert order(out) == "bacd"


def test_ids_outside_the_head_are_invented() -> None:
    """RERANK-4: a tail id and an unknown id are dropped and reported in returned order."""
    out = run("abcd", 2, ("d", 0.9), ("x", 0.8), ("a", 0.5))
    assert out.invented == ("d", "x")
    assert order(out) == "abcd"


def test_repeated_ids_keep_the_first_entry() -> None:
    """RERANK-5: the first entry wins with its score; the repeat is a duplicate."""
    out = run("abc", 3, ("a", 0.1), ("b", 0.5), ("a", 0.9))
    assert out.duplicates == ("a",)
    assert order(out) == "bac"
    assert out.rerank_scores["a"] == 0.1


def test_equal_scores_follow_head_position() -> None:
    """RERANK-6: [b 0.5, a 0.5] reranks to a then b (head order), not returned order."""
    assert order(run("abc", 3, ("b", 0.5), ("a", 0.5))) == "abc"


def test_zero_and_negative_zero_tie() -> None:
    """RERANK-6: 0.0 and -0.0 are equal scores."""
    assert order(run("ab", 2, ("b", 0.0), ("a", -0.0))) == "ab"


def test_omitted_head_ids_are_backfilled_in_head_order() -> None:
    """RERANK-7: missing ids follow the accepted ones with no rerank score."""
    out = run("abcde", 5, ("e", 0.9))
    assert order(out) == "eabcd"
    assert out.missing == ("a", "b", "c", "d")
    assert out.rerank_scores["a"] is None


def test_empty_response_is_not_a_failure() -> None:
    """RERANK-7: an empty response keeps the head order with outcome reranked."""
    out = run("abc", 3)
    assert (out.outcome, order(out), out.missing) == ("reranked", "abc", ("a", "b", "c"))


def test_reranker_error_keeps_the_fused_list() -> None:
    """RERANK-8: a failure keeps the order, nulls every score and reports the message."""
    out = rerank_head(fl("abcd"), 2, None, "timeout", "t")
    assert (out.outcome, order(out), out.sent) == ("failed", "abcd", ("a", "b"))
    assert out.report()["error"] == {"kind": "reranker_error", "message": "timeout"}
    assert set(out.rerank_scores.values()) == {None}


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
def test_non_finite_score_fails_the_response(bad: float) -> None:
    """RERANK-9: a non-finite score anywhere, even on an invented id, is a failure."""
    out = run("abc", 3, ("x", bad), ("a", 0.5))
    assert (out.outcome, out.error, out.invented) == ("failed", NON_FINITE_MESSAGE, ())


def test_non_finite_spellings_in_the_op_input() -> None:
    """RERANK-9: the op reads "NaN" as a non-finite score and rejects other strings."""
    base = {"fused": [{"id": "a", "path": "a.md", "score": 1.0}]}
    out = op_rerank({**base, "reranker": {"name": "t", "results": [{"id": "a", "score": "NaN"}]}})
    assert out["report"]["outcome"] == "failed"
    with pytest.raises(InvalidInput):
        op_rerank({**base, "reranker": {"name": "t", "results": [{"id": "a", "score": "nan"}]}})


def test_skip_precedence() -> None:
    """RERANK-10: disabled beats no_reranker beats empty; skipped lists keep null scores."""
    assert skip_before_unanimity(False, False, 0) == "disabled"
    assert skip_before_unanimity(True, False, 0) == "no_reranker"
    assert skip_before_unanimity(True, True, 0) == "empty"
    out = skipped(fl("ab"), "unanimity", "t")
    assert (order(out), out.rerank_scores) == ("ab", {"a": None, "b": None})


def test_op_with_empty_fused_list_reports_empty() -> None:
    """RERANK-10: the rerank operation answers outcome empty for no candidates."""
    out = op_rerank({"fused": [], "reranker": {"name": "t", "results": []}})
    assert out["results"] == [] and out["report"]["outcome"] == "empty"


def test_output_is_a_permutation_with_head_ids_in_head_positions() -> None:
    """RERANK-11: nothing lost or duplicated whatever the reranker returns."""
    out = run("abcdefgh", 5, ("e", 0.7), ("g", 0.99), ("b", 0.7), ("e", 0.1), ("zz", 1.0))
    assert sorted(order(out)) == list("abcdefgh")
    assert set(order(out)[:5]) == set("abcde") and order(out)[5:] == "fgh"


def test_op_requires_exactly_one_of_results_and_error() -> None:
    """RERANK-12: a reranker with both results and error is invalid_input."""
    with pytest.raises(InvalidInput):
        op_rerank({"fused": [], "reranker": {"name": "t", "results": [], "error": "x"}})


def test_op_output_shape() -> None:
    """RERANK-12: results cover the whole list; the report has every field."""
    fused = [{"id": i, "path": f"{i}.md", "score": 1.0} for i in "abc"]
    reranker = {"name": "t", "results": [{"id": "b", "score": 2}]}
    out = op_rerank({"fused": fused, "rerankTopN": 2, "reranker": reranker})
    assert out == {
        "results": [
            {"id": "b", "rerankScore": 2.0},
            {"id": "a", "rerankScore": None},
            {"id": "c", "rerankScore": None},
        ],
        "report": {
            "outcome": "reranked",
            "provider": "t",
            "sent": ["a", "b"],
            "missing": ["a"],
            "invented": [],
            "duplicates": [],
            "error": None,
        },
    }
