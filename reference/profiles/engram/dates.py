"""Dates of the engram profile (ENGRAM-6..8): the query's temporal signal; two UTC forms,
seconds from civil fields with integer arithmetic only, so that no date library or time zone
takes part."""

from __future__ import annotations

import re

_FORM = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})(?:T([0-9]{2}):([0-9]{2}):([0-9]{2})Z)?",
                   re.ASCII)
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


_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august",
           "september", "october", "november", "december")
_MONTH = "(" + "|".join(_MONTHS) + ")"
#: ENGRAM-8: engram's temporal signal patterns in engram's order (raya-ac/engram
#: engram/retrieval.py:422-442 at a7527a12fcdffcebbd3d802e0bbf6d631c9c9dfd, MIT), `\d` read as
#: ASCII [0-9], `\b` ASCII, and `\s+` as the one space a normalised query has (E1).
SIGNAL_PATTERNS = (
    re.compile(r"\b([0-9]{4}-[0-9]{2}-[0-9]{2})\b", re.ASCII),
    re.compile(r"\b([0-9]{4}-[0-9]{2})\b", re.ASCII),
    re.compile(r"\b" + _MONTH + r" ([0-9]{4})\b", re.ASCII),
    re.compile(r"\b" + _MONTH + r" ([0-9]{1,2})\b", re.ASCII),
)
#: ENGRAM-8: the year engram's code writes for `month D` (retrieval.py:432), verbatim.
MONTH_DAY_YEAR = "2026"


def _ascii_lower(text: str) -> str:
    return "".join(chr(ord(c) + 32) if "A" <= c <= "Z" else c for c in text)


def query_signal(normalized_query: str) -> str | None:
    """ENGRAM-8: the first pattern that matches the ASCII-lowered normalised query gives the
    one temporal signal: the ISO day or month as written, `YYYY-MM` for `month YYYY`,
    `2026-MM-DD` for `month D`; None when no pattern matches."""
    text = _ascii_lower(normalized_query)
    for index, rx in enumerate(SIGNAL_PATTERNS):
        m = rx.search(text)
        if m is None:
            continue
        if index < 2:
            return m.group(1)
        month = f"{_MONTHS.index(m.group(1)) + 1:02d}"
        if index == 2:
            return f"{m.group(2)}-{month}"
        return f"{MONTH_DAY_YEAR}-{month}-{int(m.group(2)):02d}"
    return None


def age_days(now_seconds: int, then_seconds: int) -> float:
    """ENGRAM-7: whole seconds apart, clamped at 0, divided by 86400 (one correctly rounded
    division)."""
    return max(0, now_seconds - then_seconds) / SECONDS_PER_DAY
