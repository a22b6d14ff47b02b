"""The golden suite rejects broken ports: every mutant fails at least one case.

The gate runs the whole suite through the adapter protocol against the unmodified reference
(the control) and against every mutant of conformance/selftest/broken_ports/, three at a time.
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from conformance import cli
from conformance.adapters.adapter_process import AdapterProcess
from conformance.judging.cases import Case, case_files, load_all
from conformance.judging.clauses import defined_clauses
from conformance.selftest import gate, unguarded
from conformance.selftest.broken_ports import MUTANTS
from conformance.selftest.mutant_adapter import MODULE


def profile_clauses() -> frozenset[str]:
    """The clauses defined in the profile chapters (spec/profiles/*.md)."""
    return frozenset(c.id for c in defined_clauses().values() if c.file.startswith("profiles/"))

TINY_RRF = """\
op: rrf
cases:
  - id: tiny/rrf/top-item
    description: The top item of one list scores 1/61 (0-based rank, k = 60).
    clauses: [RRF-2]
    input: {lists: [{items: [{id: a, path: a.md}]}]}
    expect:
      output:
        results:
          - {id: a, path: a.md, title: "", summary: "", content: "", metadata: {},
             score: 0.01639344262295082}
"""


TWO_KILLERS = TINY_RRF + """\
  - id: tiny/rrf/second-item
    description: The second item of one list scores 1/62 (0-based rank, k = 60).
    clauses: [RRF-2]
    input: {lists: [{items: [{id: a, path: a.md}, {id: b, path: b.md}]}]}
    expect:
      output:
        results:
          - {id: a, path: a.md, title: "", summary: "", content: "", metadata: {},
             score: 0.01639344262295082}
          - {id: b, path: b.md, title: "", summary: "", content: "", metadata: {},
             score: 0.016129032258064516}
"""


@pytest.fixture(scope="module")
def gate_result() -> gate.GateResult:
    return gate.run_gate(load_all(), workers=3)


THREE_KILLERS = TWO_KILLERS + """\
  - id: tiny/rrf/third-item
    description: The third item of one list scores 1/63 (0-based rank, k = 60).
    clauses: [RRF-2]
    input: {lists: [{items: [{id: a, path: a.md}, {id: b, path: b.md}, {id: c, path: c.md}]}]}
    expect:
      output:
        results:
          - {id: a, path: a.md, title: "", summary: "", content: "", metadata: {},
             score: 0.01639344262295082}
          - {id: b, path: b.md, title: "", summary: "", content: "", metadata: {},
             score: 0.016129032258064516}
          - {id: c, path: c.md, title: "", summary: "", content: "", metadata: {},
             score: 0.015873015873015872}
"""


@pytest.fixture
def tiny_golden(tmp_path: Path) -> Path:
    """Two RRF cases: enough to kill a 1-based rank twice (the gate's two distinct killers)."""
    (tmp_path / "rrf").mkdir()
    (tmp_path / "rrf" / "tiny.yaml").write_text(TWO_KILLERS, encoding="utf-8")
    return tmp_path


def test_at_least_thirty_broken_ports_are_registered() -> None:
    assert len(MUTANTS) >= 30


def test_every_broken_port_names_a_clause_the_spec_defines() -> None:
    defined = defined_clauses()
    assert [m.name for m in MUTANTS.values() if m.clause not in defined] == []


@pytest.mark.slow
def test_the_unbroken_reference_passes_every_case(gate_result: gate.GateResult) -> None:
    """The control: if the reference fails, no kill below means anything."""
    assert gate_result.control.killers == ()


@pytest.mark.slow
def test_every_broken_port_fails_at_least_one_golden_case(gate_result: gate.GateResult) -> None:
    survivors = [f"{m.name} ({m.clause}: {m.description})" for m in gate_result.survivors]
    assert survivors == [], "broken ports the suite accepts; add golden cases:\n" + "\n".join(
        survivors
    )


@pytest.mark.slow
def test_every_broken_port_is_killed_by_two_distinct_cases(
    gate_result: gate.GateResult,
) -> None:
    """Issue 25: no broken port dies on a single case (a #canonical twin counts once)."""
    weak = [f"{m.name} ({m.clause}): {', '.join(m.killers)}" for m in gate_result.weak]
    assert weak == [], "add a second case that fails these broken ports:\n" + "\n".join(weak)


def test_every_profile_clause_has_a_broken_port() -> None:
    """Issue 25: each clause of spec/profiles/ is cited by at least one registered broken port."""
    assert gate.unguarded_clauses(profile_clauses(), {}) == ()


def test_every_clause_has_a_broken_port_or_a_recorded_reason() -> None:
    """Issue 25, extended to the core: no clause is unguarded without a line in unguarded.tsv."""
    assert gate.unguarded_clauses() == ()


def test_unguarded_record_lists_no_profile_clause() -> None:
    """A profile clause cannot be excused: it needs a broken port."""
    assert sorted(set(unguarded.load_recorded()) & profile_clauses()) == []


def test_unguarded_record_lists_only_defined_clauses_without_a_port() -> None:
    """No stale line: a listed clause exists, and no broken port cites it yet."""
    listed = set(unguarded.load_recorded())
    cited = {m.clause for m in MUTANTS.values()}
    assert (sorted(listed - set(defined_clauses())), sorted(listed & cited)) == ([], [])


def test_unguarded_record_refuses_a_line_without_a_reason(tmp_path: Path) -> None:
    bad = tmp_path / "unguarded.tsv"
    bad.write_text("# comment\nRRF-2\tfine\nRRF-3\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"unguarded\.tsv:3: expected CLAUSE<TAB>reason"):
        unguarded.load_recorded(bad)


def test_unguarded_record_refuses_a_clause_listed_twice(tmp_path: Path) -> None:
    bad = tmp_path / "unguarded.tsv"
    bad.write_text("RRF-2\tone\nRRF-2\ttwo\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"unguarded\.tsv:2: RRF-2 is listed twice"):
        unguarded.load_recorded(bad)


def test_a_broken_port_needs_two_distinct_killers_the_control_none() -> None:
    assert gate.KILLERS_NEEDED == 2
    control = gate.Outcome(gate.CONTROL, "", "", {"passed": 3})
    assert control.needed == 1 and control.verdict == "clean"


def test_a_case_and_its_canonical_twin_count_as_one_killer() -> None:
    outcome = gate.Outcome("m", "SCOPE-3", "", {"passed": 1, "failed": 2},
                           killers=("a/b", "a/b#canonical"), needed=2)
    assert (outcome.distinct_killers, outcome.verdict) == (1, "WEAK")


def test_a_weak_broken_port_fails_the_gate() -> None:
    control = gate.Outcome(gate.CONTROL, "", "", {"passed": 3})
    weak = gate.Outcome("m", "SCOPE-3", "", {"passed": 2, "failed": 1}, killers=("a",), needed=2)
    result = gate.GateResult(control, [weak])
    assert (result.ok, result.to_json()["summary"]["weak"]) == (False, 1)


def test_an_unguarded_profile_clause_fails_the_gate() -> None:
    control = gate.Outcome(gate.CONTROL, "", "", {"passed": 3})
    killed = gate.Outcome("m", "RRF-2", "", {"passed": 2, "failed": 1}, killers=("a",))
    assert gate.GateResult(control, [killed], unguarded=("SCOPE-99",)).ok is False
    assert gate.GateResult(control, [killed]).ok is True


def test_unguarded_clauses_are_neither_cited_by_a_port_nor_recorded() -> None:
    defined = frozenset({"SCOPE-3", "NOPE-1", "NOPE-2"})
    assert gate.unguarded_clauses(defined, {"NOPE-2": "why"}) == ("NOPE-1",)


def test_a_broken_port_killed_by_one_case_is_weak() -> None:
    """A real run over one of the port's killers alone."""
    kept = "profiles/scoped-fusion/filter/no-scope-metadata-is-out-of-scope"
    one = [c for c in load_all() if c.id == kept]
    name = "scoped-missing-scope-wildcard"
    outcome = gate.run_one(name, gate.mutant_argv(name), one, first_kill=True)
    assert (outcome.killers, outcome.verdict, outcome.complete) == ((kept,), "WEAK", True)


@pytest.mark.slow
def test_every_broken_port_still_passes_most_cases(gate_result: gate.GateResult) -> None:
    """A mutant that passes nothing broke the adapter, not the behaviour it targets."""
    assert [m.name for m in gate_result.stillborn] == []


def test_mutant_adapter_names_the_mutant_in_its_hello() -> None:
    proc = AdapterProcess([sys.executable, "-m", MODULE, "rrf-rank-one-based"])
    proc.start()
    try:
        hello = proc.handshake(30.0)
    finally:
        proc.close(1.0)
    assert hello.name == "hrc-mutant:rrf-rank-one-based"


def test_mutant_adapter_refuses_an_unknown_mutant_with_status_2() -> None:
    done = subprocess.run(
        [sys.executable, "-m", MODULE, "no-such-mutant"], capture_output=True, timeout=60
    )
    assert done.returncode == 2


def test_selftest_exits_1_when_a_broken_port_survives(tiny_golden: Path) -> None:
    """A suite with one RRF case cannot see a lowercasing bug (TEXT-5): the gate fails."""
    argv = ["selftest", "mutants", "--golden", str(tiny_golden), "--select", "text-lowercase-go"]
    assert cli.main(argv) == 1


def test_selftest_exits_1_when_a_broken_port_dies_on_one_case_only(tmp_path: Path) -> None:
    """One RRF case kills a 1-based rank, but one case is not enough: the port is weak."""
    (tmp_path / "rrf").mkdir()
    (tmp_path / "rrf" / "one.yaml").write_text(TINY_RRF, encoding="utf-8")
    argv = ["selftest", "mutants", "--golden", str(tmp_path), "--select", "rrf-rank-one-based"]
    assert cli.main(argv) == 1


def test_selftest_exits_0_when_every_selected_port_is_killed(tiny_golden: Path) -> None:
    """The same two-case suite kills a 1-based rank (RRF-2) twice."""
    argv = ["selftest", "mutants", "--golden", str(tiny_golden), "--select", "rrf-rank-one-based"]
    assert cli.main(argv) == 0


def test_selftest_exits_2_on_an_unknown_mutant_name() -> None:
    assert cli.main(["selftest", "mutants", "--select", "no-such-mutant"]) == 2


def test_selftest_report_json_counts_killed_and_survived(tiny_golden: Path, tmp_path: Path) -> None:
    report = tmp_path / "gate.json"
    argv = [
        "selftest", "mutants", "--golden", str(tiny_golden), "--report-json", str(report),
        "--select", "rrf-rank-one-based", "--select", "text-lowercase-go",
    ]
    cli.main(argv)
    summary = json.loads(report.read_text(encoding="utf-8"))["summary"]
    assert (summary["killed"], summary["survived"]) == (1, 1)


def _two_killer_cases(tmp_path: Path) -> list[Case]:
    (tmp_path / "rrf").mkdir()
    (tmp_path / "rrf" / "two.yaml").write_text(TWO_KILLERS, encoding="utf-8")
    return load_all(case_files(tmp_path), root=tmp_path)


def test_a_broken_port_stops_at_its_second_killing_case(tmp_path: Path) -> None:
    (tmp_path / "rrf").mkdir()
    (tmp_path / "rrf" / "three.yaml").write_text(THREE_KILLERS, encoding="utf-8")
    cases = load_all(case_files(tmp_path), root=tmp_path)
    name = "rrf-rank-one-based"
    outcome = gate.run_one(name, gate.mutant_argv(name), cases, first_kill=True)
    assert (outcome.killers, outcome.complete, outcome.verdict) == (
        ("tiny/rrf/top-item", "tiny/rrf/second-item"), False, "killed")
    assert outcome.counts.get("not_run") == 1


def test_all_killers_runs_every_case_against_a_broken_port(tmp_path: Path) -> None:
    cases = _two_killer_cases(tmp_path)
    name = "rrf-rank-one-based"
    outcome = gate.run_one(name, gate.mutant_argv(name), cases, first_kill=False)
    assert (len(outcome.killers), outcome.complete) == (2, True)


def test_cases_citing_the_broken_clause_run_first(tmp_path: Path) -> None:
    cases = _two_killer_cases(tmp_path)
    other = replace(cases[0], id="tiny/other", clauses=("TEXT-5",))
    ordered = gate.clause_first([other, *cases], "RRF-2")
    assert [c.id for c in ordered] == ["tiny/rrf/top-item", "tiny/rrf/second-item", "tiny/other"]


def test_canonical_twins_run_after_the_yaml_cases_of_their_group(tmp_path: Path) -> None:
    """So the first two killers of a port are two cases, not a case and its twin."""
    cases = _two_killer_cases(tmp_path)
    twin = replace(cases[0], id=cases[0].id + "#canonical")
    ordered = gate.clause_first([cases[0], twin, cases[1]], "RRF-2")
    assert [c.id for c in ordered] == [cases[0].id, cases[1].id, twin.id]


def test_a_broken_port_that_only_crashes_is_stillborn_even_when_stopping_at_first_kill(
    tmp_path: Path,
) -> None:
    """The first killer of a port that cannot even start leaves the question open: the whole
    run decides, and nothing in it passed or plainly failed."""
    cases = _two_killer_cases(tmp_path)
    crash = [sys.executable, "-c", "import sys; sys.exit(3)"]
    outcome = gate.run_one("rrf-rank-one-based", crash, cases, first_kill=True)
    assert (outcome.stillborn, outcome.complete) == (True, True)
