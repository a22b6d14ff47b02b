"""What a porter sees in the first hour: the to-do list, `hrc list`, `--select` by clause, the
case input on a failure, only the case's own stderr, `hrc --version`, and `hrc diff` that
compares what is normative (issue 15)."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest
from fake_adapters.support import FAST, IDS, fake, write_tiny_golden

from conformance import cli
from conformance.adapters.protocol import PROTOCOL_VERSION
from conformance.judging.cases import case_files, load_all
from conformance.running.runner import run_suite
from reference import SPEC_VERSION


@pytest.fixture
def golden(tmp_path: Path) -> Path:
    return write_tiny_golden(tmp_path)


def run_argv(golden: Path, adapter: list[str], *extra: str) -> list[str]:
    return ["run", "--golden", str(golden), "--adapter", shlex.join(adapter),
            "--timeout", "2", "--handshake-timeout", "2", *extra]


def test_not_applicable_cases_are_grouped_by_what_is_missing(
    golden: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """PROTO-43 The terminal lists the not-applicable cases grouped by the missing operation or
    capability, with counts, most first."""
    assert cli.main(run_argv(golden, fake("missing_op"), "--quiet")) == 0
    out = capsys.readouterr().out
    block = out[out.index("not applicable: 3 cases"):].splitlines()
    assert block[0] == "not applicable: 3 cases, by what the adapter does not declare:"
    assert block[1] == "  3  operation 'normalise'"


def test_grouping_names_capabilities_too(
    golden: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """PROTO-43 A case lacking only a capability is grouped under that capability."""
    adapter = [*fake("good")]
    assert cli.main(run_argv(golden, adapter, "--quiet")) == 0
    assert "not applicable" not in capsys.readouterr().out  # good declares sqlite-fts5
    from conformance.running.not_applicable import groups
    from conformance.running.results import CaseResult

    cases = load_all(case_files(golden))
    results = [CaseResult(cases[0], "not_applicable",
                          message="capability 'sqlite-fts5' is not declared")] * 2
    results.append(CaseResult(cases[1], "not_applicable",
                              message="operation 'length' is not declared by the adapter"))
    assert groups(results) == [("capability 'sqlite-fts5'", 2), ("operation 'length'", 1)]


def test_list_shows_ids_ops_and_clauses_without_running(
    golden: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """PROTO-45 `hrc list` prints each selected case's id, op and clauses, and a count."""
    assert cli.main(["list", "--golden", str(golden), "--select", "TEXT-8"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == [
        "tiny/length/ascii  length  TEXT-8",
        "tiny/length/astral  length  TEXT-8",
        "2 cases, 1 operation",
    ]
    assert cli.main(["list", "--golden", str(golden), "--json"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["id"] for r in rows] == IDS
    assert rows[0]["clauses"] == ["TEXT-8"] and rows[0]["op"] == "length"


def test_select_by_clause_id(golden: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """PROTO-23 `--select` takes a clause id: every case citing it runs."""
    assert cli.main(run_argv(golden, fake("good"), "--quiet", "--select", "TEXT-4")) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "hrc: 2 passed, 0 failed, 0 skipped"


def test_failure_shows_the_input_beside_expected_and_actual(
    golden: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """PROTO-24 A failure block shows the case's input next to the expected and actual values."""
    assert cli.main(run_argv(golden, fake("always_wrong"), "--select", "tiny/length/astral")) == 1
    out = capsys.readouterr().out
    lines = out.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("  input:"))
    assert lines[at] == '  input:    {"text": "𝐜𝐚𝐭"}'
    assert any(line.startswith("    expected: 3") for line in lines[at:])
    assert any(line.startswith("    actual:   -1") for line in lines[at:])


def test_a_crashed_case_shows_only_its_own_stderr(golden: Path) -> None:
    """PROTO-3 PROTO-24 A case that crashes without a word shows no stderr, not the lines an
    earlier case wrote."""
    cases = load_all(case_files(golden))
    run = run_suite(cases, fake("crash_silently", "tiny/normalise/spaces"), FAST)
    crashed = next(r for r in run.results if r.case.id == "tiny/normalise/spaces")
    assert crashed.status == "crashed"
    assert not any("answered" in line for line in crashed.stderr), crashed.stderr


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    """PROTO-45 `hrc --version` names the kit, the spec and the protocol version."""
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["--version"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out.strip()
    assert out.startswith("hrc ")
    assert f"spec {SPEC_VERSION}" in out and f"adapter protocol {PROTOCOL_VERSION}" in out


def _report(tmp_path: Path, golden: Path, name: str, adapter: list[str]) -> str:
    path = tmp_path / f"{name}.json"
    cli.main(run_argv(golden, adapter, "--quiet", "--report-json", str(path)))
    return str(path)


def test_diff_ignores_error_wording_but_not_the_kind(
    golden: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """PROTO-46 Two reports that differ only in an error message's wording, the duration and
    the adapter's name are equal; a different error kind is a difference."""
    a = _report(tmp_path, golden, "a", fake("good"))
    document = json.loads(Path(a).read_text(encoding="utf-8"))
    for case in document["cases"]:
        case["durationMs"] = 123.0
        if "error" in case:
            case["error"]["message"] = "other words entirely"
    document["adapter"]["name"] = "another-port"
    b = tmp_path / "b.json"
    b.write_text(json.dumps(document), encoding="utf-8")
    capsys.readouterr()
    assert cli.main(["diff", a, str(b)]) == 0
    for case in document["cases"]:
        if "error" in case:
            case["error"]["kind"] = "index_error"
    b.write_text(json.dumps(document), encoding="utf-8")
    assert cli.main(["diff", a, str(b)]) == 1
    assert "/error/kind" in capsys.readouterr().out
