"""Profile `temporal` (spec/profiles/temporal.md): the calendar against independent oracles
(Python's datetime, JavaScript's setUTCMonth), the data file against the anchor's literals,
questionDate against datetime's parser, and the JavaScript port against the reference on
generated queries."""

from __future__ import annotations

import datetime
import json
import random
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from conformance.adapters.ops.pipeline import op_search
from reference.data import kit_root, load_json
from reference.profiles import discover
from reference.profiles.temporal import civil, op_expand
from reference.profiles.temporal.anchor_date import parse_question_date
from reference.profiles.temporal.expand import expand
from reference.profiles.temporal.pipeline import parse_request
from reference.profiles.temporal.recognisers import DATA_FILE, NAMES
from reference.types import InvalidInput

ROOT = Path(__file__).resolve().parent.parent
EPOCH = datetime.date(1970, 1, 1).toordinal()
SCHEMAS = kit_root() / "schemas" / "profiles" / "temporal"


def portable_from_anchor(literal: str) -> str:
    """TEMPORAL-4: the anchor's literal /body/gi -> body with `\\d` as `[0-9]`, `(` as `(?:`."""
    body = literal[1 : literal.rindex("/")]
    return body.replace("\\d", "[0-9]").replace("(", "(?:")


def _day(d: datetime.date) -> int:
    return d.toordinal() - EPOCH


def _sample_dates(n: int, seed: int) -> list[datetime.date]:
    rng = random.Random(seed)
    lo, hi = datetime.date.min.toordinal(), datetime.date.max.toordinal()
    edges = [lo, lo + 1, hi - 1, hi, EPOCH - 1, EPOCH, datetime.date(2000, 2, 29).toordinal()]
    return [datetime.date.fromordinal(o) for o in edges + [rng.randint(lo, hi) for _ in range(n)]]


# -- the calendar (TEMPORAL-9, TEMPORAL-10, TEMPORAL-11, TEMPORAL-13) ----------------------------


def test_days_from_civil_agrees_with_datetime_over_the_whole_range() -> None:
    """TEMPORAL-9: both directions, for 0001-01-01..9999-12-31, against datetime's ordinals."""
    for d in _sample_dates(20000, 1):
        assert civil.days_from_civil(d.year, d.month, d.day) == _day(d)
        assert civil.civil_from_days(_day(d)) == (d.year, d.month, d.day)


def test_leap_years_and_month_lengths_agree_with_datetime() -> None:
    """TEMPORAL-9: 2000 is leap, 2100 is not; every month length of 400 years."""
    for year in range(1600, 2001):
        for month in range(1, 13):
            nxt = datetime.date(year + (month == 12), month % 12 + 1, 1)
            assert civil.days_in_month(year, month) == (nxt - datetime.date(year, month, 1)).days


def test_weekday_is_sunday_first_and_floored_before_1970() -> None:
    """TEMPORAL-10: 0 = Sunday, also for negative day numbers (floored mod)."""
    for d in _sample_dates(5000, 2):
        assert civil.weekday(_day(d)) == d.isoweekday() % 7
    assert civil.weekday(-3) == 1  # 1969-12-29 was a Monday; a truncating % gives -3 + 4 = 1 too
    assert civil.weekday(-5) == 6  # 1969-12-27, a Saturday; truncating % would give -1


def test_range_is_year_one_to_9999() -> None:
    """TEMPORAL-11: exactly datetime's range."""
    assert _day(datetime.date.min) == civil.MIN_DAY
    assert _day(datetime.date.max) == civil.MAX_DAY
    assert civil.months_back(_day(datetime.date(1, 12, 31)), 12) is None


def test_slash_pads_the_year_to_four_digits() -> None:
    """TEMPORAL-13."""
    assert civil.slash(_day(datetime.date(50, 3, 3))) == "0050/03/03"
    assert civil.slash(_day(datetime.date(9999, 12, 31))) == "9999/12/31"


NODE_MONTHS = """
let text = '';
process.stdin.on('data', (c) => { text += c; });
process.stdin.on('end', () => {
  const out = JSON.parse(text).map(([iso, n]) => {
    const d = new Date(iso + 'T00:00:00Z');
    d.setUTCMonth(d.getUTCMonth() - n);
    return d.toISOString().slice(0, 10);
  });
  process.stdout.write(JSON.stringify(out));
});
"""


def test_months_back_is_javascripts_set_utc_month() -> None:
    """TEMPORAL-12: the anchor's own primitive, JavaScript setUTCMonth, run by Node, is the
    oracle (years 1000..9999, where its ISO output has four digits and no range limit bites)."""
    rng = random.Random(3)
    pairs: list[tuple[str, int]] = []
    for _ in range(3000):
        d = datetime.date.fromordinal(
            rng.randint(datetime.date(1100, 1, 1).toordinal(), datetime.date.max.toordinal())
        )
        if rng.random() < 0.5:  # bias towards month ends, where the roll-over happens
            d = d.replace(day=max(28, min(d.day, civil.days_in_month(d.year, d.month))))
        pairs.append((d.isoformat(), rng.choice([0, 1, 2, 3, 11, 12, 13, 25, 48, 1199])))
    done = subprocess.run(
        ["node", "-e", NODE_MONTHS], input=json.dumps(pairs), capture_output=True, text=True,
        check=True,
    )
    theirs = json.loads(done.stdout)
    ours = []
    for iso, n in pairs:
        out = civil.months_back(_day(datetime.date.fromisoformat(iso)), n)
        assert out is not None
        ours.append(civil.slash(out).replace("/", "-"))
    assert [p for p, a, b in zip(pairs, ours, theirs, strict=True) if a != b] == []


# -- the data file (TEMPORAL-3, TEMPORAL-4) ------------------------------------------------------


def test_data_file_lists_the_four_recognisers_in_order() -> None:
    """TEMPORAL-3."""
    data = load_json(DATA_FILE)
    assert tuple(r["name"] for r in data["recognisers"]) == NAMES
    assert data["weekdays"][0] == "sunday" and len(data["weekdays"]) == 7
    assert data["provenance"]["commit"] == "22a586e"


def test_portable_sources_are_derived_from_the_anchor_literals() -> None:
    """TEMPORAL-4: source = the literal's body, \\d as [0-9], ( as (?:; no capture, no \\d."""
    for r in load_json(DATA_FILE)["recognisers"]:
        assert r["anchorLiteral"].endswith("/gi") and r["flags"] == "i"
        assert r["source"] == portable_from_anchor(r["anchorLiteral"])
        assert "\\d" not in r["source"] and re.search(r"\((?!\?:)", r["source"]) is None


# -- questionDate (TEMPORAL-5..TEMPORAL-8) -------------------------------------------------------


def test_form_a_accepts_exactly_the_dates_datetime_accepts() -> None:
    """TEMPORAL-6, TEMPORAL-8: every YYYY-MM-DD with fields in 0000..9999/00..13/00..32."""
    rng = random.Random(4)
    for _ in range(20000):
        y, m, d = rng.randint(0, 9999), rng.randint(0, 13), rng.randint(0, 32)
        text = f"{y:04d}{rng.choice('-/')}{m:02d}{rng.choice('-/')}{d:02d}"
        try:
            expected: int | None = _day(datetime.date(y, m, d))
        except ValueError:
            expected = None
        assert parse_question_date(text) == expected, text


def test_form_a_time_is_checked_and_ignored() -> None:
    """TEMPORAL-6, TEMPORAL-8: the day is the date written; 24:00 and :60 are not times."""
    day = _day(datetime.date(2026, 4, 18))
    assert parse_question_date("2026/04/18 (Xyz) 23:59:59") == day
    for bad in ("2026/04/18 24:00", "2026/04/18 10:60", "2026/04/18 10:00:60", "2026/04/18 (Sat)x"):
        assert parse_question_date(bad) is None


def test_form_b_offsets_agree_with_datetime() -> None:
    """TEMPORAL-7: the UTC date of an ISO instant with an offset, against datetime."""
    rng = random.Random(5)
    for _ in range(5000):
        d = datetime.datetime(
            rng.randint(2, 9998), rng.randint(1, 12), rng.randint(1, 28), rng.randint(0, 23),
            rng.randint(0, 59), rng.randint(0, 59),
        )
        minutes = rng.randint(-23 * 60 - 59, 23 * 60 + 59)
        sign = "+" if minutes >= 0 else "-"
        zone = f"{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"
        # not strftime: its %Y does not pad years below 1000 on glibc (TEMPORAL-13's trap)
        text = f"{d.year:04d}-{d.month:02d}-{d.day:02d}T{d:%H:%M:%S}{zone}"
        utc = datetime.datetime.fromisoformat(text).astimezone(datetime.UTC)
        assert parse_question_date(text) == _day(utc.date()), text


def test_the_profile_never_reads_the_clock() -> None:
    """TEMPORAL-5: no module of the profile imports time or datetime."""
    package = ROOT / "reference" / "profiles" / "temporal"
    for path in package.glob("*.py"):
        source = path.read_text(encoding="utf-8")
        assert re.search(r"^\s*(?:import|from)\s+(?:time|datetime)\b", source, re.M) is None, path


# -- the rewrite (TEMPORAL-2, TEMPORAL-14..TEMPORAL-20) ------------------------------------------

PHRASES = [
    "today", "yesterday", "Yesterday", "last week", "LAST WEEK", "last monday", "last Sunday",
    "blast fridays", "3 days ago", "a week ago", "an month ago", "twelve months ago",
    "007 weeks ago", "1 month ago", "25 months ago", "99999999 days ago", "first", "before",
    "most recent", "latest", "last time", "laſt monday", "FRİDAY", "last frıday", "wee\u212a",
    "\u0130", "and", "the", "notes", "2\u00a0days ago", "\u200b", "  ", "\t", "ago", "days",
]


def _queries(n: int, seed: int) -> list[tuple[str, str | None]]:
    rng = random.Random(seed)
    anchors = [d.isoformat() for d in _sample_dates(60, seed)] + [
        "2026-03-31", "2024-02-29", "2026-04-13 (Mon)", "1969-12-31", "0001-01-01", "bad", "",
    ]
    out: list[tuple[str, str | None]] = []
    for _ in range(n):
        words = [rng.choice(PHRASES) for _ in range(rng.randint(0, 6))]
        out.append((" ".join(words), rng.choice([*anchors, None])))
    return out


@pytest.mark.parametrize("seed", [6, 7])
def test_expansion_only_inserts_suffixes_and_a_note(seed: int) -> None:
    """TEMPORAL-14, TEMPORAL-17, TEMPORAL-19, TEMPORAL-20: removing the inserted suffixes and
    the note gives back the normalised query; resolved iff hints; hints are unique dates."""
    from reference.text import normalise

    suffix = re.compile(r" \((?:around )?[0-9]{4}/[0-9]{2}/[0-9]{2}(?: to [0-9/]{10})?\)")
    note = re.compile(r" \[Note: look for the (?:earliest|most recently) dated event\]$")
    for query, anchor in _queries(3000, seed):
        e = expand(query, anchor)
        assert e.resolved == bool(e.date_hints)
        assert len(set(e.date_hints)) == len(e.date_hints)
        if not e.resolved:
            assert (e.expanded_query, e.augmented_query) == (query, query)
            continue
        assert suffix.sub("", note.sub("", e.expanded_query)) == normalise(query)
        assert e.augmented_query.startswith(normalise(query) + ' "')
        for hint in e.date_hints:
            assert f'"{hint}" "{hint.replace("/", "-")}"' in e.augmented_query


def test_case_folding_is_ascii_only() -> None:
    """TEMPORAL-15: U+017F, U+0131 and U+0130 never match; upper-case ASCII does."""
    anchor = "2026-04-18"
    assert expand("LAST FRIDAY", anchor).date_hints == ["2026/04/17"]
    for query in ("laſt friday", "last frıday", "LAST FRİDAY"):
        assert not expand(query, anchor).resolved


def test_relative_time_counts_and_units() -> None:
    """TEMPORAL-16: counts are ASCII decimal or count words; the unit picks days/weeks/months."""
    hints = expand("an week ago, 0010 days ago, two months ago", "2026-04-18").date_hints
    assert hints == ["2026/04/11", "2026/04/08", "2026/02/18"]


def test_last_week_and_last_weekday() -> None:
    """TEMPORAL-18: seven ascending hints ending the day before; the anchor day never chosen."""
    e = expand("last week", "2026-03-01")
    assert e.date_hints[0] == "2026/02/22" and e.date_hints[-1] == "2026/02/28"
    assert expand("last sunday", "2026-03-01 (Sun)").date_hints == ["2026/02/22"]


def test_operation_output_and_errors() -> None:
    """TEMPORAL-2: the four fields, valid against expand.schema.json; type errors only."""
    schema = json.loads((SCHEMAS / "expand.schema.json").read_text(encoding="utf-8"))
    output = Draft202012Validator(
        {k: v for k, v in schema.items() if k != "oneOf"} | {"$ref": "#/$defs/output"}
    )
    out = op_expand({"query": "today", "questionDate": "2026-04-18"})
    assert list(out) == ["expandedQuery", "dateHints", "resolved", "augmentedQuery"]
    assert list(output.iter_errors(out)) == []
    for bad in ({"query": 1}, {"query": "x", "questionDate": 1}, {"questionDate": "2026-04-18"}):
        with pytest.raises(InvalidInput):
            op_expand(bad)


# -- the profile and the pipeline (TEMPORAL-1, TEMPORAL-21) --------------------------------------


def test_reference_declares_the_chapter_version() -> None:
    """TEMPORAL-1: profile:temporal 1.0.0, the version the chapter states."""
    chapter = (kit_root() / "spec" / "profiles" / "temporal.md").read_text(encoding="utf-8")
    assert "Profile version **1.0.0**." in chapter
    assert discover()["temporal"].version == "1.0.0"


def _search(profiles: Any) -> dict[str, Any]:
    request = {"query": "notes from yesterday", "mode": "bm25", "profiles": profiles}
    return op_search({"request": request, "backends": {"bm25": {"responses": {}}}})


def test_pipeline_rewrites_and_traces_under_the_schema() -> None:
    """TEMPORAL-21: the query parsed is augmentedQuery; trace.profiles.temporal validates."""
    trace = _search({"temporal": {"questionDate": "2026-04-18"}})["trace"]
    assert trace["query"]["normalised"] == 'notes from yesterday "2026/04/17" "2026-04-17"'
    schema = json.loads((SCHEMAS / "trace.schema.json").read_text(encoding="utf-8"))
    assert list(Draft202012Validator(schema).iter_errors(trace["profiles"]["temporal"])) == []
    assert trace["profiles"]["temporal"]["questionDate"] == "2026-04-18"


def test_pipeline_without_the_profile_is_unchanged() -> None:
    """TEMPORAL-1 (PROFILE-5): a null member enables nothing, and the trace has no profiles."""
    trace = _search({"temporal": None})["trace"]
    assert "profiles" not in trace
    assert trace["query"]["normalised"] == "notes from yesterday"


def test_request_options_are_checked() -> None:
    """TEMPORAL-21: only questionDate, a string or null."""
    assert parse_request({}).question_date is None
    for bad in ({"questiondate": "2026-04-18"}, {"questionDate": []}):
        with pytest.raises(InvalidInput):
            parse_request(bad)


# -- the JavaScript port agrees on generated queries (TEMPORAL-14..TEMPORAL-20) -----------------

NODE_EXPAND = """
import { expandTemporal } from './src/temporal.mjs';

let text = '';
process.stdin.on('data', (c) => { text += c; });
process.stdin.on('end', () => {
  const out = JSON.parse(text).map(([q, d]) => expandTemporal(q, d));
  process.stdout.write(JSON.stringify(out));
});
"""


def test_js_port_expands_like_the_reference() -> None:
    """Differential: 4000 generated queries and anchors, byte-equal outputs."""
    inputs = _queries(4000, 8)
    done = subprocess.run(
        ["node", "--input-type=module", "-e", NODE_EXPAND], input=json.dumps(inputs),
        capture_output=True, text=True, check=True, cwd=ROOT / "ports/js",
    )
    theirs = json.loads(done.stdout)
    ours = [expand(q, d).to_json() for q, d in inputs]
    assert [i for i, (a, b) in enumerate(zip(ours, theirs, strict=True)) if a != b] == []
