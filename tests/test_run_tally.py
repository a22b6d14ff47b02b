"""Reading a red run (issue 38, item 8): the failing cases counted by clause above the footer,
and `--failed-from REPORT` to rerun only the failures of an earlier run (pytest's `--lf`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conformance import cli
from conformance.commands import init_port as scaffold


def _utf16_port(tmp_path: Path) -> Path:
    """The Python scaffold with the TEXT-8 trap: it counts UTF-16 units, not code points."""
    target = tmp_path / "port"
    scaffold.init_port("python", target)
    source = target / "adapter.py"
    text = source.read_text(encoding="utf-8")
    source.write_text(text.replace('return {"length": len(text)}',
                                   'return {"length": len(text.encode("utf-16-le")) // 2}'),
                      encoding="utf-8")
    return target / "adapter"


def test_a_red_run_tallies_failures_by_clause_and_reruns_only_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    adapter = _utf16_port(tmp_path)
    report = tmp_path / "r.json"
    assert cli.main(["run", "--adapter", str(adapter), "--select", "portability/length/",
                     "--quiet", "--report-json", str(report)]) == 1
    out = capsys.readouterr().out
    cases = json.loads(report.read_text(encoding="utf-8"))["cases"]
    failed = sorted(c["id"] for c in cases if c["status"] == "failed")
    passed = [c["id"] for c in cases if c["status"] == "passed"]
    assert failed and passed
    tally = out[out.index("failures by clause"):]
    assert tally.startswith(f"failures by clause ({len(failed)} failing case")
    assert f"  TEXT-8 {len(failed):>6}" in tally
    assert f"--failed-from {report}" in tally
    assert out.index("failures by clause") < out.index("\nhrc: ")
    rerun = tmp_path / "again.json"
    assert cli.main(["run", "--adapter", str(adapter), "--failed-from", str(report),
                     "--quiet", "--report-json", str(rerun)]) == 1
    capsys.readouterr()
    again = json.loads(rerun.read_text(encoding="utf-8"))["cases"]
    assert sorted(c["id"] for c in again) == failed


def test_a_green_run_prints_no_tally(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "port"
    scaffold.init_port("python", target)
    assert cli.main(["run", "--adapter", str(target / "adapter"), "--select",
                     "portability/length/", "--quiet"]) == 0
    assert "failures by clause" not in capsys.readouterr().out


def test_failed_from_a_file_that_is_no_report_is_one_line_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("[1, 2]", encoding="utf-8")
    assert cli.main(["run", "--failed-from", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("hrc run: error: --failed-from") and err.count("\n") == 1
