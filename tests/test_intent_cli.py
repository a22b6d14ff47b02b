"""`hrc search --intent-table` passes the request field intentTable (spec/intent.md INTENT-13)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conformance.cli import main


@pytest.fixture
def db(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    folder = tmp_path / "notes"
    (folder / "memory").mkdir(parents=True)
    (folder / "memory" / "tea.md").write_text("# Tea\n\nI prefer green tea.\n", encoding="utf-8")
    (folder / "tea-guide.md").write_text("# Tea guide\n\nBrew tea at 75 degrees.\n", "utf-8")
    path = tmp_path / "n.db"
    assert main(["index", str(folder), "--db", str(path)]) == 0
    capsys.readouterr()
    return path


def intent_label(db: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> str:
    assert main(["search", "--db", str(db), "what tea do I prefer", "--json", *extra]) == 0
    label: str = json.loads(capsys.readouterr().out)["trace"]["intent"]["label"]
    return label


def test_search_uses_the_anchor_table_by_default(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """INTENT-13: the seed's phrasing is no anchor preference query."""
    assert intent_label(db, capsys) == ""


def test_search_can_name_the_hrc_1_0_table(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """INTENT-13: --intent-table hrc-1.0 runs the 1.0 table, which detects the same query."""
    assert intent_label(db, capsys, "--intent-table", "hrc-1.0") == "preference"
