"""Broken ports of the fanout's derivation and merge (spec/fanout.md FANOUT-4..17) that write
the obvious code of a porter's runtime (issue 37): Unicode `\\d` and `\\b`, casefolding or
simple lowercasing, the runtime's white-space set, word instead of substring tests, and
off-by-one readings of the rules' bounds. Registered on import."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from conformance.selftest.broken_ports.patching import _mod, mutant, set_attr, swap

#: JavaScript's `\s` (and trim): WhiteSpace and LineTerminator, U+FEFF in, U+0085 out.
JS_SPACE = (
    "\t\n\x0b\x0c\r \xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009"
    "\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
)


def _fanout() -> Any:
    return _mod("reference.fanout")


# -- FANOUT-4: text primitives ----------------------------------------------------------------


@mutant(
    "fanout-unicode-digits",
    "FANOUT-4",
    "a digit is any Unicode decimal digit (Python's str.isdigit, Rust's is_numeric)",
    seams=("reference.fanout.has_digit",),
)
def _fanout_unicode_digits() -> None:
    f = _fanout()
    set_attr(f, "has_digit", lambda s: any(ch.isdigit() for ch in s))


@mutant(
    "fanout-casefold",
    "FANOUT-4",
    "the lowered form is casefolded (Python's str.casefold)",
    seams=("reference.fanout.lowered",),
)
def _fanout_casefold() -> None:
    f = _fanout()
    text = f.text
    set_attr(f, "lowered", lambda query: text.normalise(query).casefold())


@mutant(
    "fanout-simple-lowercase",
    "FANOUT-4",
    "lowercasing maps each character alone (Go's strings.ToLower: no final sigma, İ is i)",
    seams=("reference.fanout.lowered",),
)
def _fanout_simple_lowercase() -> None:
    f = _fanout()
    text = f.text

    def simple(s: str) -> str:
        return "".join(ch.lower()[0] for ch in s)

    set_attr(f, "lowered", lambda query: simple(text.normalise(query)))


@mutant(
    "fanout-unicode-word-boundary",
    "FANOUT-4",
    "the data file's patterns are compiled with Unicode \\b and \\w (Python's default, Rust, Java)",
    seams=("reference.fanout.vocabulary",),
)
def _fanout_unicode_boundary() -> None:
    f = _fanout()
    v = f.vocabulary()

    def uni(p: re.Pattern[str]) -> re.Pattern[str]:
        return re.compile(p.pattern)

    set_attr(
        f,
        "vocabulary",
        lambda: replace(
            v,
            action_rules=tuple((uni(p), probe) for p, probe in v.action_rules),
            enumeration=uni(v.enumeration),
            money=uni(v.money),
            specific=uni(v.specific),
            recommend=tuple(uni(p) for p in v.recommend),
            language=uni(v.language),
        ),
    )


@mutant(
    "fanout-js-split-raw",
    "FANOUT-4",
    "the plan splits the raw query with JavaScript's /\\s+/ instead of normalising it first",
    seams=(
        "reference.fanout.lowered",
        "reference.fanout.probe_tokens",
        "reference.fanout.plan_texts",
    ),
)
def _fanout_js_split_raw() -> None:
    f = _fanout()
    text = f.text

    def split(s: str) -> list[str]:
        return [p for p in re.split("[" + re.escape(JS_SPACE) + "]+", s) if p]

    def lowered(query: str) -> str:
        return str(text.lowercase(query.strip(JS_SPACE)))

    def probe_tokens(query: str) -> list[str]:
        edges = f.vocabulary().edges
        return [t for piece in split(lowered(query)) if (t := piece.strip(edges))]

    def plan_texts(raw: str, base: str) -> list[str]:
        out: list[str] = []

        def push(value: str) -> None:
            trimmed = text.normalise(value)
            if trimmed and trimmed not in out:
                out.append(trimmed)

        source = raw if text.normalise(raw) else base  # the raw string, not its normal form
        priority = f.priority_subqueries(source)
        if f.priority_only(source) and len(priority) >= 2:
            items = [*priority, *f.filtered_phrase_probes(source)]
        else:
            items = [*priority, source, base, *f.derived_subqueries(source)]
        for item in items:
            push(item)
        return out[: f.vocabulary().max_queries]

    set_attr(f, "lowered", lowered)
    swap(f, "probe_tokens", probe_tokens)
    swap(f, "plan_texts", plan_texts)


@mutant(
    "fanout-edges-non-word",
    "FANOUT-4",
    "a probe token's edges are stripped of every non-word character (/^\\W+|\\W+$/g)",
    seams=("reference.fanout.probe_tokens",),
)
def _fanout_edges_non_word() -> None:
    f = _fanout()

    def probe_tokens(query: str) -> list[str]:
        pieces = f.text.split_whitespace(f.lowered(query))
        out = [re.sub(r"^\W+|\W+$", "", p, flags=re.ASCII) for p in pieces]
        return [t for t in out if t]

    swap(f, "probe_tokens", probe_tokens)


@mutant(
    "fanout-edges-one-character",
    "FANOUT-4",
    "a probe token loses one edge character at each end, not the whole run",
    seams=("reference.fanout.probe_tokens",),
)
def _fanout_edges_one() -> None:
    f = _fanout()

    def probe_tokens(query: str) -> list[str]:
        edges = f.vocabulary().edges
        out = []
        for p in f.text.split_whitespace(f.lowered(query)):
            if p and p[0] in edges:
                p = p[1:]
            if p and p[-1] in edges:
                p = p[:-1]
            if p:
                out.append(p)
        return out

    swap(f, "probe_tokens", probe_tokens)


@mutant(
    "fanout-utf8-lengths",
    "FANOUT-4",
    "text lengths count UTF-8 bytes (Go's len)",
    seams=("reference.fanout.len",),
)
def _fanout_utf8() -> None:
    import builtins

    def utf8_len(value: Any) -> int:
        if isinstance(value, str):
            return builtins.len(value.encode("utf-8"))
        return builtins.len(value)

    set_attr(_fanout(), "len", utf8_len)


# -- FANOUT-5, FANOUT-6 ----------------------------------------------------------------------


@mutant(
    "fanout-question-tokens-repeated",
    "FANOUT-5",
    "question tokens keep repeated words (no first-occurrence dedupe)",
    seams=("reference.fanout.question_tokens",),
)
def _fanout_tokens_repeated() -> None:
    f = _fanout()

    def question_tokens(query: str) -> list[str]:
        stop = f.vocabulary().question_stop
        return [
            t
            for t in f.probe_tokens(query)
            if len(t) >= 3 and not f.has_digit(t) and t not in stop
        ]

    swap(f, "question_tokens", question_tokens)


@mutant(
    "fanout-question-stop-is-boundary",
    "FANOUT-5",
    "question tokens drop the phrase boundary words instead of the question stopwords",
    seams=("reference.fanout.vocabulary",),
)
def _fanout_stop_boundary() -> None:
    f = _fanout()
    v = f.vocabulary()
    set_attr(f, "vocabulary", lambda: replace(v, question_stop=v.boundary))


@mutant(
    "fanout-collect-stops-at-break",
    "FANOUT-6",
    "the walk from a connector stops at the first breaking token even before collecting one",
    seams=("reference.fanout._collectors",),
)
def _fanout_collect_stops() -> None:
    f = _fanout()

    def collectors(tokens: Any) -> Any:
        most = f.vocabulary().phrase_max

        def walk(indices: Any) -> list[str]:
            out: list[str] = []
            for j in indices:
                if f._breaks(tokens[j]) or len(out) >= most:
                    break
                out.append(tokens[j])
            return out

        def before(i: int) -> list[str]:
            return list(reversed(walk(range(i - 1, -1, -1))))

        def after(i: int) -> list[str]:
            return walk(range(i + 1, len(tokens)))

        return before, after

    swap(f, "_collectors", collectors)


@mutant(
    "fanout-two-code-points-break",
    "FANOUT-6",
    "a token of 2 code points breaks a phrase too (<= 2 instead of < 2)",
    seams=("reference.fanout._breaks",),
)
def _fanout_two_break() -> None:
    f = _fanout()
    original = f._breaks
    swap(f, "_breaks", lambda token: original(token) or len(token) == 2)


@mutant(
    "fanout-connector-right-first",
    "FANOUT-6",
    "around a connector the right-hand phrase is taken before the left-hand one",
    seams=("reference.fanout.phrase_probes",),
)
def _fanout_right_first() -> None:
    f = _fanout()

    def phrase_probes(query: str) -> list[str]:
        v = f.vocabulary()
        tokens = f.probe_tokens(query)
        if len(tokens) < v.phrase_min:
            return []
        out: list[str] = []

        def add(phrase: str) -> bool:
            if phrase and phrase not in out:
                out.append(phrase)
            return bool(len(out) >= v.max_derived)

        before, after = f._collectors(tokens)
        for i, token in enumerate(tokens):
            if token not in v.connectors:
                continue
            if add(f._join(after(i))):
                return out
            if add(f._join(before(i))):
                return out
        for phrase in f._segment_phrases(tokens):
            if add(phrase):
                return out
        return out

    swap(f, "phrase_probes", phrase_probes)


@mutant(
    "fanout-low-signal-any",
    "FANOUT-6",
    "a phrase with any low-signal word is filtered out (not only one with no other token)",
    seams=("reference.fanout.filtered_phrase_probes",),
)
def _fanout_low_signal_any() -> None:
    f = _fanout()

    def filtered(query: str) -> list[str]:
        low = f.vocabulary().low_signal
        return [
            p
            for p in f.phrase_probes(query)
            if f.question_tokens(p) and not set(f.question_tokens(p)) & low
        ]

    swap(f, "filtered_phrase_probes", filtered)


# -- FANOUT-7..10 ----------------------------------------------------------------------------


@mutant(
    "fanout-back-end-token",
    "FANOUT-7",
    "back-end must be a probe token, not a substring of the lowered text",
    seams=("reference.fanout.specific_recommendation_probes",),
)
def _fanout_back_end_token() -> None:
    f = _fanout()
    original = f.specific_recommendation_probes

    def probes(query: str) -> list[str]:
        if f.vocabulary().back_end_hint not in f.probe_tokens(query):
            return []
        return list(original(query))

    swap(f, "specific_recommendation_probes", probes)


@mutant(
    "fanout-recommendation-without-specific",
    "FANOUT-7",
    "the fixed probes need a recommendation, back-end and languages, not specific or exact",
    seams=("reference.fanout.vocabulary",),
)
def _fanout_no_specific() -> None:
    f = _fanout()
    v = f.vocabulary()
    set_attr(f, "vocabulary", lambda: replace(v, specific=re.compile("")))


@mutant(
    "fanout-recommend-first-pattern-only",
    "FANOUT-7",
    "only the first recommendation pattern (recommend) is read; remind me is dropped",
    seams=("reference.fanout.vocabulary",),
)
def _fanout_recommend_first() -> None:
    f = _fanout()
    v = f.vocabulary()
    set_attr(f, "vocabulary", lambda: replace(v, recommend=v.recommend[:1]))


@mutant(
    "fanout-money-unfiltered-phrases",
    "FANOUT-8",
    "money focuses come from every phrase probe, low-signal phrases included",
    seams=("reference.fanout.money_focus_probes",),
)
def _fanout_money_unfiltered() -> None:
    f = _fanout()

    def money(query: str) -> list[str]:
        v = f.vocabulary()
        low = f.lowered(query)
        if not v.enumeration.search(low) or not v.money.search(low):
            return []
        return list(f._first_distinct((f._money_focus(p) for p in f.phrase_probes(query)), set()))

    swap(f, "money_focus_probes", money)


@mutant(
    "fanout-money-cost-any-length",
    "FANOUT-8",
    "the cost suffix is added whenever the head differs from the phrase, whatever its length",
    seams=("reference.fanout._money_focus",),
)
def _fanout_money_any_length() -> None:
    f = _fanout()

    def money_focus(phrase: str) -> str:
        v = f.vocabulary()
        tokens = phrase.split(" ")
        if len(tokens) >= 3 and "-" in tokens[0] and tokens[-1] in v.head_last:
            return f"{tokens[0]} {tokens[-1]}"
        bigram = len(tokens) >= 2 and tokens[-1] in v.head_last
        head = " ".join(tokens[-2:]) if bigram else tokens[-1]
        return head + v.money_suffix if head != phrase else phrase

    swap(f, "_money_focus", money_focus)


@mutant(
    "fanout-when-word",
    "FANOUT-9",
    "the action-date probes need the word when (a probe token), not the substring",
    seams=("reference.fanout.action_date_probes",),
)
def _fanout_when_word() -> None:
    f = _fanout()
    original = f.action_date_probes

    def probes(query: str) -> list[str]:
        return list(original(query)) if "when" in f.probe_tokens(query) else []

    swap(f, "action_date_probes", probes)


@mutant(
    "fanout-focus-skip-ignored",
    "FANOUT-9",
    "the focuses are built from all question tokens, the action words left in",
    seams=("reference.fanout.action_date_context_probes",),
)
def _fanout_focus_skip() -> None:
    f = _fanout()
    v = f.vocabulary()
    original = f.action_date_context_probes

    def context(query: str) -> list[str]:
        saved = f.vocabulary
        set_attr(f, "vocabulary", lambda: replace(v, action_skip=frozenset()))
        try:
            return list(original(query))
        finally:
            set_attr(f, "vocabulary", saved)

    swap(f, "action_date_context_probes", context)


@mutant(
    "fanout-four-focuses-first-two-first",
    "FANOUT-9",
    "with four or more focus tokens the first two come before the last two",
    seams=("reference.fanout._focuses",),
)
def _fanout_four_focuses() -> None:
    f = _fanout()
    original = f._focuses

    def focuses(tokens: Sequence[str]) -> list[str]:
        out = list(original(tokens))
        return out[::-1] if len(tokens) > 3 else out

    swap(f, "_focuses", focuses)


@mutant(
    "fanout-inspiration-hint-word",
    "FANOUT-10",
    "an inspiration hint must be a probe token, not a substring (inspirations, unstuck miss)",
    seams=("reference.fanout._inspiration",),
)
def _fanout_inspiration_word() -> None:
    f = _fanout()

    def inspiration(query: str) -> bool:
        tokens = f.probe_tokens(query)
        return any(hint in tokens for hint in f.vocabulary().inspiration_hints)

    swap(f, "_inspiration", inspiration)


@mutant(
    "fanout-inspiration-skip-ignored",
    "FANOUT-10",
    "the inspiration probe takes the last question token, skip words included",
    seams=("reference.fanout.inspiration_source_probes",),
)
def _fanout_inspiration_skip() -> None:
    f = _fanout()

    def probes(query: str) -> list[str]:
        v = f.vocabulary()
        if not f._inspiration(query):
            return []
        tokens = f.question_tokens(query)
        return [tokens[-1] + v.inspiration_suffix] if tokens else []

    swap(f, "inspiration_source_probes", probes)
