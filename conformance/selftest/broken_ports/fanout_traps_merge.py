"""Broken ports of the fanout's subqueries, plan, quoting, gate and merge (spec/fanout.md
FANOUT-12..17) that misread one bound or constant of a rule (issue 37). Registered on import."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from conformance.selftest.broken_ports.patching import _mod, mutant, set_attr, swap


def _fanout() -> Any:
    return _mod("reference.fanout")


# -- FANOUT-12..17 ---------------------------------------------------------------------------


@mutant(
    "fanout-derived-ties-reversed",
    "FANOUT-12",
    "longest-first sorts ascending and reverses, so equal lengths come in reverse order",
    seams=("reference.fanout.sorted", "reference.fanout.derived_subqueries"),
)
def _fanout_ties_reversed() -> None:
    f = _fanout()
    original = f.derived_subqueries

    def reversed_sort(items: Any, key: Any = None, reverse: bool = False) -> list[Any]:
        out = sorted(items, key=key)
        return out[::-1] if reverse else out

    def derived(query: str) -> list[str]:
        set_attr(f, "sorted", reversed_sort)
        try:
            return list(original(query))
        finally:
            set_attr(f, "sorted", sorted)

    set_attr(f, "sorted", sorted)
    swap(f, "derived_subqueries", derived)


@mutant(
    "fanout-derived-tokens-of-query",
    "FANOUT-12",
    "the longest-first tokens are the query's question tokens, not the filtered phrases'",
    seams=("reference.fanout.derived_subqueries",),
)
def _fanout_tokens_of_query() -> None:
    f = _fanout()
    original = f.derived_subqueries

    def derived(query: str) -> list[str]:
        saved = f.question_tokens
        joined = " ".join(f.filtered_phrase_probes(query))

        def question_tokens(q: str) -> list[str]:
            return list(saved(query if joined and q == joined else q))

        set_attr(f, "question_tokens", question_tokens)
        try:
            return list(original(query))
        finally:
            set_attr(f, "question_tokens", saved)

    swap(f, "derived_subqueries", derived)


@mutant(
    "fanout-priority-and-token",
    "FANOUT-13",
    "the priority test looks for the token and (punctuated and counts) instead of ' and '",
    seams=("reference.fanout.priority_only",),
)
def _fanout_and_token() -> None:
    f = _fanout()

    def priority_only(query: str) -> bool:
        if f.action_date_context_probes(query):
            return True
        return len(f.filtered_phrase_probes(query)) >= 2 and "and" in f.probe_tokens(query)

    swap(f, "priority_only", priority_only)


@mutant(
    "fanout-quote-case-insensitive",
    "FANOUT-14",
    "a plan text is quoted when it equals a phrase probe ignoring case",
    seams=("reference.fanout.plan_expressions",),
)
def _fanout_quote_ci() -> None:
    f = _fanout()
    original = f.plan_expressions

    def plan_expressions(raw: str, base: str, aliases: Any, stopword_list: str = "anchor") -> Any:
        saved_texts = f.plan_texts
        probes = set(f.phrase_probes(raw))

        def texts(r: str, b: str) -> list[str]:
            return [t.lower() if t.lower() in probes else t for t in saved_texts(r, b)]

        set_attr(f, "plan_texts", texts)
        try:
            return original(raw, base, aliases, stopword_list)
        finally:
            set_attr(f, "plan_texts", saved_texts)

    swap(f, "plan_expressions", plan_expressions)


@mutant(
    "fanout-gate-counts-terms",
    "FANOUT-16",
    "the gate counts the expression's terms (a quoted phrase is one), not its space-split pieces",
    seams=("reference.fanout.bypasses_gate",),
)
def _fanout_gate_terms() -> None:
    f = _fanout()

    def bypasses(expression: str) -> bool:
        v = f.vocabulary()
        if f.has_digit(expression):
            return True
        terms = [t for t in re.split(r" (?:AND|OR|NOT) ", expression) if t]
        return bool(v.phrase_min <= len(terms) <= v.phrase_max)

    swap(f, "bypasses_gate", bypasses)


@mutant(
    "fanout-overlap-distinct",
    "FANOUT-16",
    "the overlap counts distinct shared ids (a set intersection), not shared hits",
    seams=("reference.fanout.overlap",),
)
def _fanout_overlap_distinct() -> None:
    f = _fanout()

    def overlap(primary: Sequence[Any], other: Sequence[Any]) -> int:
        w = f.vocabulary().overlap_window
        return len({c.id for c in primary[:w]} & {c.id for c in other[:w]})

    swap(f, "overlap", overlap)


@mutant(
    "fanout-overlap-whole-lists",
    "FANOUT-16",
    "the overlap compares the whole lists, not their first overlapWindow hits",
    seams=("reference.fanout.overlap",),
)
def _fanout_overlap_whole() -> None:
    f = _fanout()
    v = f.vocabulary()
    original = f.overlap

    def overlap(primary: Sequence[Any], other: Sequence[Any]) -> int:
        saved = f.vocabulary
        set_attr(f, "vocabulary", lambda: replace(v, overlap_window=1 << 30))
        try:
            return int(original(primary, other))
        finally:
            set_attr(f, "vocabulary", saved)

    swap(f, "overlap", overlap)


@mutant(
    "fanout-overlap-strict",
    "FANOUT-16",
    "a later answer joins only with more than overlapMin shared hits (> 2, not >= 2)",
    seams=("reference.fanout.kept",),
)
def _fanout_overlap_strict() -> None:
    f = _fanout()
    v = f.vocabulary()
    original = f.kept

    def kept(primary: Sequence[Any], expression: str, hits: Sequence[Any]) -> bool:
        saved = f.vocabulary
        set_attr(f, "vocabulary", lambda: replace(v, overlap_min=v.overlap_min + 1))
        try:
            return bool(original(primary, expression, hits))
        finally:
            set_attr(f, "vocabulary", saved)

    swap(f, "kept", kept)


@mutant(
    "fanout-merge-request-k",
    "FANOUT-17",
    "the merge fuses with the request's rrfK instead of the anchor's constant 60",
    seams=("reference.pipeline.search",),
)
def _fanout_merge_request_k() -> None:
    f = _fanout()
    pipe = _mod("reference.pipeline")
    original = pipe.search

    def search(request: Any, backends: Any) -> Any:
        k = request.get("rrfK") if isinstance(request, dict) else None
        set_attr(f, "MERGE_K", k if isinstance(k, int) and k > 0 else 60)
        return original(request, backends)

    swap(pipe, "search", search)


@mutant(
    "fanout-merge-primary-weighted",
    "FANOUT-17",
    "the merge gives the primary list weight 2 (the raw query counted twice)",
    seams=("reference.fanout.merge",),
)
def _fanout_merge_primary_weight() -> None:
    f = _fanout()

    def merge(lists: Sequence[Sequence[Any]], candidate_k: int) -> list[Any]:
        from reference.rrf import RankedList, fuse

        if not lists:
            return []
        if len(lists) == 1:
            return list(lists[0])[:candidate_k]
        ranked = [
            RankedList("bm25", 2.0 if i == 0 else 1.0, tuple(items))
            for i, items in enumerate(lists)
        ]
        return [x.candidate for x in fuse(ranked, f.MERGE_K)][:candidate_k]

    swap(f, "merge", merge)



@mutant(
    "fanout-merge-always-fused",
    "FANOUT-17",
    "a single joined list is fused too (RRF of one list), so its repeated ids collapse",
    seams=("reference.fanout.merge",),
)
def _fanout_merge_always_fused() -> None:
    f = _fanout()

    def merge(lists: Sequence[Sequence[Any]], candidate_k: int) -> list[Any]:
        from reference.rrf import RankedList, fuse

        if not lists:
            return []
        ranked = [RankedList("bm25", 1.0, tuple(items)) for items in lists]
        return [x.candidate for x in fuse(ranked, f.MERGE_K)][:candidate_k]

    swap(f, "merge", merge)


@mutant(
    "fanout-gate-pieces-below-four",
    "FANOUT-16",
    "the gate's bypass takes 2 or 3 pieces (< phraseMaxTokens instead of <=)",
    seams=("reference.fanout.bypasses_gate",),
)
def _fanout_gate_below_four() -> None:
    f = _fanout()
    original = f.bypasses_gate
    v = f.vocabulary()

    def bypasses(expression: str) -> bool:
        saved = f.vocabulary
        set_attr(f, "vocabulary", lambda: replace(v, phrase_max=v.phrase_max - 1))
        try:
            return bool(original(expression))
        finally:
            set_attr(f, "vocabulary", saved)

    swap(f, "bypasses_gate", bypasses)


@mutant(
    "fanout-gate-no-digit-bypass",
    "FANOUT-16",
    "an expression with a digit meets the gate like any other",
    seams=("reference.fanout.bypasses_gate",),
)
def _fanout_gate_no_digit() -> None:
    f = _fanout()

    def bypasses(expression: str) -> bool:
        v = f.vocabulary()
        pieces = [p for p in expression.split(" ") if p and p not in ("AND", "OR", "NOT")]
        return bool(v.phrase_min <= len(pieces) <= v.phrase_max)

    swap(f, "bypasses_gate", bypasses)


@mutant(
    "fanout-inspiration-phrases-kept",
    "FANOUT-12",
    "for an inspiration text, a phrase of inspiration skip words only is still derived",
    seams=("reference.fanout.derived_subqueries",),
)
def _fanout_inspiration_phrases_kept() -> None:
    f = _fanout()
    original = f.derived_subqueries
    v = f.vocabulary()

    def derived(query: str) -> list[str]:
        if not f._inspiration(query):
            return list(original(query))
        saved = f.vocabulary
        set_attr(f, "vocabulary", lambda: replace(v, inspiration_skip=frozenset()))
        try:
            return list(original(query))
        finally:
            set_attr(f, "vocabulary", saved)

    swap(f, "derived_subqueries", derived)


@mutant(
    "fanout-priority-inspiration-before-action",
    "FANOUT-11",
    "the priority subqueries take the inspiration probe before the action-date context probes",
    seams=("reference.fanout.priority_subqueries",),
)
def _fanout_priority_order() -> None:
    f = _fanout()
    sources = (
        f.specific_recommendation_probes,
        f.money_focus_probes,
        f.inspiration_source_probes,
        f.action_date_context_probes,
        f.filtered_phrase_probes,
    )

    def priority(query: str) -> list[str]:
        return list(f._chain(query, sources, {f.lowered(query)}))

    swap(f, "priority_subqueries", priority)


@mutant(
    "fanout-raw-text-trimmed-only",
    "FANOUT-13",
    "the raw query enters the plan trimmed, not normalised (inner runs, no-break spaces kept)",
    seams=("reference.fanout.plan_texts",),
)
def _fanout_raw_trimmed_only() -> None:
    f = _fanout()
    original = f.plan_texts

    def plan_texts(raw: str, base: str) -> list[str]:
        texts: list[str] = original(raw, base)
        normal = f.text.normalise(raw)
        return [raw.strip() if t == normal else t for t in texts]

    swap(f, "plan_texts", plan_texts)
