"""The BM25 leg's first pass with the anchor's fanout (spec/fanout.md, FANOUT-*).

Pure functions: `plan_texts` derives the first-pass query texts from the query (FANOUT-4..13),
`plan_expressions` compiles, dedupes and truncates them (FANOUT-14), `merge` keeps and fuses
the answers (FANOUT-16..18). The vocabulary is the anchor's, read from
spec/data/fanout-anchor.json (FANOUT-3).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from reference import data, text
from reference.query import compile_query, parse
from reference.query.stopwords import DEFAULT_LIST
from reference.types import Candidate

DATA_FILE = "fanout-anchor.json"
#: FANOUT-17: the RRF constant of the merge (the anchor's RRF_DEFAULT_K, not the request's).
MERGE_K = 60
_DIGITS = frozenset("0123456789")
_OPERATORS = frozenset({"AND", "OR", "NOT"})


@dataclass(frozen=True)
class Vocabulary:
    """FANOUT-3: the anchor's constants, word sets and patterns."""

    max_queries: int
    max_derived: int
    overlap_window: int
    overlap_min: int
    phrase_min: int
    phrase_max: int
    edges: str
    question_stop: frozenset[str]
    connectors: frozenset[str]
    boundary: frozenset[str]
    trim: frozenset[str]
    action_rules: tuple[tuple[re.Pattern[str], str], ...]
    action_skip: frozenset[str]
    inspiration_hints: tuple[str, ...]
    inspiration_skip: frozenset[str]
    inspiration_suffix: str
    low_signal: frozenset[str]
    head_last: frozenset[str]
    money_suffix: str
    enumeration: re.Pattern[str]
    money: re.Pattern[str]
    specific: re.Pattern[str]
    recommend: tuple[re.Pattern[str], ...]
    language: re.Pattern[str]
    back_end_hint: str
    back_end_probes: tuple[str, ...]


def _pattern(source: Any) -> re.Pattern[str]:
    """FANOUT-3: a pattern is matched on lowercased text with ASCII `\\b`, no flags."""
    if not isinstance(source, str):
        raise data.SpecDataError(f"{DATA_FILE}: a pattern must be a string")
    return re.compile(source, re.ASCII)


@cache
def vocabulary() -> Vocabulary:
    """FANOUT-3: load spec/data/fanout-anchor.json; a missing file fails loudly."""
    raw = data.load_json(DATA_FILE)

    def words(key: str) -> frozenset[str]:
        return frozenset(raw[key])

    return Vocabulary(
        max_queries=raw["maxQueries"],
        max_derived=raw["maxDerived"],
        overlap_window=raw["overlapWindow"],
        overlap_min=raw["overlapMin"],
        phrase_min=raw["phraseMinTokens"],
        phrase_max=raw["phraseMaxTokens"],
        edges=raw["edgeCharacters"],
        question_stop=words("questionStopWords"),
        connectors=words("phraseConnectors"),
        boundary=words("phraseBoundaryWords"),
        trim=words("phraseTrimWords"),
        action_rules=tuple((_pattern(r["pattern"]), r["probe"]) for r in raw["actionDateRules"]),
        action_skip=words("actionDateFocusSkipWords"),
        inspiration_hints=tuple(raw["inspirationHints"]),
        inspiration_skip=words("inspirationFocusSkipWords"),
        inspiration_suffix=raw["inspirationSuffix"],
        low_signal=words("lowSignalPhraseWords"),
        head_last=words("headBigramLastTokens"),
        money_suffix=raw["moneyHeadSuffix"],
        enumeration=_pattern(raw["enumerationOrTotalPattern"]),
        money=_pattern(raw["moneyEventPattern"]),
        specific=_pattern(raw["specificPattern"]),
        recommend=tuple(_pattern(p) for p in raw["recommendPatterns"]),
        language=_pattern(raw["languagePattern"]),
        back_end_hint=raw["backEndHint"],
        back_end_probes=tuple(raw["backEndProbes"]),
    )


# -- tokens (FANOUT-4, FANOUT-5) ----------------------------------------------------------


def lowered(query: str) -> str:
    """FANOUT-4: the normalised query, lowercased (TEXT-4, TEXT-5)."""
    return text.lowercase(text.normalise(query))


def has_digit(s: str) -> bool:
    """FANOUT-4: an ASCII digit 0-9 (the anchor's `\\d` without the `u` flag)."""
    return any(ch in _DIGITS for ch in s)


def probe_tokens(query: str) -> list[str]:
    """FANOUT-4: lowercased white-space pieces without their edge characters, non-empty."""
    edges = vocabulary().edges
    return [t for piece in text.split_whitespace(lowered(query)) if (t := piece.strip(edges))]


def question_tokens(query: str) -> list[str]:
    """FANOUT-5: probe tokens of 3+ code points, no digit, no question stopword, first only."""
    stop = vocabulary().question_stop
    out: list[str] = []
    for token in probe_tokens(query):
        if len(token) < 3 or has_digit(token) or token in stop or token in out:
            continue
        out.append(token)
    return out


def _without(tokens: Iterable[str], skip: frozenset[str]) -> list[str]:
    return [t for t in tokens if t not in skip]


# -- phrase probes (FANOUT-6) -------------------------------------------------------------


def _breaks(token: str) -> bool:
    """FANOUT-6: a boundary word, a token under 2 code points, or one with a digit."""
    return token in vocabulary().boundary or len(token) < 2 or has_digit(token)


def _join(tokens: Sequence[str]) -> str:
    return " ".join(tokens) if len(tokens) >= vocabulary().phrase_min else ""


def _collectors(
    tokens: Sequence[str],
) -> tuple[Callable[[int], list[str]], Callable[[int], list[str]]]:
    """FANOUT-6's walks from a connector: `before(i)` walks left of `i` (put back in text
    order), `after(i)` right of it, passing over breaking tokens until one is collected, then
    stopping at the next break or at `phraseMax` tokens. Each call costs at most `phraseMax`
    steps (slicing and skipping cost the length of the text: quadratic, issue 39)."""
    most = vocabulary().phrase_max
    broken = [_breaks(t) for t in tokens]
    n = len(tokens)
    right = [n] * (n + 1)  # right[i]: the first kept index >= i (n: none)
    for i in range(n - 1, -1, -1):
        right[i] = i if not broken[i] else right[i + 1]
    left = [-1] * (n + 1)  # left[i]: the last kept index < i (-1: none)
    for i in range(n):
        left[i + 1] = i if not broken[i] else left[i]

    def before(i: int) -> list[str]:
        out: list[str] = []
        j = left[i]
        while j >= 0 and not broken[j] and len(out) < most:
            out.append(tokens[j])
            j -= 1
        out.reverse()
        return out

    def after(i: int) -> list[str]:
        out: list[str] = []
        j = right[i + 1] if i + 1 <= n else n
        while j < n and not broken[j] and len(out) < most:
            out.append(tokens[j])
            j += 1
        return out

    return before, after


def _trim(tokens: Sequence[str]) -> list[str]:
    """FANOUT-6: drop the leading trim words (`many`, `much`, `long`)."""
    i = 0
    while i < len(tokens) and tokens[i] in vocabulary().trim:
        i += 1
    return list(tokens[i:])


def _score(tokens: Sequence[str]) -> int:
    """FANOUT-6: 100 per token plus the tokens' lengths in code points."""
    return 100 * len(tokens) + sum(len(t) for t in tokens)


def _segment_phrase(segment: Sequence[str]) -> str:
    """FANOUT-6: a segment's phrase: itself when short, else its best-scoring window."""
    v = vocabulary()
    trimmed = _trim(segment)
    if len(trimmed) < v.phrase_min:
        return ""
    if len(trimmed) <= v.phrase_max:
        return _join(trimmed)
    for size in range(v.phrase_max, v.phrase_min - 1, -1):
        best, best_score = "", -1
        for start in range(len(trimmed) - size + 1):
            window = _trim(trimmed[start : start + size])
            if len(window) < v.phrase_min:
                continue
            if _score(window) > best_score:
                best, best_score = _join(window), _score(window)
        if best:
            return best
    return ""


def _segment_phrases(tokens: Sequence[str]) -> list[str]:
    """FANOUT-6: the phrase of every run of non-breaking tokens, first occurrences."""
    if len(tokens) < vocabulary().phrase_min:
        return []
    out: list[str] = []
    seen: set[str] = set()
    segment: list[str] = []
    for token in [*tokens, None]:
        if token is None or _breaks(token):
            phrase = _segment_phrase(segment)
            if phrase and phrase not in seen:
                seen.add(phrase)
                out.append(phrase)
            segment = []
        else:
            segment.append(token)
    return out


def phrase_probes(query: str) -> list[str]:
    """FANOUT-6: up to `maxDerived` phrases around connectors, then from the segments."""
    v = vocabulary()
    tokens = probe_tokens(query)
    if len(tokens) < v.phrase_min:
        return []
    out: list[str] = []

    def add(phrase: str) -> bool:
        if phrase and phrase not in out:
            out.append(phrase)
        return len(out) >= v.max_derived

    before, after = _collectors(tokens)
    for i, token in enumerate(tokens):
        if token not in v.connectors:
            continue
        if add(_join(before(i))):
            return out
        if add(_join(after(i))):
            return out
    for phrase in _segment_phrases(tokens):
        if add(phrase):
            return out
    return out


def filtered_phrase_probes(query: str) -> list[str]:
    """FANOUT-6: the phrase probes with a question token that is not a low-signal word."""
    low = vocabulary().low_signal
    return [p for p in phrase_probes(query) if _without(question_tokens(p), low)]


# -- probes (FANOUT-7..10) ----------------------------------------------------------------


def specific_recommendation_probes(query: str) -> list[str]:
    """FANOUT-7: the anchor's one hard-wired recommendation probe pair."""
    v = vocabulary()
    low = lowered(query)
    if not v.specific.search(low) or not any(p.search(low) for p in v.recommend):
        return []
    if v.back_end_hint in low and v.language.search(low):
        return list(v.back_end_probes)
    return []


def _money_focus(phrase: str) -> str:
    """FANOUT-8: a phrase's focus for a money question."""
    v = vocabulary()
    tokens = text.split_whitespace(text.lowercase(phrase))
    if len(tokens) >= 3 and "-" in tokens[0] and tokens[-1] in v.head_last:
        return f"{tokens[0]} {tokens[-1]}"
    if not tokens:
        return ""
    head = " ".join(tokens[-2:]) if len(tokens) >= 2 and tokens[-1] in v.head_last else tokens[-1]
    if head != phrase and len(text.split_whitespace(phrase)) <= 2:
        return head + v.money_suffix
    return phrase


def money_focus_probes(query: str) -> list[str]:
    """FANOUT-8: for a total question about money, a focus of each filtered phrase probe."""
    v = vocabulary()
    low = lowered(query)
    if not v.enumeration.search(low) or not v.money.search(low):
        return []
    return _first_distinct((_money_focus(p) for p in filtered_phrase_probes(query)), set())


def action_date_probes(query: str) -> list[str]:
    """FANOUT-9: a `when` question's date probes, one per matching rule."""
    v = vocabulary()
    low = lowered(query)
    if "when" not in low:
        return []
    return _first_distinct((probe for rule, probe in v.action_rules if rule.search(low)), set())


def _focuses(tokens: Sequence[str]) -> list[str]:
    """FANOUT-9: the focus windows of an action-date question's remaining tokens."""
    n = len(tokens)
    if n == 0:
        return []
    spans = {1: [(0, 1)], 2: [(0, 2)], 3: [(1, 3), (0, 2)]}.get(n, [(n - 2, n), (0, 2)])
    out: list[str] = []
    for start, end in spans:
        focus = " ".join(tokens[start:end])
        if focus and focus not in out:
            out.append(focus)
    return out


def action_date_context_probes(query: str) -> list[str]:
    """FANOUT-9: every date probe after every focus (`<focus> <probe>`), at most maxDerived."""
    probes = action_date_probes(query)
    if not probes:
        return []
    focuses = _focuses(_without(question_tokens(query), vocabulary().action_skip))
    pairs = (f"{focus} {probe}".strip() for probe in probes for focus in focuses)
    return _first_distinct(pairs, set())


def _inspiration(query: str) -> bool:
    low = lowered(query)
    return low != "" and any(hint in low for hint in vocabulary().inspiration_hints)


def inspiration_source_probes(query: str) -> list[str]:
    """FANOUT-10: the last focus word of an inspiration question, with the anchor's suffix."""
    v = vocabulary()
    if not _inspiration(query):
        return []
    tokens = _without(question_tokens(query), v.inspiration_skip)
    return [tokens[-1] + v.inspiration_suffix] if tokens else []


def _first_distinct(items: Iterable[str], seen: set[str]) -> list[str]:
    """Distinct non-empty items not in `seen`, at most maxDerived (updates `seen`)."""
    out: list[str] = []
    for item in items:
        if item == "" or item in seen:
            continue
        seen.add(item)
        out.append(item)
        if len(out) >= vocabulary().max_derived:
            break
    return out


def _chain(query: str, sources: Sequence[Callable[[str], list[str]]], seen: set[str]) -> list[str]:
    out: list[str] = []
    for source in sources:
        for item in source(query):
            if item in seen:
                continue
            seen.add(item)
            out.append(item)
            if len(out) >= vocabulary().max_derived:
                return out
    return out


# -- subqueries and the plan (FANOUT-11..14) ----------------------------------------------


def priority_subqueries(query: str) -> list[str]:
    """FANOUT-11: recommendation, money, action-date, inspiration probes, then phrases."""
    sources = (
        specific_recommendation_probes,
        money_focus_probes,
        action_date_context_probes,
        inspiration_source_probes,
        filtered_phrase_probes,
    )
    return _chain(query, sources, {lowered(query)})


def derived_subqueries(query: str) -> list[str]:
    """FANOUT-12: the probes, then the phrases, then the longest question tokens."""
    v = vocabulary()
    seen = {lowered(query)}
    inspiration = _inspiration(query)
    probes = (
        specific_recommendation_probes,
        money_focus_probes,
        action_date_context_probes,
        inspiration_source_probes,
        action_date_probes,
    )
    out = _chain(query, probes, seen)
    if len(out) >= v.max_derived:
        return out
    phrases = filtered_phrase_probes(query)
    for phrase in phrases:
        if inspiration and not _without(question_tokens(phrase), v.inspiration_skip):
            continue
        if phrase in seen:
            continue
        seen.add(phrase)
        out.append(phrase)
        if len(out) >= v.max_derived:
            return out
    tokens = question_tokens(" ".join(phrases) if phrases else query)
    if len(tokens) < 2:
        return out
    for token in sorted(tokens, key=len, reverse=True):  # stable: equal lengths keep order
        if (inspiration and token in v.inspiration_skip) or token in seen:
            continue
        seen.add(token)
        out.append(token)
        if len(out) >= v.max_derived:
            break
    return out


def priority_only(query: str) -> bool:
    """FANOUT-13: action-date context probes, or two filtered phrases and ` and `."""
    if action_date_context_probes(query):
        return True
    return len(filtered_phrase_probes(query)) >= 2 and " and " in lowered(query)


def plan_texts(raw: str, base: str) -> list[str]:
    """FANOUT-13: the first-pass query texts, deduped, at most maxQueries."""
    v = vocabulary()
    out: list[str] = []

    def push(value: str) -> None:
        trimmed = text.normalise(value)
        if trimmed and trimmed not in out:
            out.append(trimmed)

    raw, base = text.normalise(raw), text.normalise(base)
    source = raw if raw else base
    priority = priority_subqueries(source)
    if priority_only(source) and len(priority) >= 2:
        for item in (*priority, *filtered_phrase_probes(source)):
            push(item)
    else:
        for item in (*priority, raw if raw else base, base, *derived_subqueries(source)):
            push(item)
    return out[: v.max_queries]


def plan_expressions(
    raw: str,
    base: str,
    aliases: Mapping[str, Sequence[str]] | None,
    stopword_list: str = DEFAULT_LIST,
) -> list[str]:
    """FANOUT-14: quote the raw query's phrase probes, compile, drop "" and repeats, cut."""
    v = vocabulary()
    probes = phrase_probes(raw)
    out: list[str] = []
    for item in plan_texts(raw, base):
        if item in probes and " " in item and '"' not in item:
            item = f'"{item}"'
        expression = compile_query(parse(item, aliases, stopword_list))
        if expression and expression not in out:
            out.append(expression)
            if len(out) >= v.max_queries:
                break
    return out


# -- merging the answers (FANOUT-16..18) --------------------------------------------------


def bypasses_gate(expression: str) -> bool:
    """FANOUT-16: a digit, or 2 to 4 pieces other than AND/OR/NOT in the expression."""
    v = vocabulary()
    if has_digit(expression):
        return True
    pieces = [p for p in expression.split(" ") if p and p not in _OPERATORS]
    return v.phrase_min <= len(pieces) <= v.phrase_max


def overlap(primary: Sequence[Candidate], other: Sequence[Candidate]) -> int:
    """FANOUT-16: hits among `other`'s first window whose id is among `primary`'s first."""
    window = vocabulary().overlap_window
    ids = {c.id for c in primary[:window]}
    if not ids:
        return 0
    return sum(1 for c in other[:window] if c.id in ids)


def kept(primary: Sequence[Candidate], expression: str, hits: Sequence[Candidate]) -> bool:
    """FANOUT-16: whether a later query's non-empty hits join the merge."""
    return (
        not primary
        or bypasses_gate(expression)
        or overlap(primary, hits) >= vocabulary().overlap_min
    )


def merge(lists: Sequence[Sequence[Candidate]], candidate_k: int) -> list[Candidate]:
    """FANOUT-17: one kept list as is; several fused by RRF (k 60, weight 1); cut (PIPE-4)."""
    from reference.rrf import RankedList, fuse

    if not lists:
        return []
    if len(lists) == 1:
        return list(lists[0])[:candidate_k]
    fused = fuse([RankedList("bm25", 1.0, tuple(items)) for items in lists], MERGE_K)
    return [f.candidate for f in fused][:candidate_k]
