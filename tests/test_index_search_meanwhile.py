"""BACKEND-19: a search while `hrc index` writes answers from the old index, never "database is
locked" (issue 39, item 2: 1 of 4 trials failed after ~8 s)."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "corpus" / "demo"


def _hrc(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "conformance.cli", *args], capture_output=True,
                          text=True, timeout=120, check=False)


def test_a_search_during_a_write_answers_from_the_last_committed_index(tmp_path: Path) -> None:
    """A writer holding the index's exclusive lock with uncommitted deletes, as `hrc index`
    does at commit or once its pages spill: the search answers as before the write began
    (before: rollback-journal mode, "database is locked" after the 5 s busy timeout)."""
    db = tmp_path / "x.db"
    assert _hrc("index", str(CORPUS), "--db", str(db)).returncode == 0
    before = _hrc("search", "retrieval", "--db", str(db), "--json")
    assert before.returncode == 0, before.stderr
    writer = sqlite3.connect(db, isolation_level=None)
    try:
        writer.execute("BEGIN EXCLUSIVE")
        writer.execute("DELETE FROM documents")
        during = _hrc("search", "retrieval", "--db", str(db), "--json")
    finally:
        writer.execute("ROLLBACK")
        writer.close()
    assert during.returncode == 0, during.stderr
    assert "locked" not in during.stderr
    assert json.loads(during.stdout)["results"] == json.loads(before.stdout)["results"]


def test_a_re_index_keeps_the_wal_mode_and_leaves_no_companion_file(tmp_path: Path) -> None:
    db = tmp_path / "x.db"
    for _ in range(2):
        done = _hrc("index", str(CORPUS), "--db", str(db))
        assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.db"]
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)
