"""The BM25 leg with its zero-hit retry ladder (spec/ladder.md, LADDER-*).

`plan_ladder` derives every rung's expression from the query alone; `run_bm25_leg` walks the
rungs in their one canonical order against injected search functions, so the same plan and
the same backend answers always give the same attempt rows in every port.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from reference import fanout, text
from reference.query import compile_query, fts_quote, parse, sanitise
from reference.query.stopwords import DEFAULT_LIST
from reference.strongest import strongest_term
from reference.types import Candidate, IndexError_, InvalidInput

INITIAL = "initial"
STRONGEST_TERM = "strongest_term"
FORCE_REFRESH = "force-refresh"
REFRESHED_SANITISED = "refreshed_sanitised"
REFRESHED_STRONGEST = "refreshed_strongest"
TRIGRAM_FUZZY = "trigram_fuzzy"

# LADDER-2: the canonical order; the rows of every trace are a subsequence of it.
RUNGS: tuple[str, ...] = (
    INITIAL,
    STRONGEST_TERM,
    FORCE_REFRESH,
    REFRESHED_SANITISED,
    REFRESHED_STRONGEST,
    TRIGRAM_FUZZY,
)

# LADDER-4: why an emitted row did not call its backend.
SKIP_EMPTY = "empty"
SKIP_NO_OP = "no_op"
SKIP_NO_CHUNKS = "no_chunks"

Search = Callable[[str, int], list[Candidate]]
TrigramSearch = Callable[[Sequence[str], int], list[Candidate]]



@dataclass(frozen=True)
class LadderPlan:
    """LADDER-7..11: the expression of every searching rung, derived from the query alone.

    `""` for a rung other than `initial` means the rung is not emitted (LADDER-3).
    """

    initial_expression: str
    strongest_expression: str
    sanitised_expression: str
    refreshed_strongest_expression: str
    trigram_tokens: tuple[str, ...]


def query_strongest_term(query: str, stopword_list: str = DEFAULT_LIST) -> str:
    """LADDER-9: the strongest term (LADDER-8) of the query's sanitised words (TEXT-7)."""
    return strongest_term(text.words(query), stopword_list)


def _quoted(term: str) -> str:
    """An FTS5 string for one term, or "" when there is no term (the rung is not emitted)."""
    return fts_quote(term) if term else ""


def plan_ladder(
    query: str,
    aliases: Mapping[str, Sequence[str]] | None,
    stopword_list: str = DEFAULT_LIST,
) -> LadderPlan:
    """LADDER-7..11: compile the initial query and every loosened form of it.

    Every stage that filters stopwords uses the request's named list (DSL-22).
    """
    sw = stopword_list
    parsed = parse(query, aliases, sw)
    plain = sanitise(query, None, sw)
    strongest = query_strongest_term(query, sw)
    # LADDER-9: rung 1 adds nothing when its term is the whole folded query.
    first = "" if strongest == text.fold(query) else strongest
    return LadderPlan(
        initial_expression=compile_query(parsed),
        strongest_expression=_quoted(first),
        sanitised_expression=sanitise(query, aliases, sw).expression,
        refreshed_strongest_expression=_quoted(strongest),
        trigram_tokens=tuple(plain.tokens),
    )


@dataclass(frozen=True)
class Attempt:
    """LADDER-3: one row of the trace's `bm25.attempts`."""

    rung: str
    expression: str
    searched: bool
    hits: int
    skip: str | None
    error: dict[str, str] | None

    def to_json(self) -> dict[str, Any]:
        return {
            "rung": self.rung,
            "expression": self.expression,
            "searched": self.searched,
            "hits": self.hits,
            "skip": self.skip,
            "error": dict(self.error) if self.error is not None else None,
        }


@dataclass
class Bm25LegResult:
    """LADDER-12..15: what the BM25 leg hands to fusion and to the trace."""

    attempts: list[Attempt] = field(default_factory=list)
    hits: list[Candidate] = field(default_factory=list)
    used_retry: bool = False
    winning_rung: str | None = None
    error: dict[str, str] | None = None
    #: FANOUT-19: one `{expression, hits}` per first-pass query; None without the fanout.
    first_pass: list[dict[str, Any]] | None = None

    def trace_json(self) -> dict[str, Any]:
        """The `bm25` trace fields this module owns (spec/trace.md); `ran` is the pipeline's."""
        out: dict[str, Any] = {
            "attempts": [a.to_json() for a in self.attempts],
            "usedRetry": self.used_retry,
            "winningRung": self.winning_rung,
            "hits": len(self.hits),
            "error": dict(self.error) if self.error is not None else None,
        }
        if self.first_pass is not None:
            out["firstPass"] = [dict(row) for row in self.first_pass]
        return out


def _index_error(exc: IndexError_) -> dict[str, str]:
    return {"kind": IndexError_.kind, "message": str(exc)}


class _Walk:
    """Mutable state of one walk down the ladder (LADDER-2..6)."""

    def __init__(self, candidate_k: int) -> None:
        self.k = candidate_k
        self.rows: list[Attempt] = []
        self.hits: list[Candidate] = []
        self.error: dict[str, str] | None = None
        self.passes: list[dict[str, Any]] | None = None

    def first_pass(self, expressions: Sequence[str], search: Search) -> bool:
        """FANOUT-16..19: search every first-pass expression, merge the kept answers; the
        `initial` row shows the first expression and the merged count. True to stop."""
        self.passes = []
        if not expressions:
            self.skip(INITIAL, "", SKIP_EMPTY)  # LADDER-4, FANOUT-18
            return False
        lists: list[list[Candidate]] = []
        primary: list[Candidate] = []
        for i, expression in enumerate(expressions):
            try:
                found = list(search(expression, self.k))[: self.k]  # PIPE-4
            except IndexError_ as exc:  # LADDER-14, FANOUT-18: the first pass stops
                self.error = _index_error(exc)
                self.passes.append({"expression": expression, "hits": 0})
                self.rows.append(Attempt(INITIAL, expressions[0], True, 0, None, self.error))
                return True
            self.passes.append({"expression": expression, "hits": len(found)})
            if i == 0:
                primary = found
            if found and (i == 0 or fanout.kept(primary, expression, found)):
                lists.append(found)
        merged = fanout.merge(lists, self.k)
        self.rows.append(Attempt(INITIAL, expressions[0], True, len(merged), None, None))
        if merged:
            self.hits = merged
            return True
        return False

    def skip(self, rung: str, expression: str, reason: str) -> None:
        self.rows.append(Attempt(rung, expression, False, 0, reason, None))

    def run(self, rung: str, expression: str, call: Callable[[], list[Candidate]]) -> bool:
        """Call the backend once; True when the walk must stop (hits or an error)."""
        try:
            found = list(call())[: self.k]  # LADDER-13 / PIPE-4: keep at most candidateK
        except IndexError_ as exc:
            self.error = _index_error(exc)
            self.rows.append(Attempt(rung, expression, True, 0, None, self.error))
            return True
        self.rows.append(Attempt(rung, expression, True, len(found), None, None))
        if found:
            self.hits = found
            return True
        return False

    def fts(self, rung: str, expression: str, search: Search) -> bool:
        """LADDER-3, LADDER-6: a rung with nothing to search emits no row (`initial` emits
        an `empty` one); any other expression is searched, even one searched before."""
        if expression == "":
            if rung == INITIAL:
                self.skip(rung, expression, SKIP_EMPTY)
            return False
        return self.run(rung, expression, lambda: search(expression, self.k))


def run_bm25_leg(
    plan: LadderPlan,
    search: Search,
    trigram: TrigramSearch | None,
    candidate_k: int,
    run_ladder: bool,
    first_pass: Sequence[str] | None = None,
) -> Bm25LegResult:
    """LADDER-1..15: the initial search and, on zero hits, the rungs in canonical order.

    `search(expression, limit)` raises IndexError_ on a backend error; `trigram` is None when
    the index cannot list its chunks. `run_ladder` is false when skipRetryLadder is set.
    `first_pass` is the fanout's expressions (FANOUT-14) replacing the initial one, or None.
    """
    if isinstance(candidate_k, bool) or not isinstance(candidate_k, int) or candidate_k < 1:
        raise InvalidInput(f"candidateK must be an integer >= 1, got {candidate_k!r}")
    walk = _Walk(candidate_k)
    if first_pass is None:
        stopped = walk.fts(INITIAL, plan.initial_expression, search)
    else:
        stopped = walk.first_pass(first_pass, search)
    if not stopped and run_ladder:
        stopped = walk.fts(STRONGEST_TERM, plan.strongest_expression, search)
        if not stopped:
            walk.skip(FORCE_REFRESH, "", SKIP_NO_OP)
            stopped = walk.fts(REFRESHED_SANITISED, plan.sanitised_expression, search)
        if not stopped:
            stopped = walk.fts(REFRESHED_STRONGEST, plan.refreshed_strongest_expression, search)
        if not stopped:
            tokens = tuple(plan.trigram_tokens)
            expression = " ".join(tokens)
            if not tokens:
                pass  # LADDER-3: nothing to match, no row
            elif trigram is None:
                walk.skip(TRIGRAM_FUZZY, expression, SKIP_NO_CHUNKS)
            else:
                search_trigram = trigram
                walk.run(TRIGRAM_FUZZY, expression, lambda: search_trigram(tokens, candidate_k))
    winning = walk.rows[-1].rung if walk.hits else None
    return Bm25LegResult(
        attempts=walk.rows,
        hits=walk.hits,
        used_retry=len(walk.rows) > 1,
        winning_rung=winning,
        error=walk.error,
        first_pass=walk.passes,
    )
