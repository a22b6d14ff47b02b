"""The engram profile (spec/profiles/engram.md): what a port may differ by, and what it may not.

ENGRAM-12 lets `exp` and `log` be 1 ulp from correctly rounded: the reference with either
moved 1 ulp up or down must pass every case of the profile, while a wrong formula must fail
one. The order rule must not flip on that freedom: consecutive boosted results in the cases
are either far apart or equal in every port.
"""

from __future__ import annotations

import datetime
import itertools
import json
import math
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import jsonschema
import pytest

from conformance.adapters.ops import registry
from conformance.judging.cases import Case, load_all
from conformance.judging.compare import check
from conformance.judging.schemas import schemas_dir
from conformance.judging.tolerances import tolerance_for
from reference.data import load_json
from reference.profiles.engram import boost, dates
from reference.profiles.engram.table import as_grouping, classify, table

CASES = [c for c in load_all() if c.id.startswith("profiles/engram/")]
OPS = registry()
SEPARATION = 1e-9


def _run(case: Case) -> tuple[str, Any]:
    try:
        return "ok", OPS[case.op](case.input)
    except Exception as exc:  # an error kind is an answer (OP-2)
        kind = getattr(exc, "kind", None)
        if kind is None:
            raise
        return "error", kind


def _failures() -> list[str]:
    """Ids of the profile's cases the (possibly patched) reference fails, compared as the
    runner compares them (with the op, so TEXT-13's tolerances apply)."""
    failed = []
    for case in CASES:
        status, value = _run(case)
        if "error" in case.expect:
            if status != "error" or value != case.expect["error"]:
                failed.append(case.id)
        elif status != "ok" or check(case.expect, value, case.op) is not None:
            failed.append(case.id)
    return failed


def _ulp(
    fn: Callable[[float], float], direction: float, steps: int = 1
) -> Callable[[float], float]:
    """`fn` moved `steps` ulps towards `direction`, except where it is exact (exp(0), log(1))."""

    def moved(x: float) -> float:
        y = fn(x)
        if y in (0.0, 1.0):
            return y
        for _ in range(steps):
            y = math.nextafter(y, direction)
        return y

    return moved


@contextmanager
def patched(**functions: Callable[[float], float]) -> Iterator[None]:
    saved = {name: getattr(boost, name) for name in functions}
    for name, fn in functions.items():
        setattr(boost, name, fn)
    try:
        yield
    finally:
        for name, fn in saved.items():
            setattr(boost, name, fn)


def test_the_profile_has_cases_and_the_reference_passes_them() -> None:
    """ENGRAM-1..13 and ENGRAM-16..27 are exercised by the profile's own cases, all passing
    on the reference."""
    assert len(CASES) >= 80
    assert _failures() == []


@pytest.mark.parametrize(
    "variant",
    [
        {"exp": _ulp(math.exp, math.inf)},
        {"exp": _ulp(math.exp, -math.inf)},
        {"log": _ulp(math.log, math.inf)},
        {"log": _ulp(math.log, -math.inf)},
        {"exp": _ulp(math.exp, math.inf), "log": _ulp(math.log, -math.inf)},
        {"exp": _ulp(math.exp, math.inf, 2), "log": _ulp(math.log, math.inf, 2)},
        {"exp": _ulp(math.exp, -math.inf, 2), "log": _ulp(math.log, -math.inf, 2)},
    ],
    ids=["exp+1ulp", "exp-1ulp", "log+1ulp", "log-1ulp", "exp+1ulp,log-1ulp",
         "exp+2ulp,log+2ulp", "exp-2ulp,log-2ulp"],
)
def test_a_port_whose_exp_or_log_is_one_ulp_off_passes(variant: dict[str, Any]) -> None:
    """ENGRAM-12: a 1-ulp (or 2-ulp, as Go's math.Exp measured) different `exp`/`log`
    changes emitted bits but passes every case,
    order included. A variant that moves `exp` really changes some emitted bits (so the test
    cannot pass vacuously); a 1-ulp `log` may be absorbed by `1.0 + 0.1 x log`."""
    with patched(**variant):
        assert _failures() == []
        moved = 0
        for case in CASES:
            boosted = case.op == "engram.boost" and "output" in case.expect
            if boosted and check(case.expect, _run(case)[1]) is not None:  # bit-exact
                moved += 1
        assert moved > 0 or "exp" not in variant


@pytest.mark.parametrize(
    "variant",
    [
        {"exp": lambda x: math.exp(x / 0.693 * math.log(2))},  # ln 2 for the seed's 0.693
        {"log": math.log10},  # decimal logarithm
        {"log": lambda x: math.log(max(x - 1.0, 1.0))},  # log(count), log(0) read as 0
        {"exp": lambda x: math.exp(x * 1.0000001)},  # a relative error of 1e-7 in the exponent
    ],
    ids=["ln2-constant", "log10", "log-count", "exp-1e-7"],
)
def test_a_wrong_formula_fails(variant: dict[str, Any]) -> None:
    """ENGRAM-9, ENGRAM-10, ENGRAM-12: the tolerance is far too small to hide a wrong formula."""
    with patched(**variant):
        assert _failures() != []


def _records(case: Case) -> list[dict[str, Any]]:
    status, value = _run(case)
    if status != "ok":
        return []
    if case.op == "engram.boost":
        return list(value["results"])
    if case.op == "engram.search":
        return list(value["trace"]["boosts"])
    return []


def _exact_factors(r: dict[str, Any]) -> bool:
    """No transcendental value decides this record's score: recency 1 or floored well below
    0.5, and access exactly 1 (count 0)."""
    return r["access"] == 1.0 and r["recency"] in (1.0, 0.5)


def test_no_case_puts_near_ties_next_to_each_other() -> None:
    """ENGRAM-11, ENGRAM-12: consecutive boosted scores in every case are either separated by
    more than 1e-9 relative, bit-equal with identical factors, or bit-equal from exact factors
    only; so no port within the tolerance can flip an order the cases check."""
    checked = 0
    for case in CASES:
        records = _records(case)
        for a, b in itertools.pairwise(records):
            checked += 1
            x, y = a["score"], b["score"]
            assert x >= y, case.id
            far = x - y > SEPARATION * max(abs(x), abs(y))
            same = (a["recency"], a["access"]) == (b["recency"], b["access"])
            exact = _exact_factors(a) and _exact_factors(b)
            assert far or same or exact, f"{case.id}: near tie {a['id']} {x!r} / {b['id']} {y!r}"
    assert checked > 20


def test_the_tolerance_applies_only_to_the_exp_log_fields() -> None:
    """ENGRAM-12: recency, access and boosted score have 1e-14; ageDays and the fused score
    handed to the boost stay bit-exact."""
    for field in ("score", "recency", "access"):
        tol = tolerance_for("engram.boost", f"/results/3/{field}")
        assert tol is not None and tol.relative == 1e-14
        tol = tolerance_for("engram.search", f"/trace/boosts/0/{field}")
        assert tol is not None and tol.relative == 1e-14
    assert tolerance_for("engram.boost", "/results/0/ageDays") is None
    assert tolerance_for("engram.search", "/trace/fused/0/score") is None
    assert tolerance_for("engram.search", "/trace/boosts/0/ageDays") is None


def test_table_is_the_seeds_verbatim() -> None:
    """ENGRAM-1: the seed's four sources byte for byte, in its order, and its weight table."""
    data = load_json("profiles/engram/intent.json")
    assert [(p["name"], p["source"]) for p in data["patterns"]] == [
        ("why", r"\b(why|because|reason|cause|led to|resulted in)\b"),
        ("when", r"\b(when|date|time|before|after|during|timeline|history)\b"),
        ("who", r"\b(who|person|people|team|built|created|wrote)\b"),
        ("how", r"\b(how to|steps|procedure|process|workflow|debug|fix)\b"),
    ]
    rows = {k: (v["vector"], v["bm25"], v["graph"]) for k, v in data["weights"].items()}
    assert rows == {"why": (1.0, 0.8, 1.5), "when": (0.8, 1.2, 0.8), "who": (0.8, 0.8, 1.8),
                    "how": (1.2, 1.0, 0.8), "what": (1.0, 1.0, 1.0)}
    assert data["default"] == "what"
    assert "provenance" in data


def test_capturing_groups_only_group() -> None:
    """ENGRAM-2: the seed's `(` is read as `(?:` for the INTENT-3 check; escapes are kept."""
    assert as_grouping(r"\b(a|b)\b") == r"\b(?:a|b)\b"
    assert as_grouping(r"\((?:x)") == r"\((?:x)"
    assert len(table().patterns) == 4


def test_precedence_is_most_matches_then_table_order() -> None:
    """ENGRAM-3: the class with the most matches wins, ties to table order, wherever the
    matches are in the query."""
    assert classify("how to fix the bug before the release").intent == "how"
    assert classify("debug it before friday").intent == "when"
    assert classify("why did the team fix it").matched == ("why", "who", "how")
    assert classify("nothing here").intent == "what"


def test_fusion_is_engrams_arithmetic() -> None:
    """ENGRAM-17: each term is w * (1 / (k + r + 1)), summed over the lists from 0.0; this is
    not w / (k + r + 1) (1.2 / 61 differs from 1.2 * (1 / 61) in the last bit)."""
    from reference.profiles.engram.search import fuse

    lists = {"vector": ["a"], "bm25": ["b", "a"], "graph": [], "hopfield": []}
    weights = {"vector": 1.2, "bm25": 1.0, "graph": 0.8, "hopfield": 0.6}
    got = dict(fuse(lists, weights, 60))
    assert got["a"] == (0.0 + 1.2 * (1.0 / 61)) + 1.0 * (1.0 / 62)
    assert 1.2 * (1.0 / 61) != 1.2 / 61


def test_days_from_civil_agrees_with_the_proleptic_calendar() -> None:
    """ENGRAM-7: integer days from civil equal Python's proleptic Gregorian ordinals."""
    epoch = datetime.date(1970, 1, 1).toordinal()
    day = datetime.date(1, 1, 1)
    while day.year < 9999:
        assert dates.days_from_civil(day.year, day.month, day.day) == day.toordinal() - epoch
        day += datetime.timedelta(days=97)
    assert dates.parse("2026-02-29") is None and dates.parse("2024-02-29") is not None
    assert dates.parse("0000-01-01") is None
    assert dates.age_days(0, 10) == 0.0


def test_metadata_and_the_query_signal() -> None:
    """ENGRAM-6: malformed metadata is absent, never an error; ENGRAM-8: one temporal signal,
    the first of engram's patterns in order, found in the fact date as a substring."""
    assert boost.access_count({"engram.accessCount": "09"}) == 0
    assert boost.access_count({"engram.accessCount": "9007199254740992"}) == 0
    assert boost.access_count({"engram.accessCount": "9007199254740991"}) == 2**53 - 1
    assert dates.query_signal("at 2026-02-14t10:00 or 2026-02-30") == "2026-02-30"
    assert dates.query_signal("at 2026-02-14t10:00") == "2026-02"
    assert dates.query_signal("May 2026 and 2026-01-03") == "2026-01-03"
    assert dates.query_signal("notes of March 2025") == "2025-03"
    assert dates.query_signal("april 3") == "2026-04-03"
    assert dates.query_signal("notes from 3 days ago and yesterday") is None
    f = boost.factors({"engram.factDate": "week of 2026-02-15"}, "2026-02-15", 0, 30.0)
    assert f.date_match and f.recency == 1.0 and f.age_days is None
    assert not boost.factors({"engram.date": "2026-02-15"}, "2026-02-15", 0, 30.0).date_match


def test_recency_and_access_examples() -> None:
    """ENGRAM-9, ENGRAM-10: the chapter's worked numbers."""
    assert boost.recency(0.0, 30.0) == 1.0
    assert boost.recency(30.0, 30.0) == 0.5000735956957677
    assert boost.recency(31.0, 30.0) == 0.5
    assert boost.access(0) == 1.0
    assert boost.access(9) == 1.2302585092994045


def test_outputs_and_traces_match_the_profile_schemas() -> None:
    """ENGRAM-4, ENGRAM-13, ENGRAM-16, ENGRAM-25: every output of the profile's cases, and every
    valid engram.search input, is valid under schemas/profiles/engram/."""
    base = schemas_dir() / "profiles" / "engram"

    def validator(name: str) -> jsonschema.Draft202012Validator:
        return jsonschema.Draft202012Validator(json.loads((base / name).read_text("utf-8")))

    by_op = {"engram.classify": validator("classify.output.schema.json"),
             "engram.boost": validator("boost.output.schema.json"),
             "engram.search": validator("search.output.schema.json")}
    search_input = validator("search.input.schema.json")
    seen = 0
    for case in CASES:
        status, value = _run(case)
        if status != "ok":
            continue
        if case.op in by_op:
            by_op[case.op].validate(value)
            seen += 1
        if case.op == "engram.search":
            search_input.validate(case.input)
    assert seen > 50


def _search(**extra: Any) -> dict[str, Any]:
    from reference.profiles.engram.search import op_search

    docs = [{"id": i, "path": f"{i}.md"} for i in ("a", "b", "c", "h")]
    base = {"query": "notes", "now": "2026-03-01", "documents": docs,
            "legs": {"vector": [{"id": "a"}, {"id": "b"}, {"id": "c"}]}}
    return op_search({**base, **extra})


def test_search_stages_in_engrams_order() -> None:
    """ENGRAM-5, ENGRAM-18: class weights and the fixed Hopfield 0.6 are the fused weights;
    ENGRAM-19: the head is the RRF top n before the boost, the rest dropped; ENGRAM-20: the
    boosts run on the head only; ENGRAM-26: the defaults are engram's config."""
    out = _search(legs={"hopfield": [{"id": "h"}], "vector": [{"id": "a"}]}, rerankCandidates=1)
    assert out["trace"]["weights"] == {"vector": 1.0, "bm25": 1.0, "graph": 1.0, "hopfield": 0.6}
    assert out["trace"]["fused"][1] == {"id": "h", "score": 0.6 * (1.0 / 61)}
    assert out["trace"]["head"] == ["a"] and [r["id"] for r in out["trace"]["boosts"]] == ["a"]
    assert [r["id"] for r in out["results"]] == ["a"]
    assert out["trace"]["threshold"]["minConfidence"] == 0.60


def test_search_cross_encoder_top_k_noise_threshold() -> None:
    """ENGRAM-21: the cross-encoder's scores order the head and become the scores; ENGRAM-22:
    topK cuts after it; ENGRAM-23: deviates added, clamped at 0, re-sorted; ENGRAM-24: the
    threshold after the noise, only with the cross-encoder and minConfidence > 0."""
    out = _search(crossEncoder={"a": 0.7, "b": 0.95, "c": -1.0}, topK=2)
    assert [(r["id"], r["score"]) for r in out["results"]] == [("b", 0.95), ("a", 0.7)]
    out = _search(crossEncoder={"a": 0.7, "b": 0.95, "c": -1.0}, noise={"b": -0.5},
                  minConfidence=0)
    got = [(r["id"], r["score"]) for r in out["results"]]
    assert got == [("a", 0.7), ("b", 0.95 - 0.5), ("c", 0.0)]
    out = _search(crossEncoder={"a": 0.7, "b": 0.95, "c": 0.6}, noise={"c": -0.1})
    assert out["trace"]["threshold"] == {"minConfidence": 0.6, "applied": True, "removed": ["c"]}
    assert _search()["trace"]["threshold"]["applied"] is False


def test_search_leaves_out_what_engram_27_lists() -> None:
    """ENGRAM-27: no exact-match, importance or MLP stage: content never changes the order."""
    docs = [{"id": "a", "path": "a.md", "content": "x"},
            {"id": "b", "path": "b.md", "content": "notes notes notes"}]
    out = _search(documents=docs, legs={"vector": [{"id": "a"}, {"id": "b"}]})
    assert [r["id"] for r in out["results"]] == ["a", "b"]
