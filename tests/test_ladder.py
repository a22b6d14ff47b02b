"""The zero-hit retry ladder (spec/ladder.md, LADDER-*), with hand-built plans and fake backends."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

from reference.ladder import (
    RUNGS,
    Attempt,
    LadderPlan,
    plan_ladder,
    run_bm25_leg,
)
from reference.types import Candidate, IndexError_, InvalidInput

PLAN = LadderPlan(
    initial_expression='"kubernetes" AND "helm"',
    strongest_expression='"kubernetes"',
    sanitised_expression='"kubernetes" OR "helm"',
    refreshed_strongest_expression='"helmfile"',
    trigram_tokens=("kubernetes", "helm"),
)


def hits(*names: str) -> list[Candidate]:
    return [Candidate(id=n, path=f"{n}.md") for n in names]


class FakeIndex:
    """Answers scripted expressions, records every call, raises on scripted errors."""

    def __init__(
        self,
        responses: Mapping[str, list[Candidate]] | None = None,
        errors: Mapping[str, str] | None = None,
    ) -> None:
        self.responses = dict(responses or {})
        self.errors = dict(errors or {})
        self.calls: list[tuple[str, int]] = []

    def search(self, expression: str, limit: int) -> list[Candidate]:
        self.calls.append((expression, limit))
        if expression in self.errors:
            raise IndexError_(self.errors[expression])
        return list(self.responses.get(expression, []))


class FakeTrigram:
    def __init__(self, answer: list[Candidate] | None = None, error: str | None = None) -> None:
        self.answer = answer or []
        self.error = error
        self.calls: list[tuple[tuple[str, ...], int]] = []

    def __call__(self, tokens: Sequence[str], limit: int) -> list[Candidate]:
        self.calls.append((tuple(tokens), limit))
        if self.error is not None:
            raise IndexError_(self.error)
        return list(self.answer)


def rungs(attempts: Sequence[Attempt]) -> list[str]:
    return [a.rung for a in attempts]


# --- LADDER-1, LADDER-2: when and in which order ----------------------------------------------


def test_initial_hits_mean_one_row_and_no_ladder() -> None:
    """LADDER-1: initial hits end the leg after one row."""
    index = FakeIndex({PLAN.initial_expression: hits("a")})
    leg = run_bm25_leg(PLAN, index.search, FakeTrigram(), 60, True)
    assert rungs(leg.attempts) == ["initial"]
    assert leg.winning_rung == "initial" and not leg.used_retry


def test_skip_retry_ladder_keeps_only_the_initial_row() -> None:
    """LADDER-1: run_ladder false (skipRetryLadder) stops after a zero-hit initial row."""
    index = FakeIndex({PLAN.strongest_expression: hits("a")})
    leg = run_bm25_leg(PLAN, index.search, FakeTrigram(), 60, False)
    assert rungs(leg.attempts) == ["initial"]
    assert leg.hits == [] and leg.winning_rung is None and not leg.used_retry


def test_all_six_rows_in_canonical_order_when_nothing_hits() -> None:
    """LADDER-2: a full miss with something to search on every rung emits each rung once."""
    leg = run_bm25_leg(PLAN, FakeIndex().search, FakeTrigram(), 60, True)
    assert tuple(rungs(leg.attempts)) == RUNGS
    assert leg.hits == [] and leg.winning_rung is None


@pytest.mark.parametrize(
    ("expression", "winner"),
    [
        ('"kubernetes"', "strongest_term"),
        ('"kubernetes" OR "helm"', "refreshed_sanitised"),
        ('"helmfile"', "refreshed_strongest"),
    ],
)
def test_first_rung_with_hits_wins_and_later_rungs_are_not_reached(
    expression: str, winner: str
) -> None:
    """LADDER-2: the rows end at the winning rung; its hits are the leg's hits."""
    index = FakeIndex({expression: hits("w")})
    leg = run_bm25_leg(PLAN, index.search, FakeTrigram(hits("t")), 60, True)
    assert rungs(leg.attempts) == list(RUNGS[: RUNGS.index(winner) + 1])
    assert leg.winning_rung == winner and [c.id for c in leg.hits] == ["w"]


def test_trigram_rung_can_win() -> None:
    """LADDER-12: the trigram rung's candidates are the leg's hits when it is the first to hit."""
    tri = FakeTrigram(hits("t1", "t2"))
    leg = run_bm25_leg(PLAN, FakeIndex().search, tri, 60, True)
    assert leg.winning_rung == "trigram_fuzzy" and [c.id for c in leg.hits] == ["t1", "t2"]
    assert tri.calls == [(("kubernetes", "helm"), 60)]


# --- LADDER-3..6: rows and skips ---------------------------------------------------------------


def test_rows_have_the_six_trace_fields() -> None:
    """LADDER-3: each row serialises to {rung, expression, searched, hits, skip, error}."""
    leg = run_bm25_leg(PLAN, FakeIndex().search, FakeTrigram(), 60, True)
    assert leg.attempts[0].to_json() == {
        "rung": "initial",
        "expression": '"kubernetes" AND "helm"',
        "searched": True,
        "hits": 0,
        "skip": None,
        "error": None,
    }


def test_rungs_with_nothing_to_search_emit_no_row() -> None:
    """LADDER-3, LADDER-4: only `initial` keeps an `empty` row; other empty rungs vanish."""
    plan = LadderPlan("", "", "", "", ())
    index = FakeIndex()
    leg = run_bm25_leg(plan, index.search, FakeTrigram(), 60, True)
    assert [(a.rung, a.skip) for a in leg.attempts] == [
        ("initial", "empty"),
        ("force-refresh", "no_op"),
    ]
    assert index.calls == [] and all(not a.searched for a in leg.attempts)


def test_an_empty_middle_rung_vanishes_and_the_walk_goes_on() -> None:
    """LADDER-3: an empty strongest_term emits nothing; the later rungs still run."""
    plan = LadderPlan('"a" AND "b"', "", '"a" OR "b"', "", ("a",))
    leg = run_bm25_leg(plan, FakeIndex().search, FakeTrigram(), 60, True)
    assert rungs(leg.attempts) == ["initial", "force-refresh", "refreshed_sanitised",
                                   "trigram_fuzzy"]


def test_force_refresh_row_is_a_no_op() -> None:
    """LADDER-5: force-refresh emits its fixed no_op row and calls nothing."""
    index = FakeIndex()
    leg = run_bm25_leg(PLAN, index.search, FakeTrigram(), 60, True)
    assert leg.attempts[2] == Attempt("force-refresh", "", False, 0, "no_op", None)
    assert [e for e, _ in index.calls] == [
        '"kubernetes" AND "helm"',
        '"kubernetes"',
        '"kubernetes" OR "helm"',
        '"helmfile"',
    ]


def test_a_repeated_expression_is_searched_again() -> None:
    """LADDER-6: the anchor's rungs run whatever was searched before; there is no duplicate."""
    plan = LadderPlan('"kubernets"', '"kubernets"', '"kubernets"', '"kubernets"', ("kubernets",))
    index = FakeIndex()
    leg = run_bm25_leg(plan, index.search, FakeTrigram(), 60, True)
    assert [a.skip for a in leg.attempts] == [None, None, "no_op", None, None, None]
    assert index.calls == [('"kubernets"', 60)] * 4


def test_trigram_rung_without_chunks_is_no_chunks() -> None:
    """LADDER-4: `trigram` None gives a `no_chunks` row showing the tokens."""
    leg = run_bm25_leg(PLAN, FakeIndex().search, None, 60, True)
    assert leg.attempts[-1] == Attempt(
        "trigram_fuzzy", "kubernetes helm", False, 0, "no_chunks", None
    )


def test_no_tokens_means_no_trigram_row_even_without_chunks() -> None:
    """LADDER-3, LADDER-4: no tokens is checked before `no_chunks`, and emits no row."""
    plan = LadderPlan('"x"', "", "", "", ())
    leg = run_bm25_leg(plan, FakeIndex().search, None, 60, True)
    assert rungs(leg.attempts) == ["initial", "force-refresh"]


# --- LADDER-7..11: plan_ladder with the real query module ------------------------------------


def test_initial_is_the_compiled_query() -> None:
    """LADDER-7: the initial expression is compile(parse(query, aliases))."""
    assert plan_ladder("kubernetes AND helm", None).initial_expression == '"kubernetes" AND "helm"'


def test_stopword_only_query_plans_nothing() -> None:
    """LADDER-7: an initial expression of "" is allowed; every rung is then empty."""
    assert plan_ladder("the and of", None) == LadderPlan("", "", "", "", ())


def test_strongest_rung_reads_the_sanitised_words_phrases_included() -> None:
    """LADDER-9: the anchor's strongestTerm reads the sanitised query, so phrase words count."""
    assert plan_ladder('"kubernetes cluster" setup', None).strongest_expression == '"kubernetes"'


def test_prefix_token_is_searched_as_a_plain_term() -> None:
    """LADDER-9: `kubernetes*` becomes `"kubernetes"` on the strongest_term rung."""
    assert plan_ladder("kubernetes* dns", None).strongest_expression == '"kubernetes"'


def test_strongest_rung_equal_to_the_folded_query_is_not_planned() -> None:
    """LADDER-9: a term that is the whole folded query adds nothing; rung 4 still has it."""
    plan = plan_ladder(" Kubernets ", None)
    assert plan.strongest_expression == ""
    assert plan.refreshed_strongest_expression == '"kubernets"'
    assert plan_ladder("kubernets!", None).strongest_expression == '"kubernets"'


def test_sanitised_rung_is_alias_expanded_without_operators() -> None:
    """LADDER-10: refreshed_sanitised is sanitise(query, aliases).expression."""
    plan = plan_ladder("k8s AND deploy", {"k8s": ["kubernetes"]})
    assert plan.sanitised_expression == '"kubernetes" OR "deploy"'  # DSL-14: replaced


def test_refreshed_strongest_reads_phrase_words_too() -> None:
    """LADDER-11: the sanitised words include phrase words, so `kubernetes` wins there."""
    plan = plan_ladder('"kubernetes cluster" setup', None)
    assert plan.refreshed_strongest_expression == '"kubernetes"'
    assert plan.trigram_tokens == ("kubernetes", "cluster", "setup")


def test_trigram_row_expression_is_tokens_joined_by_one_space() -> None:
    """LADDER-11: the trigram row shows its tokens joined by U+0020."""
    plan = plan_ladder("Kubernets,  Setup!", None)
    leg = run_bm25_leg(plan, FakeIndex().search, FakeTrigram(), 60, True)
    assert leg.attempts[-1].expression == "kubernets setup"


# --- LADDER-12..15: chunks, bounds, errors, the result ----------------------------------------


def test_empty_chunk_list_is_searched() -> None:
    """LADDER-12: an index listing zero chunks is searched and yields zero hits."""
    tri = FakeTrigram([])
    leg = run_bm25_leg(PLAN, FakeIndex().search, tri, 60, True)
    assert leg.attempts[-1].searched and leg.attempts[-1].skip is None and len(tri.calls) == 1


def test_every_attempt_asks_for_and_keeps_at_most_candidate_k() -> None:
    """LADDER-13: the limit passed is candidateK and a longer answer is truncated."""
    index = FakeIndex({PLAN.strongest_expression: hits("a", "b", "c", "d")})
    leg = run_bm25_leg(PLAN, index.search, None, 2, True)
    assert {limit for _, limit in index.calls} == {2}
    assert [c.id for c in leg.hits] == ["a", "b"] and leg.attempts[-1].hits == 2


def test_trigram_answer_is_truncated_to_candidate_k() -> None:
    """LADDER-13: the trigram rung is bounded like the others."""
    leg = run_bm25_leg(PLAN, FakeIndex().search, FakeTrigram(hits("a", "b", "c")), 1, True)
    assert [c.id for c in leg.hits] == ["a"]


def test_candidate_k_below_one_is_rejected() -> None:
    """LADDER-13: candidateK must be an integer of at least 1."""
    with pytest.raises(InvalidInput):
        run_bm25_leg(PLAN, FakeIndex().search, None, 0, True)


def test_error_on_a_rung_stops_the_walk() -> None:
    """LADDER-14: the failing row carries the error and no later row is emitted."""
    index = FakeIndex(errors={PLAN.sanitised_expression: "fts5: syntax error"})
    leg = run_bm25_leg(PLAN, index.search, FakeTrigram(hits("t")), 60, True)
    error = {"kind": "index_error", "message": "fts5: syntax error"}
    assert rungs(leg.attempts)[-1] == "refreshed_sanitised"
    assert leg.attempts[-1] == Attempt("refreshed_sanitised", PLAN.sanitised_expression, True, 0,
                                       None, error)
    assert leg.error == error and leg.hits == [] and leg.winning_rung is None


def test_error_on_initial_means_no_ladder() -> None:
    """LADDER-14: an initial failure is not zero hits; the ladder does not run."""
    index = FakeIndex(errors={PLAN.initial_expression: "disk I/O error"})
    leg = run_bm25_leg(PLAN, index.search, FakeTrigram(hits("t")), 60, True)
    assert rungs(leg.attempts) == ["initial"] and leg.error is not None
    assert not leg.used_retry


def test_error_on_the_trigram_rung_is_recorded() -> None:
    """LADDER-14: a failing trigram search is an index error like any other."""
    leg = run_bm25_leg(PLAN, FakeIndex().search, FakeTrigram(error="gone"), 60, True)
    assert leg.attempts[-1].error == {"kind": "index_error", "message": "gone"}


def test_used_retry_is_true_even_when_no_later_rung_searched() -> None:  # force-refresh row
    """LADDER-15: usedRetry means a row after initial exists, not that it searched."""
    leg = run_bm25_leg(LadderPlan("", "", "", "", ()), FakeIndex().search, None, 60, True)
    assert leg.used_retry and leg.winning_rung is None


def test_trace_json_reports_the_hit_count() -> None:
    """LADDER-15: the trace's bm25 fields: attempts, usedRetry, winningRung, hits, error."""
    index = FakeIndex({PLAN.strongest_expression: hits("a", "b")})
    out = run_bm25_leg(PLAN, index.search, None, 60, True).trace_json()
    assert (out["usedRetry"], out["winningRung"], out["hits"], out["error"]) == (
        True,
        "strongest_term",
        2,
        None,
    )
    assert len(out["attempts"]) == 2


def test_force_refresh_is_no_op_even_when_every_neighbour_is_empty() -> None:
    """LADDER-4 (reworded): force-refresh is never `empty`, though its expression is ""."""
    leg = run_bm25_leg(LadderPlan("", "", "", "", ()), FakeIndex().search, None, 60, True)
    row = leg.attempts[1]
    assert (row.rung, row.expression, row.skip) == ("force-refresh", "", "no_op")
