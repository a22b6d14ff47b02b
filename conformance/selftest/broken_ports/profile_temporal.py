"""Broken ports of profile temporal (spec/profiles/temporal.md), registered on import."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from conformance.selftest.broken_ports.patching import (
    WALL_CLOCK_DAY,
    _mod,
    mutant,
    set_attr,
    set_entry,
    set_hook,
    swap,
)

# -- profile temporal (spec/profiles/temporal.md) -----------------------------------------------


def _temporal_match_on(lower: Callable[[str], str], cut_original: bool = True) -> None:
    """A port that lowercases the query with `lower`, matches case-sensitively on that copy and
    cuts the original query at the positions it found (TEMPORAL-15)."""
    exp = _mod("reference.profiles.temporal.expand")

    def apply(pattern: re.Pattern[str], resolve: Any, s: str, anchor: int, hints: list[str]) -> str:
        lowered = lower(s)
        plain = re.compile(pattern.pattern, re.ASCII)
        out: list[str] = []
        pos = 0
        for m in plain.finditer(lowered):
            resolved = resolve(m.group(0), anchor)
            out.append((s if cut_original else lowered)[pos : m.end()])
            if resolved is not None:
                out.append(" " + resolved[0])
                hints.extend(resolved[1])
            pos = m.end()
        out.append((s if cut_original else lowered)[pos:])
        return "".join(out)

    set_attr(exp, "_apply", apply)
    set_attr(exp, "ascii_lower", lower)


@mutant(
    "temporal-month-clamp",
    "TEMPORAL-12",
    "N months ago clamps to the target month's last day (Java minusMonths, dateutil)",
    seams=("reference.profiles.temporal.civil.months_back",),
)
def _temporal_month_clamp() -> None:
    civil = _mod("reference.profiles.temporal.civil")

    def months_back(anchor: int, count: int) -> int | None:
        y, m, d = civil.civil_from_days(anchor)
        index = y * 12 + (m - 1) - count
        ty, tm = index // 12, index % 12 + 1
        if ty < 1:
            return None
        return int(civil.days_from_civil(ty, tm, min(d, civil.days_in_month(ty, tm))))

    set_attr(civil, "months_back", months_back)


@mutant(
    "temporal-wall-clock",
    "TEMPORAL-5",
    "an absent or unparseable questionDate falls back to today's date from the clock",
    seams=(
        "reference.profiles.temporal.expand.parse_question_date",
        "reference.profiles.temporal.expand.expand",
    ),
)
def _temporal_wall_clock() -> None:
    import datetime

    exp = _mod("reference.profiles.temporal.expand")
    original = exp.parse_question_date

    def parse(value: str) -> int | None:
        day = original(value)
        if day is None:
            day = WALL_CLOCK_DAY.toordinal() - datetime.date(1970, 1, 1).toordinal()
        return int(day)

    set_attr(exp, "parse_question_date", parse)
    expand = exp.expand

    def expand_with_clock(query: str, question_date: str | None) -> Any:
        return expand(query, "" if question_date is None else question_date)

    swap(exp, "expand", expand_with_clock)


@mutant(
    "temporal-turkish-lowercase",
    "TEMPORAL-15",
    "the query is lowercased under a Turkish locale before matching (I becomes dotless ı)",
    seams=(
        "reference.profiles.temporal.expand._apply",
        "reference.profiles.temporal.expand.ascii_lower",
    ),
)
def _temporal_turkish() -> None:
    _temporal_match_on(lambda s: s.replace("I", "\u0131").replace("\u0130", "i").lower())


@mutant(
    "temporal-full-lowercase-positions",
    "TEMPORAL-15",
    "the query is fully lowercased (İ becomes two code points) and the original is cut at the "
    "lowercased copy's positions",
    seams=(
        "reference.profiles.temporal.expand._apply",
        "reference.profiles.temporal.expand.ascii_lower",
    ),
)
def _temporal_full_lower() -> None:
    _temporal_match_on(str.lower)


@mutant(
    "temporal-go-tolower",
    "TEMPORAL-15",
    "Go strings.ToLower before matching: İ becomes i, so FRİDAY is friday",
    seams=(
        "reference.profiles.temporal.expand._apply",
        "reference.profiles.temporal.expand.ascii_lower",
    ),
)
def _temporal_go_tolower() -> None:
    _temporal_match_on(lambda s: "".join("i" if ch == "\u0130" else ch.lower() for ch in s))


@mutant(
    "temporal-unicode-casefold",
    "TEMPORAL-15",
    "recognisers compiled with re.IGNORECASE but without re.ASCII (ſ, ı fold onto s, i)",
    seams=(
        "reference.profiles.temporal.recognisers.recognisers",
        "reference.profiles.temporal.expand.recognisers",
    ),
)
def _temporal_unicode_casefold() -> None:
    rec = _mod("reference.profiles.temporal.recognisers")
    original = rec.recognisers

    def recognisers() -> Any:
        r = original()
        patterns = tuple((n, re.compile(p.pattern, re.IGNORECASE)) for n, p in r.patterns)
        return replace(r, patterns=patterns)

    for module in ("reference.profiles.temporal.recognisers", "reference.profiles.temporal.expand"):
        set_attr(_mod(module), "recognisers", recognisers)


@mutant(
    "temporal-weekday-from-monday",
    "TEMPORAL-10",
    "weekdays numbered from Monday (Python date.weekday()) against the Sunday-first list",
    seams=("reference.profiles.temporal.civil.weekday",),
)
def _temporal_weekday_monday() -> None:
    set_attr(_mod("reference.profiles.temporal.civil"), "weekday", lambda days: (days + 3) % 7)


@mutant(
    "temporal-weekday-truncating-mod",
    "TEMPORAL-10",
    "the weekday uses a truncating % (JavaScript, Go), negative before 1970",
    seams=("reference.profiles.temporal.civil.weekday",),
)
def _temporal_weekday_trunc() -> None:
    set_attr(
        _mod("reference.profiles.temporal.civil"),
        "weekday",
        lambda days: int(math.fmod(days + 4, 7)),
    )


@mutant(
    "temporal-last-weekday-includes-anchor",
    "TEMPORAL-18",
    "last <weekday> may be the anchor day itself (walks back 0..6 days)",
    seams=("reference.profiles.temporal.expand._RESOLVERS",),
)
def _temporal_weekday_anchor() -> None:
    exp = _mod("reference.profiles.temporal.expand")
    civil = _mod("reference.profiles.temporal.civil")

    def last_weekday(match: str, anchor: int) -> Any:
        target = exp.recognisers().weekdays.index(match.split(" ")[-1])
        for back in range(7):
            if civil.weekday(anchor - back) == target:
                return f"({civil.slash(anchor - back)})", [civil.slash(anchor - back)]
        return None

    set_entry(exp, "_RESOLVERS", "last_weekday", last_weekday)


@mutant(
    "temporal-date-rolls-over",
    "TEMPORAL-8",
    "an impossible questionDate rolls forward like JavaScript Date.UTC (2026-02-29 is March 1)",
    seams=("reference.profiles.temporal.anchor_date._date",),
)
def _temporal_date_rolls() -> None:
    ad = _mod("reference.profiles.temporal.anchor_date")
    civil = _mod("reference.profiles.temporal.civil")

    def date(y: str, m: str, d: str) -> int | None:
        year, month, day = int(y), int(m), int(d)
        if not (1 <= month <= 12 and 1 <= day <= 31):
            return None
        return int(civil.days_from_civil(year, month, 1)) + day - 1

    set_attr(ad, "_date", date)


@mutant(
    "temporal-year-unpadded",
    "TEMPORAL-13",
    "the year is not zero-padded to four digits (Python strftime %Y on glibc writes 50)",
    seams=("reference.profiles.temporal.civil.slash",),
)
def _temporal_year_unpadded() -> None:
    civil = _mod("reference.profiles.temporal.civil")

    def slash(days: int) -> str:
        y, m, d = civil.civil_from_days(days)
        return f"{y}/{m:02d}/{d:02d}"

    set_attr(civil, "slash", slash)


@mutant(
    "temporal-years-below-100-are-1900s",
    "TEMPORAL-9",
    "the anchor is built with JavaScript Date.UTC, which reads years 0..99 as 1900..1999",
    seams=("reference.profiles.temporal.anchor_date._date",),
)
def _temporal_date_utc_years() -> None:
    ad = _mod("reference.profiles.temporal.anchor_date")
    original = ad._date

    def date(y: str, m: str, d: str) -> int | None:
        year = int(y)
        return original(str(year + 1900).zfill(4) if year < 100 else y, m, d)  # type: ignore[no-any-return]

    set_attr(ad, "_date", date)


@mutant(
    "temporal-first-match-only",
    "TEMPORAL-17",
    "only the first match of each recogniser expands (the anchor's Python re.search)",
    seams=("reference.profiles.temporal.expand._apply",),
)
def _temporal_first_match() -> None:
    exp = _mod("reference.profiles.temporal.expand")
    original = exp._apply

    def apply(pattern: re.Pattern[str], resolve: Any, s: str, anchor: int, hints: list[str]) -> str:
        m = pattern.search(s)
        if m is None:
            return s
        head = original(pattern, resolve, s[: m.end()], anchor, hints)
        return str(head) + s[m.end() :]

    set_attr(exp, "_apply", apply)


@mutant(
    "temporal-note-without-date",
    "TEMPORAL-20",
    "the ordering note is appended even when no date resolved (the anchor's TypeScript)",
    seams=("reference.profiles.temporal.expand.expand",),
)
def _temporal_note_unresolved() -> None:
    exp = _mod("reference.profiles.temporal.expand")
    original = exp.expand

    def expand(query: str, question_date: str | None) -> Any:
        e = original(query, question_date)
        if e.resolved or question_date is None or exp.parse_question_date(question_date) is None:
            return e
        note = exp._ordering_note(query)
        return e if note is None else replace(e, expanded_query=f"{query} {note}")

    swap(exp, "expand", expand)


@mutant(
    "temporal-dates-unquoted",
    "TEMPORAL-20",
    "the augmented query appends the dates as bare words, which the DSL strips to 20260417",
    seams=("reference.profiles.temporal.expand.expand",),
)
def _temporal_unquoted() -> None:
    exp = _mod("reference.profiles.temporal.expand")
    original = exp.expand

    def expand(query: str, question_date: str | None) -> Any:
        e = original(query, question_date)
        return replace(e, augmented_query=e.augmented_query.replace('"', ""))

    swap(exp, "expand", expand)


@mutant(
    "temporal-raw-query",
    "TEMPORAL-14",
    "the recognisers run on the raw query, not the normalised one",
    seams=("reference.profiles.temporal.expand._normalise",),
)
def _temporal_raw_query() -> None:
    set_attr(_mod("reference.profiles.temporal.expand"), "_normalise", lambda s: s)


@mutant(
    "temporal-no-range-check",
    "TEMPORAL-11",
    "dates outside 0001..9999 are expanded anyway",
    seams=("reference.profiles.temporal.civil.in_range",),
)
def _temporal_no_range() -> None:
    civil = _mod("reference.profiles.temporal.civil")
    set_attr(civil, "in_range", lambda days: True)


@mutant(
    "temporal-offset-ignored",
    "TEMPORAL-7",
    "an ISO offset is ignored: the local date is taken as the UTC date",
    seams=("reference.profiles.temporal.anchor_date.parse_question_date",),
)
def _temporal_offset_ignored() -> None:
    ad = _mod("reference.profiles.temporal.anchor_date")
    original = ad.parse_question_date

    def parse(value: str) -> int | None:
        cut = re.sub(r"(T[0-9:.]+)(?:Z|[-+][0-9]{2}:[0-9]{2})$", r"\1", value.strip())
        return original(cut)  # type: ignore[no-any-return]

    swap(ad, "parse_question_date", parse)


@mutant(
    "temporal-searches-expanded-query",
    "TEMPORAL-21",
    "the pipeline searches expandedQuery (with its (around ...) suffixes), not augmentedQuery",
    seams=("reference.profiles.temporal.pipeline.PIPELINE.rewrite_query",),
)
def _temporal_searches_expanded() -> None:
    pipe = _mod("reference.profiles.temporal.pipeline")
    original = pipe.rewrite_query

    def rewrite(call: Any, query: str) -> str:
        original(call, query)
        return str(call.trace["expandedQuery"])

    set_hook(pipe, "rewrite_query", rewrite)
