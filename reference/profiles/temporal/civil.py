"""Calendar arithmetic on day numbers, without a date library (spec/profiles/temporal.md).

A date is a proleptic Gregorian (year, month, day); its day number counts days from
1970-01-01 (TEMPORAL-9). Every division here is floored, as the chapter writes it, so dates
before 1970 work the same in every language (TEMPORAL-10).
"""

from __future__ import annotations

Civil = tuple[int, int, int]


def is_leap(year: int) -> bool:
    """TEMPORAL-9: divisible by 4, except centuries not divisible by 400."""
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)


def days_in_month(year: int, month: int) -> int:
    """TEMPORAL-9: 28..31 days; February has 29 in a leap year."""
    if month == 2:
        return 29 if is_leap(year) else 28
    return 30 if month in (4, 6, 9, 11) else 31


def days_from_civil(year: int, month: int, day: int) -> int:
    """TEMPORAL-9: the day number of a date (March-based years, 400-year eras)."""
    y = year - 1 if month <= 2 else year
    era = y // 400
    yoe = y - era * 400
    mp = month - 3 if month > 2 else month + 9
    doy = (153 * mp + 2) // 5 + day - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def civil_from_days(days: int) -> Civil:
    """TEMPORAL-9: the inverse of days_from_civil."""
    z = days + 719468
    era = z // 146097
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    day = doy - (153 * mp + 2) // 5 + 1
    month = mp + 3 if mp < 10 else mp - 9
    year = yoe + era * 400 + (1 if month <= 2 else 0)
    return (year, month, day)


def weekday(days: int) -> int:
    """TEMPORAL-10: 0 = Sunday .. 6 = Saturday; 1970-01-01 was a Thursday (4). Floored mod."""
    return (days + 4) % 7


MIN_DAY = days_from_civil(1, 1, 1)
MAX_DAY = days_from_civil(9999, 12, 31)


def in_range(days: int) -> bool:
    """TEMPORAL-11: only 0001-01-01 .. 9999-12-31 are dates."""
    return MIN_DAY <= days <= MAX_DAY


def months_back(anchor: int, count: int) -> int | None:
    """TEMPORAL-12: `count` calendar months before the anchor with the anchor's roll-over: the
    anchor's day-of-month is laid on the target month and an overflow runs into the next
    month (2026-03-31 minus one month is 2026-03-03). None when out of range."""
    year, month, day = civil_from_days(anchor)
    index = year * 12 + (month - 1) - count
    ty, tm = index // 12, index % 12 + 1
    if ty < 1:
        return None
    out = days_from_civil(ty, tm, 1) + day - 1
    return out if in_range(out) else None


def slash(days: int) -> str:
    """TEMPORAL-13: YYYY/MM/DD, the year zero-padded to four digits."""
    y, m, d = civil_from_days(days)
    return f"{y:04d}/{m:02d}/{d:02d}"
