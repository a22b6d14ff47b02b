"""`hrc diff`: traces, outputs and reports compared with the comparator's semantics."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fake_adapters.support import fake, write_tiny_golden

from conformance import cli


def _files(tmp_path: Path, a: Any, b: Any) -> list[str]:
    pa, pb = tmp_path / "a.json", tmp_path / "b.json"
    pa.write_text(json.dumps(a), encoding="utf-8")
    pb.write_text(json.dumps(b), encoding="utf-8")
    return ["diff", str(pa), str(pb)]


def test_traces_that_differ_only_in_timings_are_equal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`timings` are dropped at every depth before comparing (TRACE-2)."""
    a = {"trace": {"k": 60, "timings": {"totalMs": 1}}, "timings": 3}
    b = {"trace": {"k": 60, "timings": {"totalMs": 9}}}
    assert cli.main(_files(tmp_path, a, b)) == 0
    assert "no differences" in capsys.readouterr().out


def test_numbers_within_tolerance_are_equal(tmp_path: Path) -> None:
    """Scores compare under TEXT-13, so rounding noise is not a difference."""
    assert cli.main(_files(tmp_path, {"s": 0.1 + 0.2}, {"s": 0.3})) == 0


def test_every_difference_is_printed_with_its_path(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each difference is printed with its path; exit 1."""
    a = {"results": [{"id": "a"}, {"id": "b"}], "mode": "hybrid"}
    b = {"results": [{"id": "a"}, {"id": "c"}], "extra": True}
    assert cli.main(_files(tmp_path, a, b)) == 1
    out = capsys.readouterr().out
    assert "/results/1/id: value differs" in out
    assert "/mode: only in A" in out
    assert "/extra: only in B" in out
    assert "3 difference(s)" in out


def test_reports_compare_per_case_status_and_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two run reports compare case by case: status and answer."""
    golden = write_tiny_golden(tmp_path)
    reports = []
    for name in ("good", "always_wrong"):
        path = tmp_path / f"{name}.json"
        adapter = " ".join(fake(name))
        cli.main(["run", "--golden", str(golden), "--adapter", adapter, "--quiet",
                  "--report-json", str(path)])
        reports.append(str(path))
    capsys.readouterr()
    assert cli.main(["diff", *reports]) == 1
    out = capsys.readouterr().out
    assert "tiny/length/ascii status: status differs" in out
    assert "tiny/length/ascii /output/length: number differs" in out
    assert cli.main(["diff", reports[0], reports[0]]) == 0


def test_unreadable_file_exits_2(tmp_path: Path) -> None:
    """A missing or non-JSON file is a usage error."""
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    assert cli.main(["diff", str(bad), str(bad)]) == 2
