"""Broken ports of the retry ladder (spec/ladder.md), registered on import."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from conformance.selftest.broken_ports.patching import (
    _mod,
    mutant,
    set_attr,
    swap,
)

# -- ladder and strongest term (LADDER) --------------------------------------------------------


@mutant(
    "ladder-force-refresh-row-dropped",
    "LADDER-5",
    "the no-op force-refresh rung emits no row",
    seams=("reference.ladder._Walk.skip",),
)
def _ladder_no_force_refresh() -> None:
    walk = _mod("reference.ladder")._Walk
    original = walk.skip

    def skip(self: Any, rung: str, expression: str, reason: str) -> None:
        if reason != "no_op":
            original(self, rung, expression, reason)

    set_attr(walk, "skip", skip)


@mutant(
    "ladder-vacuous-rungs-emit-rows",
    "LADDER-3",
    "rungs with nothing to search emit an `empty` row instead of no row (kit 2.x, D6)",
    seams=("reference.ladder._Walk.fts",),
)
def _ladder_vacuous_rows() -> None:
    lad = _mod("reference.ladder")
    original = lad._Walk.fts

    def fts(self: Any, rung: str, expression: str, search: Any) -> bool:
        if expression == "" and rung != lad.INITIAL:
            self.skip(rung, expression, lad.SKIP_EMPTY)
            return False
        return bool(original(self, rung, expression, search))

    set_attr(lad._Walk, "fts", fts)


@mutant(
    "ladder-error-read-as-zero-hits",
    "LADDER-14",
    "an index error counts as zero hits, so the ladder walks on",
    seams=("reference.ladder._Walk.run",),
)
def _ladder_error_zero() -> None:
    lad = _mod("reference.ladder")
    original = lad._Walk.run

    def run(self: Any, rung: str, expression: str, call: Callable[[], list[Any]]) -> bool:
        def swallowed() -> list[Any]:
            try:
                return call()
            except lad.IndexError_:
                return []

        return bool(original(self, rung, expression, swallowed))

    set_attr(lad._Walk, "run", run)


@mutant(
    "ladder-continues-after-hit",
    "LADDER-2",
    "the walk goes on after a rung with hits (keeping the first hits)",
    seams=("reference.ladder._Walk.run",),
)
def _ladder_continues() -> None:
    walk = _mod("reference.ladder")._Walk
    original = walk.run

    def run(self: Any, rung: str, expression: str, call: Callable[[], list[Any]]) -> bool:
        kept = self.hits
        stop = original(self, rung, expression, call)
        if kept:
            self.hits = kept
        return bool(stop and self.error is not None)

    set_attr(walk, "run", run)


@mutant(
    "ladder-duplicates-skipped",
    "LADDER-6",
    "a rung repeating an expression already searched is skipped as `duplicate` (kit 2.x)",
    seams=("reference.ladder._Walk.fts",),
)
def _ladder_duplicates() -> None:
    walk = _mod("reference.ladder")._Walk
    original = walk.fts

    def fts(self: Any, rung: str, expression: str, search: Any) -> bool:
        if expression and any(r.searched and r.expression == expression for r in self.rows):
            self.skip(rung, expression, "duplicate")
            return False
        return bool(original(self, rung, expression, search))

    set_attr(walk, "fts", fts)


@mutant(
    "ladder-trigram-ignores-candidate-k",
    "LADDER-13",
    "the trigram rung returns every similar chunk, not at most candidateK",
    seams=("reference.ladder._Walk.run", "reference.trigram.TrigramIndex.search"),
)
def _ladder_trigram_unbounded() -> None:
    lad = _mod("reference.ladder")
    tri = _mod("reference.trigram")
    run, search = lad._Walk.run, tri.TrigramIndex.search

    def walk_run(self: Any, rung: str, expression: str, call: Callable[[], list[Any]]) -> bool:
        if rung != lad.TRIGRAM_FUZZY:
            return bool(run(self, rung, expression, call))
        saved, self.k = self.k, sys.maxsize
        try:
            return bool(run(self, rung, expression, call))
        finally:
            self.k = saved

    def tri_search(self: Any, tokens: Sequence[str], limit: int) -> list[Any]:
        return list(search(self, tokens, limit if limit < 1 else sys.maxsize))

    set_attr(lad._Walk, "run", walk_run)
    set_attr(tri.TrigramIndex, "search", tri_search)


@mutant(
    "ladder-strongest-from-parse-tokens",
    "LADDER-9",
    "the strongest term reads the DSL's term and prefix tokens, not the sanitised words (kit 2.x)",
    seams=("reference.ladder.query_strongest_term",),
)
def _ladder_strongest_parse_tokens() -> None:
    lad = _mod("reference.ladder")

    def query_strongest_term(query: str, sw: str = "anchor") -> str:
        tokens = lad.parse(query, None, sw).tokens
        return str(lad.strongest_term([t.text for t in tokens if t.kind != "phrase"], sw))

    swap(lad, "query_strongest_term", query_strongest_term)


@mutant(
    "ladder-strongest-dsl-stopwords",
    "LADDER-8",
    "the strongest term ignores the DSL's stopword lists, not the ladder's own set (kit 2.x)",
    seams=("reference.strongest.is_ladder_stopword",),
)
def _ladder_strongest_dsl_stopwords() -> None:
    s = _mod("reference.strongest")
    swap(s, "is_ladder_stopword", s.is_stopword)


@mutant(
    "ladder-strongest-rung-equal-to-query-kept",
    "LADDER-9",
    "strongest_term is searched even when it is the whole folded query",
    seams=("reference.ladder.plan_ladder",),
)
def _ladder_strongest_equal_kept() -> None:
    lad = _mod("reference.ladder")
    original = lad.plan_ladder

    def plan_ladder(query: str, aliases: Any, sw: str = "anchor") -> Any:
        plan = original(query, aliases, sw)
        return replace(plan, strongest_expression=plan.refreshed_strongest_expression)

    swap(lad, "plan_ladder", plan_ladder)


@mutant(
    "ladder-ignores-skip-flag",
    "LADDER-1",
    "skipRetryLadder is ignored",
    seams=("reference.ladder.run_bm25_leg",),
)
def _ladder_ignores_flag() -> None:
    lad = _mod("reference.ladder")
    original = lad.run_bm25_leg
    swap(
        lad,
        "run_bm25_leg",
        lambda plan, search, trigram, k, run_ladder: original(plan, search, trigram, k, True),
    )


@mutant(
    "strongest-last-wins",
    "LADDER-8",
    "among equally long words the last wins (`>=`, reduce, max_by_key)",
    seams=("reference.strongest.strongest_term",),
)
def _strongest_last() -> None:
    s = _mod("reference.strongest")

    def strongest_term(words: Sequence[str], sw: str = "anchor") -> str:
        best, best_len = "", 0
        for word in words:
            if not s.is_ladder_stopword(word, sw) and s.length(word) >= best_len:
                best, best_len = word, s.length(word)
        return best

    swap(s, "strongest_term", strongest_term)


@mutant(
    "ladder-trigram-tokens-deduplicated",
    "LADDER-11",
    "the trigram rung's tokens are deduplicated (the anchor's query_tokens)",
    seams=("reference.ladder.plan_ladder",),
)
def _ladder_trigram_dedup() -> None:
    lad = _mod("reference.ladder")
    original = lad.plan_ladder

    def plan_ladder(query: str, aliases: Any, sw: str = "anchor") -> Any:
        plan = original(query, aliases, sw)
        return replace(plan, trigram_tokens=tuple(dict.fromkeys(plan.trigram_tokens)))

    swap(lad, "plan_ladder", plan_ladder)


@mutant(
    "ladder-strongest-prefix-keeps-star",
    "LADDER-9",
    "a strongest term taken from a prefix token is searched as a prefix (`\"t\"*`)",
    seams=("reference.ladder.plan_ladder",),
)
def _ladder_prefix_star() -> None:
    lad = _mod("reference.ladder")
    original = lad.plan_ladder

    def plan_ladder(query: str, aliases: Any, sw: str = "anchor") -> Any:
        plan = original(query, aliases, sw)
        tokens = lad.parse(query, None, sw).tokens
        term = lad.query_strongest_term(query, sw)
        first = next((t for t in tokens if t.text == term and t.kind != "phrase"), None)
        if term and first is not None and first.kind == "prefix":
            return replace(plan, strongest_expression=lad.fts_quote(term) + "*")
        return plan

    swap(lad, "plan_ladder", plan_ladder)


@mutant(
    "ladder-no-chunks-when-none-listed",
    "LADDER-12",
    "an index listing zero chunks is treated as one that cannot list them (skip no_chunks)",
    seams=("reference.pipeline.Backends.trigram_search",),
)
def _ladder_empty_chunks() -> None:
    pipe = _mod("reference.pipeline")
    original = pipe.Backends.trigram_search

    def trigram_search(self: Any) -> Any:
        if self.index is not None and self.index.chunks() is not None and not self.index.chunks():
            return None
        return original(self)

    set_attr(pipe.Backends, "trigram_search", trigram_search)


@mutant(
    "ladder-used-retry-only-if-searched",
    "LADDER-15",
    "usedRetry is true only when a later rung actually searched",
    seams=("reference.ladder.run_bm25_leg",),
)
def _ladder_used_retry() -> None:
    lad = _mod("reference.ladder")
    original = lad.run_bm25_leg

    def run_bm25_leg(*args: Any) -> Any:
        leg = original(*args)
        leg.used_retry = any(a.searched for a in leg.attempts[1:])
        return leg

    swap(lad, "run_bm25_leg", run_bm25_leg)


@mutant(
    "ladder-force-refresh-skip-empty",
    "LADDER-4",
    "the 1.0.0 skip order read literally: force-refresh's \"\" expression makes it `empty`",
    seams=("reference.ladder._Walk.skip",),
)
def _ladder_force_refresh_empty() -> None:
    ladder = _mod("reference.ladder")
    original = ladder._Walk.skip

    def skip(self: Any, rung: str, expression: str, reason: str) -> None:
        if rung == ladder.FORCE_REFRESH and expression == "":
            reason = ladder.SKIP_EMPTY
        original(self, rung, expression, reason)

    set_attr(ladder._Walk, "skip", skip)


def _replan(**fields: Any) -> None:
    """Patch plan_ladder so that some rung expressions are built without the alias table."""
    ladder = _mod("reference.ladder")
    original = ladder.plan_ladder

    def plan_ladder(query: str, aliases: Any, stopword_list: str = "anchor") -> Any:
        plan = original(query, aliases, stopword_list)
        bare = original(query, None, stopword_list)
        return replace(plan, **{name: getattr(bare, name) for name in fields})

    swap(ladder, "plan_ladder", plan_ladder)


@mutant(
    "ladder-initial-without-aliases",
    "LADDER-7",
    "the initial rung compiles the query without the alias table (aliases only loosen later rungs)",
    seams=("reference.ladder.plan_ladder",),
)
def _ladder_initial_unaliased() -> None:
    _replan(initial_expression=True)


@mutant(
    "ladder-sanitised-without-aliases",
    "LADDER-10",
    "refreshed_sanitised searches the sanitised words without alias expansion, like the "
    "trigram rung's tokens",
    seams=("reference.ladder.plan_ladder",),
)
def _ladder_sanitised_unaliased() -> None:
    _replan(sanitised_expression=True)
