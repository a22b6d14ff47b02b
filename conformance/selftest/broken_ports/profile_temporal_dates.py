"""Broken ports of profile temporal's dates (spec/profiles/temporal.md TEMPORAL-2, TEMPORAL-6..12,
TEMPORAL-16, TEMPORAL-18): reading questionDate, the calendar and day arithmetic. Registered on
import."""

from __future__ import annotations

import re
from types import SimpleNamespace
from typing import Any

from conformance.selftest.broken_ports.patching import _mod, mutant, set_attr, set_entry, swap
from reference.types import InvalidInput


@mutant(
    "temporal-question-date-non-string-ignored",
    "TEMPORAL-2",
    "a questionDate that is not a string (true, a list, an object) is treated as absent",
    seams=("reference.profiles.temporal._question_date",),
)
def _temporal_non_string_ignored() -> None:
    def question_date(obj: dict[str, Any], where: str) -> str | None:
        value = obj.get("questionDate")
        return value if isinstance(value, str) else None

    set_attr(_mod("reference.profiles.temporal"), "_question_date", question_date)


@mutant(
    "temporal-null-question-date-rejected",
    "TEMPORAL-2",
    "questionDate null is invalid_input (a strict string check), not absent (OP-5)",
    seams=("reference.profiles.temporal._question_date",),
)
def _temporal_null_rejected() -> None:
    def question_date(obj: dict[str, Any], where: str) -> str | None:
        value = obj.get("questionDate")
        if "questionDate" in obj and not isinstance(value, str):
            raise InvalidInput(f"{where}questionDate must be a string")
        return value

    set_attr(_mod("reference.profiles.temporal"), "_question_date", question_date)


def _wrap_parse(transform: Any) -> None:
    """Replace parse_question_date by `transform(original, value)`."""
    ad = _mod("reference.profiles.temporal.anchor_date")
    original = ad.parse_question_date

    def parse(value: str) -> int | None:
        return transform(original, value)  # type: ignore[no-any-return]

    swap(ad, "parse_question_date", parse)


_MIXED = re.compile(r"\s*[0-9]{4}([-/])[0-9]{2}(?!\1)[-/]")


@mutant(
    "temporal-separators-must-match",
    "TEMPORAL-6",
    "form A's two separators must be the same (a backreference), so 2026/04-18 is rejected",
    seams=("reference.profiles.temporal.anchor_date.parse_question_date",),
)
def _temporal_separators_match() -> None:
    _wrap_parse(lambda original, value: None if _MIXED.match(value) else original(value))


@mutant(
    "temporal-question-date-only-trimmed",
    "TEMPORAL-6",
    "questionDate is only trimmed: whitespace runs inside it are not cut to one space",
    seams=("reference.profiles.temporal.anchor_date.parse_question_date",),
)
def _temporal_only_trimmed() -> None:
    text = _mod("reference.text")

    def parse(original: Any, value: str) -> int | None:
        pieces = text.split_whitespace(value)
        trimmed = value.strip("".join(text.WHITESPACE))
        return original(value) if " ".join(pieces) == trimmed else None

    _wrap_parse(parse)


def _cut_with(split: Any) -> None:
    """questionDate cut into pieces by `split` (a port's own whitespace set), not TEXT-4's."""
    set_attr(
        _mod("reference.profiles.temporal.anchor_date"),
        "text",
        SimpleNamespace(split_whitespace=split),
    )


#: JavaScript's \s (and String.prototype.trim): U+FEFF in, U+0085 out.
_JS_SPACE = re.compile(
    "[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+"
)


@mutant(
    "temporal-question-date-python-split",
    "TEMPORAL-6",
    "questionDate cut with Python's str.split(), which also splits at U+001C..U+001F",
    seams=("reference.profiles.temporal.anchor_date.text",),
)
def _temporal_python_split() -> None:
    _cut_with(str.split)


@mutant(
    "temporal-question-date-js-whitespace",
    "TEMPORAL-6",
    "questionDate cut at JavaScript's \\s (trim()): U+FEFF is whitespace, U+0085 is not",
    seams=("reference.profiles.temporal.anchor_date.text",),
)
def _temporal_js_whitespace() -> None:
    _cut_with(lambda value: [p for p in _JS_SPACE.split(value) if p])


_OFFSET = re.compile(r"(T[0-9:.]+)([-+][0-9]{2}):([0-9]{2})$")


@mutant(
    "temporal-offset-minutes-ignored",
    "TEMPORAL-7",
    "only an offset's hours are applied: +05:30 moves the instant by five hours",
    seams=("reference.profiles.temporal.anchor_date.parse_question_date",),
)
def _temporal_offset_minutes() -> None:
    _wrap_parse(lambda original, value: original(_OFFSET.sub(r"\1\2:00", value.strip())))


@mutant(
    "temporal-offset-sign-inverted",
    "TEMPORAL-7",
    "the offset is added to the local time instead of subtracted (UTC = local + offset)",
    seams=("reference.profiles.temporal.anchor_date.parse_question_date",),
)
def _temporal_offset_sign() -> None:
    flip = {"+": "-", "-": "+"}

    def parse(original: Any, value: str) -> int | None:
        m = _OFFSET.search(value.strip())
        if m is None:
            return original(value)  # type: ignore[no-any-return]
        sign = flip[m[2][0]]
        return original(_OFFSET.sub(rf"\g<1>{sign}{m[2][1:]}:\3", value.strip()))  # type: ignore[no-any-return]

    _wrap_parse(parse)


@mutant(
    "temporal-offset-truncating-division",
    "TEMPORAL-7",
    "the day shift is the truncating minutes / 1440 (Go, Java int division): a negative "
    "UTC time stays on the local day",
    seams=("reference.profiles.temporal.anchor_date.parse_question_date",),
)
def _temporal_offset_truncating() -> None:
    ad = _mod("reference.profiles.temporal.anchor_date")
    civil = _mod("reference.profiles.temporal.civil")
    original = ad.parse_question_date

    def parse(value: str) -> int | None:
        s = " ".join(_mod("reference.text").split_whitespace(value))
        b = ad._FORM_B.fullmatch(s)
        if b is None:
            return original(value)  # type: ignore[no-any-return]
        day = ad._date(b[1], b[2], b[3])
        minutes = ad._clock(b[4], b[5], b[6])
        if day is None or minutes is None:
            return None
        zone = b[7]
        if zone is not None and zone != "Z":
            oh, om = int(zone[1:3]), int(zone[4:6])
            if oh > 23 or om > 59:
                return None
            minutes -= (oh * 60 + om) * (1 if zone[0] == "+" else -1)
        day += int(minutes / 1440)
        return int(day) if civil.in_range(day) else None

    swap(ad, "parse_question_date", parse)


@mutant(
    "temporal-form-a-time-unchecked",
    "TEMPORAL-8",
    "form A's time of day is ignored without being checked, so 24:00 and 10:00:60 are accepted",
    seams=("reference.profiles.temporal.anchor_date.parse_question_date",),
)
def _temporal_form_a_time_unchecked() -> None:
    ad = _mod("reference.profiles.temporal.anchor_date")
    text = _mod("reference.text")

    def parse(original: Any, value: str) -> int | None:
        a = ad._FORM_A.fullmatch(" ".join(text.split_whitespace(value)))
        return ad._date(a[1], a[2], a[3]) if a else original(value)  # type: ignore[no-any-return]

    _wrap_parse(parse)


@mutant(
    "temporal-leap-every-fourth-year",
    "TEMPORAL-9",
    "every year divisible by 4 is a leap year (no century rule): 1900-02-29 is accepted",
    seams=("reference.profiles.temporal.civil.is_leap",),
)
def _temporal_leap_every_fourth() -> None:
    set_attr(_mod("reference.profiles.temporal.civil"), "is_leap", lambda year: year % 4 == 0)


@mutant(
    "temporal-leap-no-400-rule",
    "TEMPORAL-9",
    "centuries are never leap years (the 400 exception forgotten): 2000-02-29 is rejected",
    seams=("reference.profiles.temporal.civil.is_leap",),
)
def _temporal_leap_no_400() -> None:
    set_attr(
        _mod("reference.profiles.temporal.civil"),
        "is_leap",
        lambda year: year % 4 == 0 and year % 100 != 0,
    )


@mutant(
    "temporal-count-digits-not-significant",
    "TEMPORAL-11",
    "a count with more than seven digits is out of range, leading zeros counted "
    "(00000001 days ago stays)",
    seams=("reference.profiles.temporal.expand._count",),
)
def _temporal_count_digits() -> None:
    exp = _mod("reference.profiles.temporal.expand")
    original = exp._count

    def count(word: str) -> int | None:
        if word.isascii() and word.isdigit() and len(word) > 7:
            return None
        return original(word)  # type: ignore[no-any-return]

    set_attr(exp, "_count", count)


@mutant(
    "temporal-last-week-window-clipped",
    "TEMPORAL-11",
    "last week's window is clipped to the calendar: its in-range days are hinted instead of "
    "the phrase staying",
    seams=("reference.profiles.temporal.expand._RESOLVERS",),
)
def _temporal_last_week_clipped() -> None:
    exp = _mod("reference.profiles.temporal.expand")
    civil = _mod("reference.profiles.temporal.civil")

    def last_week(match: str, anchor: int) -> Any:
        days = [anchor - k for k in range(7, 0, -1) if civil.in_range(anchor - k)]
        if not days:
            return None
        hints = [civil.slash(d) for d in days]
        return f"({hints[0]} to {hints[-1]})", hints

    set_entry(exp, "_RESOLVERS", "last_week", last_week)


@mutant(
    "temporal-month-as-30-days",
    "TEMPORAL-16",
    "N months ago is 30·N days back, not N calendar months",
    seams=("reference.profiles.temporal.civil.months_back",),
)
def _temporal_month_30() -> None:
    civil = _mod("reference.profiles.temporal.civil")

    def months_back(anchor: int, count: int) -> int | None:
        day = anchor - 30 * count
        return day if civil.in_range(day) else None

    set_attr(civil, "months_back", months_back)


@mutant(
    "temporal-months-date-utc",
    "TEMPORAL-12",
    "N months ago built with JavaScript Date.UTC(y, m - 1 - N, d), which reads a target year "
    "0..99 as 1900..1999",
    seams=("reference.profiles.temporal.civil.months_back",),
)
def _temporal_months_date_utc() -> None:
    civil = _mod("reference.profiles.temporal.civil")
    original = civil.months_back

    def months_back(anchor: int, count: int) -> int | None:
        day = original(anchor, count)
        if day is None:
            return None
        y = civil.civil_from_days(day)[0]
        if y >= 100:
            return day  # type: ignore[no-any-return]
        y0, m0, d0 = civil.civil_from_days(anchor)
        index = y0 * 12 + (m0 - 1) - count
        ty, tm = index // 12, index % 12 + 1
        out = civil.days_from_civil(ty + 1900, tm, 1) + d0 - 1
        return out if civil.in_range(out) else None

    set_attr(civil, "months_back", months_back)


@mutant(
    "temporal-year-space-padded",
    "TEMPORAL-13",
    "the year formatted with a width but no zero (Go %4d, printf): year 50 is written '  50'",
    seams=("reference.profiles.temporal.civil.slash",),
)
def _temporal_year_space_padded() -> None:
    civil = _mod("reference.profiles.temporal.civil")

    def slash(days: int) -> str:
        y, m, d = civil.civil_from_days(days)
        return f"{y:4d}/{m:02d}/{d:02d}"

    set_attr(civil, "slash", slash)


@mutant(
    "temporal-last-week-includes-anchor",
    "TEMPORAL-18",
    "last week is the seven days ending on the anchor day (anchor − 6 .. anchor)",
    seams=("reference.profiles.temporal.expand._RESOLVERS",),
)
def _temporal_last_week_anchor() -> None:
    exp = _mod("reference.profiles.temporal.expand")
    civil = _mod("reference.profiles.temporal.civil")

    def last_week(match: str, anchor: int) -> Any:
        days = [anchor - k for k in range(6, -1, -1)]
        if not civil.in_range(days[0]):
            return None
        hints = [civil.slash(d) for d in days]
        return f"({hints[0]} to {hints[-1]})", hints

    set_entry(exp, "_RESOLVERS", "last_week", last_week)
