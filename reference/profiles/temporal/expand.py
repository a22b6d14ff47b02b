"""`temporal.expand`: the anchor's temporal rewrite of a query (spec/profiles/temporal.md
TEMPORAL-14..TEMPORAL-21), anchored on questionDate, in UTC, never the wall clock."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from reference import text
from reference.profiles.temporal import civil
from reference.profiles.temporal.anchor_date import parse_question_date
from reference.profiles.temporal.recognisers import recognisers

_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")

#: TEMPORAL-14: the query's normalised form (TEXT-1..TEXT-4), bound here so it is this module's.
_normalise = text.normalise

#: TEMPORAL-16: a count with more significant digits than this cannot name an in-range date.
_MAX_COUNT_DIGITS = 7


@dataclass(frozen=True)
class Expansion:
    """The operation's output (TEMPORAL-2)."""

    expanded_query: str
    date_hints: list[str]
    resolved: bool
    augmented_query: str

    def to_json(self) -> dict[str, object]:
        return {
            "expandedQuery": self.expanded_query,
            "dateHints": list(self.date_hints),
            "resolved": self.resolved,
            "augmentedQuery": self.augmented_query,
        }


def ascii_lower(s: str) -> str:
    """TEMPORAL-15: A-Z to a-z and nothing else (no locale, no length change)."""
    return s.translate(_ASCII_LOWER)


def _count(word: str) -> int | None:
    """TEMPORAL-16: ASCII digits in decimal (leading zeros allowed), or a count word."""
    if word.isascii() and word.isdigit():
        digits = word.lstrip("0")
        return None if len(digits) > _MAX_COUNT_DIGITS else int(word)
    return recognisers().count_words.get(word)


def _in_range(days: int) -> int | None:
    return days if civil.in_range(days) else None


# A resolver gets the matched text (ASCII-lowercased) and the anchor day; it returns the suffix
# and the hints, or None to leave the phrase unexpanded (TEMPORAL-11).
Resolver = Callable[[str, int], tuple[str, list[str]] | None]


def _relative_time(match: str, anchor: int) -> tuple[str, list[str]] | None:
    count_word, unit_word = match.split(" ")[:2]
    count = _count(count_word)
    unit = recognisers().units.get(unit_word)
    if count is None or unit is None:
        return None
    if unit == "month":
        day = civil.months_back(anchor, count)
    else:
        day = _in_range(anchor - count * (7 if unit == "week" else 1))
    if day is None:
        return None
    return f"(around {civil.slash(day)})", [civil.slash(day)]


def _relative_day(match: str, anchor: int) -> tuple[str, list[str]] | None:
    day = _in_range(anchor - 1 if match == "yesterday" else anchor)
    if day is None:
        return None
    return f"({civil.slash(day)})", [civil.slash(day)]


def _last_week(match: str, anchor: int) -> tuple[str, list[str]] | None:
    days = [anchor - k for k in range(7, 0, -1)]
    if not civil.in_range(days[0]):
        return None
    hints = [civil.slash(d) for d in days]
    return f"({hints[0]} to {hints[-1]})", hints


def _last_weekday(match: str, anchor: int) -> tuple[str, list[str]] | None:
    target = recognisers().weekdays.index(match.split(" ")[-1])
    for back in range(1, 8):
        day = anchor - back
        if civil.weekday(day) == target:
            if not civil.in_range(day):
                return None
            return f"({civil.slash(day)})", [civil.slash(day)]
    raise AssertionError("seven consecutive days hold every weekday")


_RESOLVERS: dict[str, Resolver] = {
    "relative_time": _relative_time,
    "relative_day": _relative_day,
    "last_week": _last_week,
    "last_weekday": _last_weekday,
}


def _apply(
    pattern: re.Pattern[str], resolve: Resolver, s: str, anchor: int, hints: list[str]
) -> str:
    """TEMPORAL-17: every non-overlapping match, left to right, gets ` ` + its suffix."""
    out: list[str] = []
    pos = 0
    for m in pattern.finditer(s):
        resolved = resolve(ascii_lower(m.group(0)), anchor)
        out.append(s[pos : m.end()])
        if resolved is not None:
            suffix, found = resolved
            out.append(" " + suffix)
            hints.extend(found)
        pos = m.end()
    out.append(s[pos:])
    return "".join(out)


def _dedupe(items: list[str]) -> list[str]:
    return list(dict.fromkeys(items))


def _ordering_note(s: str) -> str | None:
    """TEMPORAL-19: the first group with a word that is a substring (ASCII case-insensitive)."""
    lowered = ascii_lower(s)
    for words, note in recognisers().ordering:
        if any(w in lowered for w in words):
            return note
    return None


def expand(query: str, question_date: str | None) -> Expansion:
    """TEMPORAL-14..21: expand `query` against the UTC day questionDate names."""
    unchanged = Expansion(query, [], False, query)
    anchor = None if question_date is None else parse_question_date(question_date)
    if anchor is None:
        return unchanged
    normalised = _normalise(query)
    s = normalised
    hints: list[str] = []
    for name, pattern in recognisers().patterns:
        s = _apply(pattern, _RESOLVERS[name], s, anchor, hints)
    if not hints:
        return unchanged
    note = _ordering_note(s)
    if note is not None:
        s = f"{s} {note}"
    hints = _dedupe(hints)
    tokens = _dedupe([t for h in hints for t in (f'"{h}"', '"' + h.replace("/", "-") + '"')])
    return Expansion(s, hints, True, normalised + " " + " ".join(tokens))


