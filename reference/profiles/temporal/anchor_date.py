"""Reading questionDate (spec/profiles/temporal.md TEMPORAL-5..TEMPORAL-8): the UTC day it
names, or None. Never the wall clock."""

from __future__ import annotations

import re

from reference import text
from reference.profiles.temporal import civil

# TEMPORAL-6 (form A) and TEMPORAL-7 (form B), on the whitespace-normalised string; ASCII
# digits only ([0-9], never \d: Python's \d and int() accept other scripts' digits).
_FORM_A = re.compile(
    r"([0-9]{4})[-/]([0-9]{2})[-/]([0-9]{2})"
    r"(?: \([A-Za-z]{3}\))?"
    r"(?: ([0-9]{2}):([0-9]{2})(?::([0-9]{2}))?)?",
    re.ASCII,
)
_FORM_B = re.compile(
    r"([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2})(?::([0-9]{2})(?:\.[0-9]+)?)?"
    r"(Z|[-+][0-9]{2}:[0-9]{2})?",
    re.ASCII,
)


def _date(y: str, m: str, d: str) -> int | None:
    year, month, day = int(y), int(m), int(d)
    if not (1 <= year <= 9999 and 1 <= month <= 12):
        return None
    if not 1 <= day <= civil.days_in_month(year, month):
        return None
    return civil.days_from_civil(year, month, day)


def _clock(h: str, mi: str, s: str | None) -> int | None:
    hour, minute, second = int(h), int(mi), int(s or "0")
    if hour > 23 or minute > 59 or second > 59:
        return None
    return hour * 60 + minute


def parse_question_date(value: str) -> int | None:
    """TEMPORAL-5..8: the day number of the UTC date questionDate names, else None."""
    s = " ".join(text.split_whitespace(value))
    a = _FORM_A.fullmatch(s)
    if a:
        day = _date(a[1], a[2], a[3])
        if day is None or (a[4] is not None and _clock(a[4], a[5], a[6]) is None):
            return None
        return day
    b = _FORM_B.fullmatch(s)
    if not b:
        return None
    day = _date(b[1], b[2], b[3])
    minutes = _clock(b[4], b[5], b[6])
    if day is None or minutes is None:
        return None
    zone = b[7]
    if zone is not None and zone != "Z":
        oh, om = int(zone[1:3]), int(zone[4:6])
        if oh > 23 or om > 59:
            return None
        offset = oh * 60 + om
        minutes -= offset if zone[0] == "+" else -offset
    day += minutes // 1440
    return day if civil.in_range(day) else None
