"""`hrc run`: output for people, the footer for CI, exit codes, JSON and JUnit reports."""

from __future__ import annotations

import json
import re
import shlex
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from fake_adapters.support import IDS, fake, write_tiny_golden

from conformance import cli
from conformance.judging.schemas import schema_validator

FOOTER = re.compile(r"^hrc: (\d+) passed, (\d+) failed, (\d+) skipped$")


@pytest.fixture
def golden(tmp_path: Path) -> Path:
    return write_tiny_golden(tmp_path)


def hrc(golden: Path, adapter: list[str], *extra: str) -> list[str]:
    return [
        "run", "--golden", str(golden), "--adapter", shlex.join(adapter),
        "--timeout", "0.5", "--handshake-timeout", "2", "--quiet", *extra,
    ]


def footer(out: str) -> tuple[int, int, int]:
    match = FOOTER.match(out.rstrip("\n").splitlines()[-1])
    assert match, out
    passed, failed, skipped = (int(g) for g in match.groups())
    return passed, failed, skipped


def test_clean_run_exits_0_with_the_footer_last(
    golden: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """PROTO-25 Exit 0 when nothing fails; PROTO-24 the footer is the last line."""
    assert cli.main(hrc(golden, fake("good"))) == 0
    assert footer(capsys.readouterr().out) == (6, 0, 0)


def test_failure_block_names_everything_needed_to_fix_it(
    golden: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """PROTO-24 A failure shows id, description, clauses, file:line, field, values, repro."""
    argv = hrc(golden, fake("always_wrong"), "--select", "tiny/normalise/upper")
    argv.remove("--quiet")
    assert cli.main(argv) == 1
    out = capsys.readouterr().out
    assert "FAILED [failed] tiny/normalise/upper" in out
    assert "Folding lowercases but normalising keeps the case." in out
    assert "clauses:  TEXT-5" in out
    assert f"{golden / 'text' / 'normalise.yaml'}:9" in out
    assert "at /normalised: value differs" in out
    assert 'expected: "ÉTÉ"' in out and 'actual:   "?"' in out
    assert "--select tiny/normalise/upper" in out and "--adapter" in out


def test_crash_shows_the_adapter_stderr_tail(
    golden: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """PROTO-24 A crashed case shows the adapter's last stderr lines."""
    argv = hrc(golden, fake("crash_on", "tiny/length/astral"))
    argv.remove("--quiet")
    assert cli.main(argv) == 1
    out = capsys.readouterr().out
    assert "| fake: about to crash" in out
    assert footer(out) == (5, 1, 0)


def test_footer_counts_not_applicable_and_xfail_as_skipped(
    golden: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """PROTO-24 skipped = not_applicable + xfail, and each class has its own line above."""
    listed = tmp_path / "xf.yaml"
    listed.write_text("- id: tiny/length/astral\n  reason: known\n", encoding="utf-8")
    adapter = fake("missing_op", "tiny/length/astral")
    assert cli.main(hrc(golden, adapter, "--expected-failures", str(listed))) == 0
    out = capsys.readouterr().out
    assert footer(out) == (2, 0, 4)
    assert re.search(r"^  not_applicable +3 \(skipped\)$", out, re.MULTILINE)
    assert re.search(r"^  xfail +1 \(skipped\)$", out, re.MULTILINE)


def test_footer_counts_every_failing_class_as_failed(
    golden: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """PROTO-24 errored, crashed, timed_out, protocol_violation and xpass count as failed."""
    assert cli.main(hrc(golden, fake("errors", "internal_error"))) == 1
    out = capsys.readouterr().out
    assert footer(out) == (0, 6, 0)
    assert re.search(r"^  errored +6$", out, re.MULTILINE)


@pytest.mark.parametrize(
    ("pattern", "count"),
    [
        ("tiny/length/ascii", 1),
        ("tiny/*/a*", 2),
        ("tiny/normalise", 3),
        ("ascii", 1),
        ("lengths", 3),
        ("normalise", 3),
    ],
    ids=["id", "glob", "prefix", "tag", "stage", "op"],
)
def test_select_matches_id_glob_prefix_tag_stage_or_op(
    golden: Path, capsys: pytest.CaptureFixture[str], pattern: str, count: int
) -> None:
    """PROTO-23 --select takes ids, globs, prefixes, tags, stages and ops."""
    assert cli.main(hrc(golden, fake("good"), "--select", pattern)) == 0
    assert footer(capsys.readouterr().out) == (count, 0, 0)


def test_select_matching_nothing_is_a_usage_error(
    golden: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """PROTO-23 A pattern that selects no case exits 2 instead of running nothing."""
    assert cli.main(hrc(golden, fake("good"), "--select", "tiny/lenght")) == 2
    assert "matches no case" in capsys.readouterr().err


def test_malformed_case_file_exits_2_with_its_location(
    golden: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """PROTO-25 A malformed case file is exit 2 with path:line."""
    (golden / "text" / "broken.yaml").write_text("op: length\ncases: 3\n", encoding="utf-8")
    assert cli.main(hrc(golden, fake("good"))) == 2
    assert f"{golden / 'text' / 'broken.yaml'}:2:" in capsys.readouterr().err


def test_malformed_expected_failures_file_exits_2(
    golden: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """PROTO-25 A bad expected-failures file stops the run with exit 2."""
    listed = tmp_path / "xf.yaml"
    listed.write_text("- id: no/such/case\n  reason: r\n", encoding="utf-8")
    assert cli.main(hrc(golden, fake("good"), "--expected-failures", str(listed))) == 2
    assert f"{listed}:1:" in capsys.readouterr().err


def test_json_report_validates_and_says_it_is_complete(golden: Path, tmp_path: Path) -> None:
    """PROTO-26 The JSON report validates against its schema and ends complete."""
    path = tmp_path / "report.json"
    cli.main(hrc(golden, fake("crash_on", "tiny/length/astral"), "--report-json", str(path)))
    document = json.loads(path.read_text(encoding="utf-8"))
    schema_validator("report.schema.json").validate(document)
    assert document["complete"] is True
    assert document["adapter"]["name"] == "fake"
    assert document["suite"]["caseCount"] == 6
    summary = document["summary"]
    assert (summary["total"], summary["passed"], summary["crashed"]) == (6, 5, 1)
    by_id = {c["id"]: c for c in document["cases"]}
    assert list(by_id) == IDS
    assert by_id["tiny/length/astral"]["stderr"][-1] == "fake: about to crash"
    assert by_id["tiny/length/ascii"]["output"] == {"length": 3}


def test_json_report_records_the_mismatch(golden: Path, tmp_path: Path) -> None:
    """PROTO-26 A failed case carries its mismatch: path, expected and actual."""
    path = tmp_path / "report.json"
    cli.main(hrc(golden, fake("always_wrong"), "--report-json", str(path)))
    case = json.loads(path.read_text(encoding="utf-8"))["cases"][0]
    assert case["status"] == "failed"
    assert case["mismatch"] == {
        "path": "/length", "reason": "integer differs (exact)", "expected": 3, "actual": -1
    }


def test_report_schema_rejects_an_incomplete_report(golden: Path, tmp_path: Path) -> None:
    """PROTO-26 A report without "complete": true is not a valid report."""
    path = tmp_path / "report.json"
    cli.main(hrc(golden, fake("good"), "--report-json", str(path)))
    document = json.loads(path.read_text(encoding="utf-8"))
    del document["complete"]
    assert list(schema_validator("report.schema.json").iter_errors(document))


def test_junit_report_parses_with_failures_errors_and_skips(golden: Path, tmp_path: Path) -> None:
    """PROTO-26 --junit writes JUnit XML: failure, error and skipped elements per outcome."""
    path = tmp_path / "junit.xml"
    cli.main(hrc(golden, fake("crash_on", "tiny/normalise/upper"), "--junit", str(path)))
    suite = ET.parse(path).getroot().find("testsuite")
    assert suite is not None
    assert (suite.get("tests"), suite.get("errors"), suite.get("failures")) == ("6", "1", "0")
    crashed = suite.find("testcase[@name='tiny/normalise/upper']/error")
    assert crashed is not None and crashed.get("type") == "crashed"


def test_junit_escapes_characters_xml_cannot_carry(golden: Path, tmp_path: Path) -> None:
    """PROTO-26 Control characters in outputs and messages still give well-formed XML."""
    path = tmp_path / "junit.xml"
    line = (
        '{"type": "error", "seq": SEQ, '
        '"error": {"kind": "invalid_input", "message": "\\u0000\\u0007"}}'
    )
    cli.main(hrc(golden, fake("raw_reply", "tiny/length/ascii", line), "--junit", str(path)))
    testcase = ET.parse(path).getroot().find(".//testcase[@name='tiny/length/ascii']/error")
    assert testcase is not None and "\\u0000" in (testcase.get("message") or "")


def test_broken_subcommand_module_only_breaks_its_own_commands(
    golden: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """PROTO-25 A sub-command whose module cannot be imported exits 2 with the reason."""
    modules = [*cli.SUBCOMMAND_MODULES, ("no_such_module_for_hrc", ("frobnicate",))]
    monkeypatch.setattr(cli, "SUBCOMMAND_MODULES", modules)
    assert cli.main(["frobnicate", "--anything"]) == 2
    err = capsys.readouterr().err
    assert "frobnicate" in err and "no_such_module_for_hrc" in err and "test extra" in err
    assert cli.main(hrc(golden, fake("good"))) == 0


def test_usage_error_exits_2() -> None:
    """PROTO-25 A usage error (here a negative timeout) exits 2."""
    with pytest.raises(SystemExit) as info:
        cli.main(["run", "--timeout", "-1"])
    assert info.value.code == 2
