"""Broken ports of profile engram's dates (spec/profiles/engram.md ENGRAM-6..8): the calendar,
the clock and the query's days; registered on import."""

from __future__ import annotations

import re
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


def _engram(module: str) -> ModuleType:
    return _mod(f"reference.profiles.engram.{module}")


@mutant(
    "engram-age-reciprocal",
    "ENGRAM-7",
    "ageDays as seconds x (1/86400), a product with the rounded reciprocal, not one division",
    seams=("reference.profiles.engram.dates.age_days",),
)
def _engram_age_reciprocal() -> None:
    d = _engram("dates")
    inverse = 1.0 / d.SECONDS_PER_DAY
    swap(d, "age_days", lambda now, then: max(0, now - then) * inverse)


@mutant(
    "engram-now-offset-accepted",
    "ENGRAM-7",
    "now parsed as ISO 8601 with any zone offset (+05:30 read as UTC, the offset dropped)",
    seams=("reference.profiles.engram.options.parse",),
)
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


@mutant(
    "engram-signal-equals-fact-date",
    "ENGRAM-8",
    "the fact date compared equal to the signal, not searched for it (engram's `in`)",
    seams=("reference.profiles.engram.boost.factors",),
)
def _engram_signal_equals() -> None:
    b = _engram("boost")
    original = b.factors

    def factors(metadata: Any, signal: Any, now: int, half: float) -> Any:
        f = original(metadata, signal, now, half)
        return replace(f, date_match=f.date_match and metadata.get(b.FACT_KEY) == signal)

    swap(b, "factors", factors)


@mutant(
    "engram-signal-in-memory-date",
    "ENGRAM-8",
    "the signal looked for in engram.date (the creation) instead of engram.factDate",
    seams=("reference.profiles.engram.boost.FACT_KEY",),
)
def _engram_signal_in_memory_date() -> None:
    b = _engram("boost")
    set_attr(b, "FACT_KEY", b.DATE_KEY)


@mutant(
    "engram-date-iso-lenient",
    "ENGRAM-6",
    "dates read by a lenient ISO parser: fractional seconds (toISOString) and HH:MMZ accepted",
    seams=("reference.profiles.engram.dates.parse",),
)
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


@mutant(
    "engram-signal-relative-dates",
    "ENGRAM-8",
    "relative days (yesterday, last week) read as a signal through the temporal profile (2.x)",
    seams=("reference.profiles.engram.dates.query_signal",),
)
def _engram_signal_relative() -> None:
    d = _engram("dates")
    original = d.query_signal
    expand = _mod("reference.profiles.temporal.expand").expand

    def query_signal(normalized: str) -> Any:
        got = original(normalized)
        if got is None:
            hints = expand(normalized, WALL_CLOCK_DAY.isoformat()).date_hints
            return hints[0].replace("/", "-") if hints else None
        return got

    swap(d, "query_signal", query_signal)


@mutant(
    "engram-month-day-unpadded",
    "ENGRAM-8",
    "month D written without zero padding (2026-3-5), as an f-string without :02d",
    seams=("reference.profiles.engram.dates.query_signal",),
)
def _engram_month_day_unpadded() -> None:
    d = _engram("dates")
    original = d.query_signal

    def query_signal(normalized: str) -> Any:
        got = original(normalized)
        text = normalized.lower()
        first = next((i for i, rx in enumerate(d.SIGNAL_PATTERNS) if rx.search(text)), None)
        if got is None or first != 3:
            return got
        y, m, day = got.split("-")
        return f"{y}-{int(m)}-{int(day)}"

    swap(d, "query_signal", query_signal)
