"""Spec laws checked on generated inputs through the adapter protocol
(conformance/commands/properties.py).

The reference adapter satisfies every property (RRF-11, RRF-6, RRF-8, RERANK-3, RERANK-11,
LADDER-2, INTENT-7, INTENT-9); broken ports fail one, and the shrunk counterexample comes out as
a golden case that is schema-valid and fails the broken port when run like any other case.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from conformance import cli
from conformance.adapters.adapter_process import python_command
from conformance.commands.properties import PROPERTIES, PropertyResult, run_properties
from conformance.judging.cases import load_text
from conformance.running.runner import REFERENCE_ADAPTER_MODULE, run_suite
from conformance.selftest.mutant_adapter import MODULE

EXAMPLES = 40


def mutant(name: str) -> list[str]:
    return [sys.executable, "-m", MODULE, name]


@pytest.fixture(scope="module")
def reference_results() -> dict[str, PropertyResult]:
    results = run_properties(python_command(REFERENCE_ADAPTER_MODULE), EXAMPLES)
    return {r.name: r for r in results}


@pytest.fixture(scope="module")
def tail_resorted() -> PropertyResult:
    """RERANK-3: a port that re-sorts the tail by score."""
    return run_properties(mutant("rerank-tail-resorted"), EXAMPLES, ["rerank-tail"])[0]


@pytest.fixture(scope="module")
def ladder_walks_on() -> PropertyResult:
    """LADDER-2: a port whose walk goes on after a rung with hits."""
    return run_properties(mutant("ladder-continues-after-hit"), EXAMPLES, ["ladder-prefix"])[0]


@pytest.mark.parametrize("name", list(PROPERTIES))
def test_reference_adapter_satisfies_property(
    name: str, reference_results: dict[str, PropertyResult]
) -> None:
    result = reference_results[name]
    assert result.status == "passed", f"{result.message}\n{result.case_yaml}"


def test_a_port_resorting_the_rerank_tail_fails_the_tail_property(
    tail_resorted: PropertyResult,
) -> None:
    assert tail_resorted.status == "failed"


def test_a_port_walking_past_a_hit_fails_the_ladder_prefix_property(
    ladder_walks_on: PropertyResult,
) -> None:
    assert ladder_walks_on.status == "failed"


def test_a_naive_float_port_fails_rrf_permutation_invariance() -> None:
    """RRF-11: list-order float sums change the emitted bits when the lists are permuted."""
    result = run_properties(mutant("rrf-naive-float"), 100, ["rrf-permutation"])[0]
    assert result.status == "failed"


def test_counterexample_is_a_schema_valid_case_file(tail_resorted: PropertyResult) -> None:
    cases = load_text(tail_resorted.case_yaml, "rerank/property.yaml", "rerank")
    assert [c.op for c in cases] == ["rerank"]


def test_counterexample_case_passes_the_reference(ladder_walks_on: PropertyResult) -> None:
    cases = load_text(ladder_walks_on.case_yaml, "ladder/property.yaml", "ladder")
    run = run_suite(cases, python_command(REFERENCE_ADAPTER_MODULE))
    assert [r.status for r in run.results] == ["passed"] * len(cases)
    assert len([c for c in cases if c.derived_from is None]) == 1  # + its #canonical (DSL-23)


@pytest.mark.parametrize(
    ("name", "fixture"),
    [("rerank-tail-resorted", "tail_resorted"), ("ladder-continues-after-hit", "ladder_walks_on")],
)
def test_counterexample_case_fails_the_broken_port(
    name: str, fixture: str, request: pytest.FixtureRequest
) -> None:
    result: PropertyResult = request.getfixturevalue(fixture)
    cases = load_text(result.case_yaml, "golden/property.yaml", "property")
    run = run_suite(cases, mutant(name))
    assert [r.status for r in run.results] == ["failed"] * len(cases)  # + #canonical (DSL-23)


def test_properties_command_exits_1_on_a_broken_port(capsys: pytest.CaptureFixture[str]) -> None:
    adapter = f"{sys.executable} -m {MODULE} rerank-tail-resorted"
    argv = ["properties", "--adapter", adapter, "--examples", "20", "--select", "rerank-tail"]
    assert cli.main(argv) == 1
    assert "op: rerank" in capsys.readouterr().out


def test_properties_command_exits_2_on_an_unknown_property() -> None:
    assert cli.main(["properties", "--select", "no-such-law"]) == 2


def test_properties_respect_the_ports_capabilities() -> None:
    """OP-2 A port without `rrf-weights` answers `unsupported` to a weight other than 1, as it
    must; the RRF properties send it unweighted lists only, so it passes them."""
    port = [sys.executable, str(Path(__file__).parent / "fake_adapters" / "rrf_unweighted.py")]
    results = run_properties(port, EXAMPLES, ["rrf-permutation", "rrf-total-order"])
    assert [(r.name, r.status, r.message) for r in results] == [
        ("rrf-permutation", "passed", ""), ("rrf-total-order", "passed", "")
    ]


def test_intent_composition_finds_the_rules_behind_an_entry_without_rule_names() -> None:
    """INTENT-10 lets `rules` out: the law recovers them from multiplier and score (0.3375)."""
    from conformance.commands.properties import _rule_table, _rules_behind

    item = {"id": "r", "multiplier": 0.45 * 0.75, "score": (1 / 61) * 0.45 * 0.75}
    found = _rules_behind(item, 1 / 61, {"concrete-fact"}, _rule_table())
    assert found == ["fact_rollup_damp", "fact_generic_damp"]


def test_intent_composition_refuses_an_entry_no_rule_sequence_explains() -> None:
    from conformance.commands.properties import _rule_table, _rules_behind

    item = {"id": "r", "multiplier": 0.3375, "score": (1 / 61) * 0.3375}
    assert _rules_behind(item, 1 / 61, {"preference"}, _rule_table()) is None
