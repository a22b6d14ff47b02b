"""LADDER-16: what a rung issued, an optional `expressions` on attempt rows, judged by the rule.

A port that lists the queries of each rung passes when each searched row lists its own
expression (by meaning) and each skipped row none; a port with a plan of several queries on a
rung fails on that member, with LADDER-16 as the reason, and its honest trace still validates.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import jsonschema

from conformance.adapters.ops import registry
from conformance.judging.cases import load_file
from conformance.judging.compare import check
from reference.data import kit_root

CASES = kit_root() / "golden" / "ladder" / "rung-plan.yaml"
SCHEMA = json.loads((kit_root() / "schemas" / "trace.schema.json").read_text(encoding="utf-8"))


def _case(name: str) -> Any:
    found = [c for c in load_file(Path(CASES)) if c.id == f"ladder/rung-plan/{name}"]
    assert found, name
    return found[0]


def _output(case: Any) -> dict[str, Any]:
    out: dict[str, Any] = registry()["search"](case.input)
    return copy.deepcopy(out)


def _list(out: dict[str, Any], plan: Any) -> dict[str, Any]:
    for row in out["trace"]["bm25"]["attempts"]:
        row["expressions"] = plan(row)
    return out


def test_the_reference_lists_nothing_and_passes() -> None:
    case = _case("one-query-per-rung")
    out = _output(case)
    assert all("expressions" not in r for r in out["trace"]["bm25"]["attempts"])
    assert check(case.expect, out, case.op) is None


def test_an_honest_list_passes_and_validates() -> None:
    """[expression] when searched, [] when not: the rule, so the case passes."""
    for name in ("one-query-per-rung", "skipped-rows-issue-none"):
        case = _case(name)
        out = _list(_output(case), lambda r: [r["expression"]] if r["searched"] else [])
        jsonschema.validate(out["trace"], SCHEMA)
        assert check(case.expect, out, case.op) is None, name


def test_items_are_judged_by_meaning() -> None:
    """An FTS5 item spelled otherwise but matching the same rows passes (DSL-23)."""
    case = _case("one-query-per-rung")
    out = _list(_output(case), lambda r: [r["expression"]] if r["searched"] else [])
    row = out["trace"]["bm25"]["attempts"][1]
    assert row["rung"] == "strongest_term"
    row["expressions"] = ["kubernetes"]  # the anchor's bare spelling of "kubernetes"
    assert check(case.expect, out, case.op) is None


def test_a_plan_of_several_queries_fails_on_the_rule_not_the_schema() -> None:
    case = _case("one-query-per-rung")
    out = _list(_output(case), lambda r: [r["expression"], '"kubernetes" OR "deployment"']
                if r["searched"] else [])
    jsonschema.validate(out["trace"], SCHEMA)
    mismatch = check(case.expect, out, case.op)
    assert mismatch is not None
    assert "/attempts/" in mismatch.path and "expressions" in mismatch.path
    assert mismatch.reason.startswith("LADDER-16")


def test_a_skipped_row_that_lists_its_expression_fails() -> None:
    case = _case("skipped-rows-issue-none")
    out = _list(_output(case), lambda r: [r["expression"]])
    mismatch = check(case.expect, out, case.op)
    assert mismatch is not None and mismatch.reason.startswith("LADDER-16")


def _first_pass_bounds(node: Any) -> list[Any]:
    """Every `maxItems` given to a `firstPass` property anywhere in the schema."""
    found: list[Any] = []
    if isinstance(node, dict):
        props = node.get("properties")
        if isinstance(props, dict) and isinstance(props.get("firstPass"), dict):
            found.append(props["firstPass"].get("maxItems"))
        for value in node.values():
            found += _first_pass_bounds(value)
    elif isinstance(node, list):
        for value in node:
            found += _first_pass_bounds(value)
    return found


def test_first_pass_has_no_schema_cap() -> None:
    """FANOUT-21: the cap of 4 is a rule checked by cases, not a schema bound (only a leg
    that did not run is held to `maxItems: 0`)."""
    assert set(_first_pass_bounds(SCHEMA)) == {None, 0}
