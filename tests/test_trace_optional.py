"""TRACE-11: `rules` of an intent adjustment is optional in a trace (schema and comparison)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import jsonschema

from conformance.judging.compare import check
from reference.pipeline import Backends, search
from reference.types import Candidate

SCHEMA = json.loads(
    (Path(__file__).resolve().parent.parent / "schemas" / "trace.schema.json").read_text()
)


class _Index:
    def search_bm25(self, expression: str, limit: int) -> list[Candidate]:
        return [Candidate(id="n1", path="memory/global/user-preference-tea.md", content="tea")]

    def chunks(self) -> None:
        return None


def _reweighted_output() -> dict[str, Any]:
    """A reference `search` whose intent stage adjusts one score (a preference query)."""
    results, trace = search({"query": "recommend tea", "mode": "bm25"}, Backends(index=_Index()))
    output: dict[str, Any] = json.loads(json.dumps({"results": results, "trace": trace}))
    assert output["trace"]["intent"]["adjusted"], "the case must adjust a score"
    return output


def test_a_trace_without_rule_names_is_schema_valid() -> None:
    output = _reweighted_output()
    trace = output["trace"]
    for entry in trace["intent"]["adjusted"]:
        del entry["rules"]
    jsonschema.validate(trace, SCHEMA)


def test_a_port_without_rule_names_matches_the_expected_trace() -> None:
    expected = _reweighted_output()
    port = copy.deepcopy(expected)
    for entry in port["trace"]["intent"]["adjusted"]:
        del entry["rules"]
    assert check({"output": expected}, port, "search") is None


def test_rule_names_a_port_does_write_are_still_compared() -> None:
    expected = _reweighted_output()
    port = copy.deepcopy(expected)
    port["trace"]["intent"]["adjusted"][0]["rules"] = ["not-a-rule"]
    mismatch = check({"output": expected}, port, "search")
    assert mismatch is not None and mismatch.path.endswith("/rules/0")


def test_a_wrong_multiplier_still_fails_without_rule_names() -> None:
    expected = _reweighted_output()
    port = copy.deepcopy(expected)
    entry = port["trace"]["intent"]["adjusted"][0]
    del entry["rules"]
    entry["multiplier"] = entry["multiplier"] * 2
    mismatch = check({"output": expected}, port, "search")
    assert mismatch is not None and mismatch.path.endswith("/multiplier")


def _reweight_expected() -> dict[str, Any]:
    """An `intent_reweight` output with one boosted and one untouched item (INTENT-10)."""
    return {"results": [
        {"id": "m1", "score": 0.03387096774193549, "multiplier": 2.1,
         "rules": ["preference_memory_boost"]},
        {"id": "d1", "score": 0.01639344262295082, "multiplier": 1.0, "rules": []},
    ]}


def test_intent_reweight_output_without_rule_names_matches() -> None:
    """INTENT-10: a port of the anchor has no rule names to give the operation either."""
    port = copy.deepcopy(_reweight_expected())
    for item in port["results"]:
        del item["rules"]
    assert check({"output": _reweight_expected()}, port, "intent_reweight") is None


def test_intent_reweight_rule_names_a_port_writes_are_compared() -> None:
    port = copy.deepcopy(_reweight_expected())
    port["results"][1]["rules"] = ["preference_raw_damp"]
    mismatch = check({"output": _reweight_expected()}, port, "intent_reweight")
    assert mismatch is not None and mismatch.path.startswith("/results/1/rules")


def test_intent_reweight_wrong_score_fails_without_rule_names() -> None:
    port = copy.deepcopy(_reweight_expected())
    del port["results"][0]["rules"]
    port["results"][0]["score"] = 0.0338
    mismatch = check({"output": _reweight_expected()}, port, "intent_reweight")
    assert mismatch is not None and mismatch.path == "/results/0/score"
