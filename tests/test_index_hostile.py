"""Hostile folders and racing indexers (issue 16): `hrc index` reads only regular files
inside the root, bounded in size; racing runs never delete each other's index; a failed
first run leaves no database; bad query bytes are a one-line `invalid_input`."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conformance.cli import main
from reference.backends import indexer
from reference.backends.sqlite_fts import SqliteIndex
from reference.types import InvalidInput

POSIX = pytest.mark.skipif(os.name != "posix", reason="POSIX files")


def hrc(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "conformance.cli", *args],
                          capture_output=True, text=True, timeout=timeout, check=False)


def paths_in(db: Path) -> list[str]:
    with sqlite3.connect(db) as con:
        return sorted(p for (p,) in con.execute("SELECT path FROM documents"))


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    root = tmp_path / "notes"
    root.mkdir()
    (root / "ok.md").write_text("# Ok\n\nplain note\n", encoding="utf-8")
    return root


@POSIX
def test_links_out_of_the_root_and_special_files_are_skipped_with_a_warning(
    folder: Path, tmp_path: Path
) -> None:
    """BACKEND-12 A link to /proc/self/environ or to a file outside the root, a
    FIFO named *.md and a link to /dev/zero are skipped, one warning each, in seconds; the
    environment never becomes searchable. A link to a file inside the root is indexed."""
    secret = tmp_path / "secret.md"
    secret.write_text("hunter2 password\n", encoding="utf-8")
    (folder / "env.md").symlink_to("/proc/self/environ")
    (folder / "out.md").symlink_to(secret)
    (folder / "zero.md").symlink_to("/dev/zero")
    os.mkfifo(folder / "pipe.md")
    (folder / "alias.md").symlink_to(folder / "ok.md")
    db = tmp_path / "n.db"
    started = time.monotonic()
    done = hrc("index", str(folder), "--db", str(db), timeout=30)
    assert time.monotonic() - started < 20
    assert done.returncode == 0, done.stderr
    warnings = [ln for ln in done.stderr.splitlines() if ln.startswith("hrc index: warning: ")]
    assert len(warnings) == 4, done.stderr
    assert any("env.md" in w and "leaves the folder" in w for w in warnings)
    assert any("pipe.md" in w and "not a regular file" in w for w in warnings)
    assert paths_in(db) == ["alias.md", "ok.md"]
    for word in ("PATH", "hunter2"):
        found = json.loads(hrc("search", "--db", str(db), "--json", word).stdout)
        assert found["results"] == [], word


def test_oversized_file_is_skipped(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """BACKEND-12 A file above the size bound is skipped with a warning, not read."""
    monkeypatch.setattr(indexer, "MAX_FILE_BYTES", 100)
    (folder / "big.md").write_text("x" * 101, encoding="utf-8")
    report = indexer.index_directory(folder, SqliteIndex(":memory:"))
    assert report.added == ["ok.md"]
    assert report.skipped == [f"big.md: skipped, larger than {100} bytes"]


@POSIX
def test_non_utf8_file_name_fails_cleanly_and_leaves_no_database(
    folder: Path, tmp_path: Path
) -> None:
    """BACKEND-13, BACKEND-19 A file name that is not UTF-8 is a one-line error (exit 1) and
    a failed first run leaves no database (no traceback, no empty file)."""
    os.close(os.open(os.fsencode(folder) + b"/caf\xe9.md", os.O_CREAT | os.O_WRONLY))
    db = tmp_path / "n.db"
    done = hrc("index", str(folder), "--db", str(db))
    assert done.returncode == 1
    assert "Traceback" not in done.stderr and "not valid UTF-8" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert not db.exists()
    assert [p.name for p in tmp_path.iterdir()] == ["notes"]


def test_memory_error_on_a_first_run_leaves_no_database(
    folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """BACKEND-19 Whatever ends a first run (here a MemoryError), no database is left."""

    def exhausted(path: str, data: bytes) -> indexer.Document:
        raise MemoryError

    monkeypatch.setattr(indexer, "parse_document", exhausted)
    db = tmp_path / "n.db"
    assert main(["index", str(folder), "--db", str(db)]) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes"]


@pytest.mark.slow
@POSIX
def test_sigkill_during_a_first_run_leaves_no_database(folder: Path, tmp_path: Path) -> None:
    """BACKEND-19 A first run killed at any moment leaves no database at the path."""
    for i in range(3000):
        (folder / f"n{i:04}.md").write_text(f"# N{i}\n\n" + "word " * 200, encoding="utf-8")
    db = tmp_path / "n.db"
    argv = [sys.executable, "-m", "conformance.cli", "index", str(folder), "--db", str(db)]
    for delay in (0.3, 0.8, 1.5):
        proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(delay)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        assert not db.exists() or len(paths_in(db)) == 3001


@pytest.mark.slow
@POSIX
def test_racing_first_runs_never_delete_the_winners_index(folder: Path, tmp_path: Path) -> None:
    """BACKEND-19 Three indexers started together on a new database all succeed and the
    index they leave is complete (the loser used to delete the winner's file)."""
    for i in range(200):
        (folder / f"n{i:03}.md").write_text(f"# N{i}\n\nnote {i}\n", encoding="utf-8")
    for trial in range(3):
        db = tmp_path / f"race{trial}.db"
        argv = [sys.executable, "-m", "conformance.cli", "index", str(folder), "--db", str(db)]
        procs = [subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  text=True) for _ in range(3)]
        outs = [p.communicate(timeout=60) for p in procs]
        assert [p.returncode for p in procs] == [0, 0, 0], outs
        assert db.exists() and len(paths_in(db)) == 201


@pytest.mark.slow
@POSIX
def test_search_during_indexing_sees_old_or_new_index(folder: Path, tmp_path: Path) -> None:
    """BACKEND-19 Searches while another process re-indexes never fail."""
    db = tmp_path / "n.db"
    assert hrc("index", str(folder), "--db", str(db)).returncode == 0
    argv = [sys.executable, "-m", "conformance.cli", "index", str(folder), "--db", str(db)]
    writers = []
    for round_ in range(4):
        for i in range(150):
            (folder / f"n{i:03}.md").write_text(f"# N{i}\n\nnote {round_} {i}\n",
                                                encoding="utf-8")
        writers.append(subprocess.Popen(argv, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.PIPE, text=True))
        done = hrc("search", "--db", str(db), "--json", "note")
        assert done.returncode == 0, done.stderr
    for writer in writers:
        _, err = writer.communicate(timeout=60)
        assert writer.returncode == 0, err


def test_non_utf8_query_bytes_are_a_one_line_invalid_input(
    folder: Path, tmp_path: Path
) -> None:
    """OP-2 `hrc search -- $'caf\\xe9'`: one line, `invalid_input`, exit 2, no traceback."""
    db = tmp_path / "n.db"
    assert main(["index", str(folder), "--db", str(db)]) == 0
    done = subprocess.run(
        [os.fsencode(sys.executable), b"-m", b"conformance.cli", b"search", b"--db",
         os.fsencode(db), b"--", b"caf\xe9"], capture_output=True, timeout=60, check=False)
    err = done.stderr.decode("utf-8", "replace")
    assert done.returncode == 2
    assert "Traceback" not in err and "invalid_input" in err
    assert len(err.strip().splitlines()) == 1


def test_lone_surrogate_in_an_expression_is_invalid_input() -> None:
    """OP-2 A lone surrogate reaching the FTS5 backend is InvalidInput, not an
    uncaught UnicodeEncodeError."""
    index = SqliteIndex(":memory:")
    with pytest.raises(InvalidInput, match="lone surrogate"):
        index.search_bm25('"caf\udce9"', 10)


@POSIX
def test_indexed_paths_with_escapes_are_shown_escaped(folder: Path, tmp_path: Path) -> None:
    """PROTO-37's rule in `hrc search`: a file name carrying an ANSI escape is printed
    escaped in the results table, so it cannot rewrite the terminal."""
    (folder / "evil\x1b[2Jname.md").write_text("# \x1b]0;t\x07Evil\n\nkubernetes\n",
                                               encoding="utf-8")
    db = tmp_path / "n.db"
    assert hrc("index", str(folder), "--db", str(db)).returncode == 0
    done = hrc("search", "--db", str(db), "--trace", "kubernetes")
    assert done.returncode == 0, done.stderr
    table = done.stdout.split("\n\n")[0]
    assert "\x1b" not in table and "\\u001b[2J" in table
