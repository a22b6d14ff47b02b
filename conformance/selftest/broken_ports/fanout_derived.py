"""Broken ports of the BM25 fanout's switch, vocabulary, derived queries and merge
(spec/fanout.md FANOUT-1..12, FANOUT-17), registered on import."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from conformance.selftest.broken_ports.patching import (
    _mod,
    mutant,
    set_attr,
    swap,
)


def _fanout() -> Any:
    return _mod("reference.fanout")


@mutant(
    "fanout-flag-echoed-in-trace",
    "FANOUT-1",
    "the trace's request echoes bm25Fanout like the other request fields",
    seams=("reference.pipeline.search",),
)
def _fanout_flag_echoed() -> None:
    pipe = _mod("reference.pipeline")
    original = pipe.search

    def search(request: Any, backends: Any) -> Any:
        results, trace = original(request, backends)
        if isinstance(request, dict) and request.get("bm25Fanout") is not None:
            trace["request"]["bm25Fanout"] = request["bm25Fanout"]
        return results, trace

    swap(pipe, "search", search)


@mutant(
    "fanout-stops-at-first-hits",
    "FANOUT-2",
    "the first pass walks the plan like a ladder: it stops at the first query that finds hits",
    seams=("reference.ladder._Walk.first_pass",),
)
def _fanout_stops_early() -> None:
    ladder = _mod("reference.ladder")
    original = ladder._Walk.first_pass

    def first_pass(self: Any, expressions: Sequence[str], search: Any) -> bool:
        done = False

        def stopping(expression: str, limit: int) -> list[Any]:
            nonlocal done
            if done:
                return []
            found: list[Any] = list(search(expression, limit))
            done = bool(found)
            return found

        stopped: bool = original(self, expressions, stopping)
        searched = 0
        for i, row in enumerate(self.passes or []):
            searched = i + 1
            if row["hits"]:
                break
        self.passes = (self.passes or [])[:searched]
        return stopped

    set_attr(ladder._Walk, "first_pass", first_pass)


@mutant(
    "fanout-money-pattern-without-pay",
    "FANOUT-3",
    "the money event pattern was retyped without its last word, pay",
    seams=("reference.fanout.vocabulary",),
)
def _fanout_no_pay() -> None:
    f = _fanout()
    v = f.vocabulary()
    money = re.compile(v.money.pattern.replace("|pay)", ")"), re.ASCII)
    set_attr(f, "vocabulary", lambda: replace(v, money=money))


@mutant(
    "fanout-question-token-over-three",
    "FANOUT-5",
    "a question token needs more than 3 code points (3-letter words dropped)",
    seams=("reference.fanout.question_tokens",),
)
def _fanout_token_over_three() -> None:
    f = _fanout()
    original = f.question_tokens

    def question_tokens(query: str) -> list[str]:
        return [t for t in original(query) if len(t) > 3]

    swap(f, "question_tokens", question_tokens)


@mutant(
    "fanout-window-rightmost-tie",
    "FANOUT-6",
    "of two phrase windows with the same score the later one wins",
    seams=("reference.fanout._segment_phrase",),
)
def _fanout_window_rightmost() -> None:
    f = _fanout()

    def segment_phrase(segment: Sequence[str]) -> str:
        v = f.vocabulary()
        trimmed = f._trim(segment)
        if len(trimmed) < v.phrase_min:
            return ""
        if len(trimmed) <= v.phrase_max:
            return str(f._join(trimmed))
        for size in range(v.phrase_max, v.phrase_min - 1, -1):
            best, best_score = "", -1
            for start in range(len(trimmed) - size + 1):
                window = f._trim(trimmed[start : start + size])
                if len(window) < v.phrase_min:
                    continue
                if f._score(window) >= best_score:
                    best, best_score = f._join(window), f._score(window)
            if best:
                return str(best)
        return ""

    swap(f, "_segment_phrase", segment_phrase)


@mutant(
    "fanout-recommendation-without-back-end",
    "FANOUT-7",
    "the recommendation probes need specific, recommend and languages, not back-end",
    seams=("reference.fanout.vocabulary",),
)
def _fanout_no_back_end() -> None:
    f = _fanout()
    v = f.vocabulary()
    set_attr(f, "vocabulary", lambda: replace(v, back_end_hint=""))


@mutant(
    "fanout-money-head-last-token",
    "FANOUT-8",
    "a money focus's head is always the last token (no head bigram)",
    seams=("reference.fanout._money_focus",),
)
def _fanout_money_head_last() -> None:
    f = _fanout()
    original = f._money_focus
    v = f.vocabulary()

    def money_focus(phrase: str) -> str:
        saved = f.vocabulary
        set_attr(f, "vocabulary", lambda: replace(v, head_last=frozenset()))
        try:
            tokens = phrase.split(" ")
            if len(tokens) >= 3 and "-" in tokens[0] and tokens[-1] in v.head_last:
                return f"{tokens[0]} {tokens[-1]}"
            return str(original(phrase))
        finally:
            set_attr(f, "vocabulary", saved)

    swap(f, "_money_focus", money_focus)


@mutant(
    "fanout-three-focuses-in-order",
    "FANOUT-9",
    "with three focus tokens the focuses are tokens 1-2 then 2-3",
    seams=("reference.fanout._focuses",),
)
def _fanout_focus_order() -> None:
    f = _fanout()
    original = f._focuses

    def focuses(tokens: Sequence[str]) -> list[str]:
        if len(tokens) == 3:
            return [" ".join(tokens[0:2]), " ".join(tokens[1:3])]
        return list(original(tokens))

    swap(f, "_focuses", focuses)


@mutant(
    "fanout-inspiration-first-token",
    "FANOUT-10",
    "the inspiration probe takes the first remaining question token, not the last",
    seams=("reference.fanout.inspiration_source_probes",),
)
def _fanout_inspiration_first() -> None:
    f = _fanout()

    def inspiration_source_probes(query: str) -> list[str]:
        v = f.vocabulary()
        if not f._inspiration(query):
            return []
        tokens = f._without(f.question_tokens(query), v.inspiration_skip)
        return [tokens[0] + v.inspiration_suffix] if tokens else []

    swap(f, "inspiration_source_probes", inspiration_source_probes)


@mutant(
    "fanout-priority-keeps-query",
    "FANOUT-11",
    "a priority subquery equal to the lowered query is not skipped",
    seams=("reference.fanout.priority_subqueries",),
)
def _fanout_priority_keeps_query() -> None:
    f = _fanout()
    sources = (
        f.specific_recommendation_probes,
        f.money_focus_probes,
        f.action_date_context_probes,
        f.inspiration_source_probes,
        f.filtered_phrase_probes,
    )

    def priority_subqueries(query: str) -> list[str]:
        return list(f._chain(query, sources, set()))

    swap(f, "priority_subqueries", priority_subqueries)


@mutant(
    "fanout-derived-tokens-unsorted",
    "FANOUT-12",
    "the derived question tokens keep their text order instead of longest first",
    seams=("reference.fanout.sorted", "reference.fanout.derived_subqueries"),
)
def _fanout_tokens_unsorted() -> None:
    f = _fanout()
    original = f.derived_subqueries

    def derived_subqueries(query: str) -> list[str]:
        saved = f.sorted
        set_attr(f, "sorted", lambda items, key=None, reverse=False: list(items))
        try:
            return list(original(query))
        finally:
            set_attr(f, "sorted", saved)

    set_attr(f, "sorted", sorted)  # a module global shadows the builtin there
    swap(f, "derived_subqueries", derived_subqueries)


@mutant(
    "fanout-merge-concatenates",
    "FANOUT-17",
    "the kept answers are concatenated in plan order (first occurrence), not fused by RRF",
    seams=("reference.fanout.merge",),
)
def _fanout_merge_concat() -> None:
    f = _fanout()

    def merge(lists: Sequence[Sequence[Any]], candidate_k: int) -> list[Any]:
        out: list[Any] = []
        seen: set[str] = set()
        for items in lists:
            for c in items:
                if c.id not in seen:
                    seen.add(c.id)
                    out.append(c)
        return out[:candidate_k]

    set_attr(f, "merge", merge)
