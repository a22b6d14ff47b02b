"""`hrc report`: a compliance matrix of ports x stages from run reports."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fake_adapters.support import fake, write_tiny_golden

from conformance import cli


def _report(tmp_path: Path, golden: Path, adapter: list[str], name: str) -> str:
    path = tmp_path / f"{name}.json"
    cli.main(["run", "--golden", str(golden), "--adapter", " ".join(adapter), "--quiet",
              "--report-json", str(path)])
    return str(path)


def test_markdown_matrix_has_a_row_per_port_and_a_column_per_stage(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """PROTO-26 Reports become ports x stages with passed/total and a total column."""
    golden = write_tiny_golden(tmp_path)
    good = _report(tmp_path, golden, fake("good"), "good")
    partial = _report(tmp_path, golden, fake("missing_op"), "partial")
    capsys.readouterr()
    assert cli.main(["report", good, partial, "--markdown"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "| port | lengths | text | total | data |"
    assert lines[2] == "| fake 0.0.1 | 3/3 | 3/3 | 6/6 | unreported |"
    assert lines[3] == "| fake 0.0.1 | 3/3 | n/a | 3/6* | unreported |"


def test_incomplete_report_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """PROTO-26 A report without "complete": true is rejected with exit 2."""
    golden = write_tiny_golden(tmp_path)
    path = Path(_report(tmp_path, golden, fake("good"), "good"))
    document = json.loads(path.read_text(encoding="utf-8"))
    del document["complete"]
    path.write_text(json.dumps(document), encoding="utf-8")
    assert cli.main(["report", str(path)]) == 2
    assert "incomplete report" in capsys.readouterr().err
