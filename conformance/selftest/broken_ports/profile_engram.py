"""Broken ports of profile engram (spec/profiles/engram.md), registered on import."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import replace
from types import ModuleType
from typing import Any

from conformance.selftest.broken_ports.patching import (
    WALL_CLOCK_DAY,
    _mod,
    mutant,
    set_attr,
    swap,
)

# -- profile engram (spec/profiles/engram.md) --------------------------------------------------


def _engram(module: str) -> ModuleType:
    return _mod(f"reference.profiles.engram.{module}")


def _engram_classify_with(pick: Callable[[str, list[tuple[str, re.Pattern[str]]]], str]) -> None:
    """Replace the class choice; `matched` keeps table order so only the precedence differs."""
    table = _engram("table")
    original = table.classify

    def classify(query: str) -> Any:
        got = original(query)
        t = table.table()
        text = _mod("reference.text").fold(query)
        hits = [(n, rx) for n, rx in t.patterns if rx.search(text)]
        intent = pick(text, hits) if hits else t.default
        return table.Classification(intent, got.matched, dict(t.weights[intent]))

    swap(table, "classify", classify)


@mutant(
    "engram-precedence-leftmost",
    "ENGRAM-3",
    "the pattern whose match starts first in the query wins, not the one with the most matches",
    seams=("reference.profiles.engram.table.classify",),
)
def _engram_leftmost() -> None:
    def pick(text: str, hits: list[tuple[str, re.Pattern[str]]]) -> str:
        return min(hits, key=lambda h: (h[1].search(text).start(), 0))[0]  # type: ignore[union-attr]

    _engram_classify_with(pick)


@mutant(
    "engram-precedence-table-order",
    "ENGRAM-3",
    "the first matching pattern in table order wins (the 2.x reading), not the most matches",
    seams=("reference.profiles.engram.table.classify",),
)
def _engram_table_order() -> None:
    _engram_classify_with(lambda text, hits: hits[0][0])


@mutant(
    "engram-precedence-last",
    "ENGRAM-3",
    "the last matching pattern wins (a loop that keeps overwriting, or a reversed map)",
    seams=("reference.profiles.engram.table.classify",),
)
def _engram_last() -> None:
    _engram_classify_with(lambda text, hits: hits[-1][0])


@mutant(
    "engram-unicode-regex",
    "ENGRAM-2",
    "patterns compiled with Python's Unicode re and IGNORECASE: é is a word character, ſ is s",
    seams=("reference.profiles.engram.table.table",),
)
def _engram_unicode_regex() -> None:
    table = _engram("table")
    table.table.cache_clear()
    data = _mod("reference.data").load_json(table.DATA_FILE)
    patterns = tuple((p["name"], re.compile(p["source"], re.IGNORECASE)) for p in data["patterns"])
    real = table.table()
    set_attr(table, "table", lambda: replace(real, patterns=patterns))


@mutant(
    "engram-decay-ln2",
    "ENGRAM-9",
    "recency decays with ln 2 instead of the seed's 0.693",
    seams=("reference.profiles.engram.boost.DECAY",),
)
def _engram_ln2() -> None:
    set_attr(_engram("boost"), "DECAY", -math.log(2))


@mutant(
    "engram-recency-code-floor",
    "ENGRAM-9",
    "engram's code: recency 0.5 + 0.5 x decay (0.75 at one half-life), not the seed's floor",
    seams=("reference.profiles.engram.boost.recency",),
)
def _engram_code_floor() -> None:
    b = _engram("boost")

    def recency(age: float, half_life_days: float) -> float:
        return float(0.5 + 0.5 * b.exp((b.DECAY * age) / half_life_days))

    swap(b, "recency", recency)


@mutant(
    "engram-no-floor",
    "ENGRAM-9",
    "recency decay without the 0.5 floor",
    seams=("reference.profiles.engram.boost.FLOOR",),
)
def _engram_no_floor() -> None:
    set_attr(_engram("boost"), "FLOOR", 0.0)


@mutant(
    "engram-floor-on-product",
    "ENGRAM-11",
    "the 0.5 floor applied to recency x access instead of to recency alone",
    seams=("reference.profiles.engram.boost.factors",),
)
def _engram_floor_product() -> None:
    b = _engram("boost")
    original = b.factors

    def factors(metadata: Any, wanted: Any, now: int, half: float) -> Any:
        f = original(metadata, wanted, now, half)
        if f.age_days is None or metadata.get(b.KIND_KEY) != b.EPISODIC:
            return f
        raw = b.exp((b.DECAY * f.age_days) / half)
        return replace(f, recency=max(raw * f.access, 0.5) / f.access)

    swap(b, "factors", factors)


@mutant(
    "engram-floor-after-date",
    "ENGRAM-11",
    "the 0.5 floor applied to date x recency, so a date match lifts an old memory above it",
    seams=("reference.profiles.engram.boost.boosted",),
)
def _engram_floor_after_date() -> None:
    b = _engram("boost")
    original = b.boosted

    def boosted(score: float, f: Any) -> float:
        if f.date_match and f.recency == 0.5 and f.age_days is not None:
            raw = b.exp((b.DECAY * f.age_days) / b.DEFAULT_HALF_LIFE_DAYS)
            return float((score * max(2.0 * raw, 0.5)) * f.access)
        return float(original(score, f))

    swap(b, "boosted", boosted)


@mutant(
    "engram-access-log10",
    "ENGRAM-10",
    "access frequency with a decimal logarithm",
    seams=("reference.profiles.engram.boost.log",),
)
def _engram_log10() -> None:
    set_attr(_engram("boost"), "log", math.log10)


@mutant(
    "engram-access-log-count",
    "ENGRAM-10",
    "access frequency from log(count), not log(1 + count)",
    seams=("reference.profiles.engram.boost.access",),
)
def _engram_log_count() -> None:
    b = _engram("boost")
    swap(b, "access", lambda count: b.ACCESS_BASE + b.ACCESS_SCALE * math.log(max(count, 1)))


@mutant(
    "engram-access-lenient-count",
    "ENGRAM-6",
    "access counts read with int(): leading zeros, signs and spaces accepted",
    seams=("reference.profiles.engram.boost.access_count",),
)
def _engram_lenient_count() -> None:
    b = _engram("boost")

    def access_count(metadata: Any) -> int:
        try:
            return max(int(float(metadata.get(b.ACCESS_KEY, "0"))), 0)
        except ValueError:
            return 0

    swap(b, "access_count", access_count)


@mutant(
    "engram-ties-by-path",
    "ENGRAM-11",
    "equal boosted scores ordered by id instead of input order",
    seams=("reference.profiles.engram.ops.boost_items",),
)
def _engram_ties_by_path() -> None:
    ops = _engram("ops")
    original = ops.boost_items

    def boost_items(query: str, opts: Any, items: Any) -> Any:
        wanted, records = original(query, opts, items)
        return wanted, sorted(records, key=lambda r: (-r["score"], r["id"]))

    swap(ops, "boost_items", boost_items)


@mutant(
    "engram-age-whole-days",
    "ENGRAM-7",
    "ageDays truncated to whole days",
    seams=("reference.profiles.engram.dates.age_days",),
)
def _engram_whole_days() -> None:
    d = _engram("dates")
    swap(d, "age_days", lambda now, then: float(max(0, now - then) // d.SECONDS_PER_DAY))


@mutant(
    "engram-date-utc-two-digit-years",
    "ENGRAM-7",
    "years 0..99 read as 1900..1999, as JavaScript's Date.UTC does",
    seams=("reference.profiles.engram.dates.days_from_civil",),
)
def _engram_two_digit_years() -> None:
    d = _engram("dates")
    original = d.days_from_civil
    swap(d, "days_from_civil", lambda y, m, day: original(y + 1900 if y < 100 else y, m, day))


@mutant(
    "engram-leap-every-fourth-year",
    "ENGRAM-7",
    "every fourth year is a leap year (no 100/400 rule)",
    seams=(
        "reference.profiles.engram.dates.days_in_month",
        "reference.profiles.engram.dates.days_from_civil",
    ),
)
def _engram_leap() -> None:
    d = _engram("dates")
    original = d.days_in_month

    def days_in_month(year: int, month: int) -> int:
        return 29 if month == 2 and year % 4 == 0 else int(original(year, month))

    def days_from_civil(year: int, month: int, day: int) -> int:
        # 1900-03-01 minus 1900-02-28 becomes 2: count a 29 February that does not exist.
        extra = 1 if (year % 100 == 0 and year % 400 != 0 and month > 2) else 0
        return int(civil(year, month, day)) + extra

    civil = d.days_from_civil
    swap(d, "days_in_month", days_in_month)
    swap(d, "days_from_civil", days_from_civil)


@mutant(
    "engram-no-future-clamp",
    "ENGRAM-7",
    "a memory dated after now gets a negative age, so its recency exceeds 1.0",
    seams=("reference.profiles.engram.dates.age_days",),
)
def _engram_no_clamp() -> None:
    d = _engram("dates")
    swap(d, "age_days", lambda now, then: (now - then) / d.SECONDS_PER_DAY)


@mutant(
    "engram-date-match-without-boundary",
    "ENGRAM-8",
    "signal patterns without \\b, so 2026-02-14T10:00 gives the day, not the month",
    seams=("reference.profiles.engram.dates.SIGNAL_PATTERNS",),
)
def _engram_date_no_boundary() -> None:
    d = _engram("dates")
    set_attr(d, "SIGNAL_PATTERNS", tuple(re.compile(rx.pattern.replace(r"\b", ""), re.ASCII)
                                         for rx in d.SIGNAL_PATTERNS))


@mutant(
    "engram-kind-case-insensitive",
    "ENGRAM-9",
    "the kind compared case-insensitively",
    seams=("reference.profiles.engram.boost.factors",),
)
def _engram_kind_ci() -> None:
    b = _engram("boost")
    original = b.factors

    def factors(metadata: Any, wanted: Any, now: int, half: float) -> Any:
        m = dict(metadata)
        if isinstance(m.get(b.KIND_KEY), str):
            m[b.KIND_KEY] = m[b.KIND_KEY].lower()
        return original(m, wanted, now, half)

    swap(b, "factors", factors)


@mutant(
    "engram-now-defaults-to-clock",
    "ENGRAM-7",
    "a missing now falls back to the wall clock",
    seams=("reference.profiles.engram.options.parse",),
)
def _engram_clock() -> None:
    o = _engram("options")
    original = o.parse

    def parse(obj: Any, where: str, allowed: Any) -> Any:
        if obj.get("now") is None:
            obj = {**obj, "now": WALL_CLOCK_DAY.isoformat()}
        return original(obj, where, allowed)

    swap(o, "parse", parse)


@mutant(
    "engram-seed-claim-holds",
    "ENGRAM-5",
    "RRF without the constant (k = 0), the only reading under which the seed's claim holds",
    seams=("reference.profiles.engram.search.DEFAULT_RRF_K",),
)
def _engram_seed_claim() -> None:
    set_attr(_engram("search"), "DEFAULT_RRF_K", 0)


@mutant(
    "engram-signal-by-position",
    "ENGRAM-8",
    "the leftmost date expression in the query wins, not the first pattern in engram's order",
    seams=("reference.profiles.engram.dates.query_signal",),
)
def _engram_signal_by_position() -> None:
    d = _engram("dates")
    original = d.query_signal

    def query_signal(normalized: str) -> Any:
        text = normalized.lower()
        hits = [(m.start(), i) for i, rx in enumerate(d.SIGNAL_PATTERNS)
                if (m := rx.search(text)) is not None]
        if not hits:
            return None
        _, first = min(hits)
        saved = d.SIGNAL_PATTERNS
        try:
            set_attr(d, "SIGNAL_PATTERNS", (saved[first],))
            return original(normalized) if first < 2 else _month(d, saved[first], text, first)
        finally:
            set_attr(d, "SIGNAL_PATTERNS", saved)

    swap(d, "query_signal", query_signal)


def _month(d: Any, rx: Any, text: str, index: int) -> str:
    m = rx.search(text)
    month = f"{d._MONTHS.index(m.group(1)) + 1:02d}"
    if index == 2:
        return f"{m.group(2)}-{month}"
    return f"{d.MONTH_DAY_YEAR}-{month}-{int(m.group(2)):02d}"
