"""Dates of the engram profile (ENGRAM-6, ENGRAM-7): two UTC forms, seconds from civil
fields with integer arithmetic only, so that no date library or time zone takes part."""

from __future__ import annotations

import re

from reference.profiles.temporal.expand import expand
from reference.text import fold

_FORM = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})(?:T([0-9]{2}):([0-9]{2}):([0-9]{2})Z)?",
                   re.ASCII)
#: ENGRAM-8: a date written in the query.
QUERY_DATE = re.compile(r"\b[0-9]{4}-[0-9]{2}-[0-9]{2}\b", re.ASCII)
SECONDS_PER_DAY = 86400


def days_in_month(year: int, month: int) -> int:
    if month == 2:
        leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
        return 29 if leap else 28
    return 30 if month in (4, 6, 9, 11) else 31


def days_from_civil(year: int, month: int, day: int) -> int:
    """Days since 1970-01-01 of a proleptic Gregorian date (integer arithmetic only)."""
    y = year - 1 if month <= 2 else year
    era = y // 400
    yoe = y - era * 400
    mp = (month + 9) % 12
    doy = (153 * mp + 2) // 5 + day - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def parse(text: str) -> tuple[str, int] | None:
    """ENGRAM-7: `YYYY-MM-DD` or `YYYY-MM-DDTHH:MM:SSZ` -> (day `YYYY-MM-DD`, seconds since
    1970-01-01T00:00:00Z); None for anything else (year 0000, month 13, 02-30, 24:00:00 ...)."""
    m = _FORM.fullmatch(text)
    if m is None:
        return None
    year, month, day = int(m.group(1)), int(m.group(2)), int(m.group(3))
    if year < 1 or not 1 <= month <= 12 or not 1 <= day <= days_in_month(year, month):
        return None
    hh = mm = ss = 0
    if m.group(4) is not None:
        hh, mm, ss = int(m.group(4)), int(m.group(5)), int(m.group(6))
        if hh > 23 or mm > 59 or ss > 59:
            return None
    seconds = days_from_civil(year, month, day) * SECONDS_PER_DAY + hh * 3600 + mm * 60 + ss
    return text[:10], seconds


def query_dates(folded_query: str) -> list[str]:
    """ENGRAM-8: the valid dates written in the folded query, first occurrence order, once."""
    out: list[str] = []
    for m in QUERY_DATE.finditer(folded_query):
        if parse(m.group(0)) is not None and m.group(0) not in out:
            out.append(m.group(0))
    return out


def query_days(query: str, now: str) -> list[str]:
    """ENGRAM-8: the ISO days written in the query, then the days the temporal profile resolves
    in it with `now` as its questionDate (TEMPORAL-5..20), as `YYYY-MM-DD`, each once."""
    out = query_dates(fold(query))
    for hint in expand(query, now).date_hints:
        day = hint.replace("/", "-")
        if day not in out:
            out.append(day)
    return out


def age_days(now_seconds: int, then_seconds: int) -> float:
    """ENGRAM-7: whole seconds apart, clamped at 0, divided by 86400 (one correctly rounded
    division)."""
    return max(0, now_seconds - then_seconds) / SECONDS_PER_DAY
