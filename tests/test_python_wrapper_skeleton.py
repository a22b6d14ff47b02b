"""The wrapper skeleton of ports/README.md works: what it declares passes, the rest is N/A."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest

from conformance import cli

ROOT = Path(__file__).resolve().parent.parent
ADAPTER = ROOT / "ports" / "python-wrapper" / "adapter.py"


def test_skeleton_passes_its_operations_and_leaves_the_rest_not_applicable(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """PROTO-7 Undeclared operations are not_applicable; the wrapped ops pass every case."""
    report = tmp_path / "report.json"
    command = shlex.join([sys.executable, str(ADAPTER)])
    status = cli.main(["run", "--adapter", command, "--quiet", "--report-json", str(report)])
    capsys.readouterr()
    assert status == 0
    cases = json.loads(report.read_text(encoding="utf-8"))["cases"]
    by_outcome: dict[str, set[str]] = {}
    for case in cases:
        by_outcome.setdefault(case["status"], set()).add(case["op"])
    assert by_outcome.get("passed") == {"length", "unanimity"}
    assert set(by_outcome) == {"passed", "not_applicable"}
    assert "length" not in by_outcome["not_applicable"]
    assert "unanimity" not in by_outcome["not_applicable"]
