"""Broken ports of profile engram's dates (spec/profiles/engram.md ENGRAM-6..8): the calendar,
the clock and the query's days; registered on import."""

from __future__ import annotations

import re
from dataclasses import replace
from types import ModuleType
from typing import Any

from conformance.selftest.broken_ports.patching import WALL_CLOCK_DAY, _mod, mutant, swap


def _engram(module: str) -> ModuleType:
    return _mod(f"reference.profiles.engram.{module}")


@mutant("engram-age-reciprocal", "ENGRAM-7",
        "ageDays as seconds x (1/86400), a product with the rounded reciprocal, not one division")
def _engram_age_reciprocal() -> None:
    d = _engram("dates")
    inverse = 1.0 / d.SECONDS_PER_DAY
    swap(d, "age_days", lambda now, then: max(0, now - then) * inverse)


@mutant("engram-now-offset-accepted", "ENGRAM-7",
        "now parsed as ISO 8601 with any zone offset (+05:30 read as UTC, the offset dropped)")
def _engram_now_offset() -> None:
    o = _engram("options")
    original = o.parse
    offset = re.compile(r"(T[0-9]{2}:[0-9]{2}:[0-9]{2})[+-][0-9]{2}:[0-9]{2}$")

    def parse(obj: Any, where: str, allowed: Any) -> Any:
        now = obj.get("now")
        if isinstance(now, str):
            obj = {**obj, "now": offset.sub(r"\1Z", now)}
        return original(obj, where, allowed)

    swap(o, "parse", parse)


@mutant("engram-match-whole-timestamp", "ENGRAM-8",
        "the whole engram.date is compared with the query's days, so a timestamp never matches")
def _engram_match_whole_timestamp() -> None:
    b = _engram("boost")
    original = b.factors

    def factors(metadata: Any, wanted: Any, now: int, half: float) -> Any:
        f = original(metadata, wanted, now, half)
        return replace(f, date_match=f.date_match and metadata.get(b.DATE_KEY) in wanted)

    swap(b, "factors", factors)


@mutant("engram-range-includes-anchor", "ENGRAM-8",
        "a range (last week) taken as the seven days up to and including the anchor day")
def _engram_range_includes_anchor() -> None:
    d = _engram("dates")
    original = d.query_days

    def query_days(query: str, now: str) -> list[str]:
        days: list[str] = list(original(query, now))
        if "last week" in _mod("reference.text").fold(query):
            days = [x for x in days if x != min(days)] + [now[:10]]
        return days

    swap(d, "query_days", query_days)


@mutant("engram-date-iso-lenient", "ENGRAM-6",
        "dates read by a lenient ISO parser: fractional seconds (toISOString) and HH:MMZ accepted")
def _engram_date_iso_lenient() -> None:
    d = _engram("dates")
    original = d.parse
    lenient = re.compile(r"(.{10}T[0-9]{2}:[0-9]{2})(:[0-9]{2})?(\.[0-9]+)?Z", re.ASCII)

    def parse(text: str) -> Any:
        m = lenient.fullmatch(text)
        if m is not None:
            text = m.group(1) + (m.group(2) or ":00") + "Z"
        return original(text)

    swap(d, "parse", parse)


@mutant("engram-proximity-one-day", "ENGRAM-8",
        "proximity read as a window: a memory within one day of a query date counts as matched")
def _engram_proximity_one_day() -> None:
    b = _engram("boost")
    d = _engram("dates")
    original = b.factors

    def near(day: str, wanted: Any) -> bool:
        parsed = d.parse(day)
        return parsed is not None and any(
            (q := d.parse(w)) is not None and abs(q[1] - parsed[1]) <= d.SECONDS_PER_DAY
            for w in wanted)

    def factors(metadata: Any, wanted: Any, now: int, half: float) -> Any:
        f = original(metadata, wanted, now, half)
        raw = metadata.get(b.DATE_KEY)
        if f.date_match or f.age_days is None or not isinstance(raw, str):
            return f
        return replace(f, date_match=near(raw[:10], wanted))

    swap(b, "factors", factors)


@mutant("engram-resolve-against-clock", "ENGRAM-8",
        "relative days (yesterday, last week) resolved against the wall clock's day, not now's")
def _engram_resolve_against_clock() -> None:
    d = _engram("dates")
    original = d.query_days
    today = WALL_CLOCK_DAY.isoformat()
    swap(d, "query_days", lambda query, now: original(query, today))
