"""`hrc index` and `hrc search` (spec/backends.md, spec/pipeline.md): real SQLite, clear errors."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from conformance.cli import main

ROOT = Path(__file__).resolve().parent.parent
TRACE_SCHEMA = json.loads((ROOT / "schemas" / "trace.schema.json").read_text())


def write(folder: Path, name: str, text: str | bytes) -> None:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")


@pytest.fixture
def notes(tmp_path: Path) -> Path:
    folder = tmp_path / "notes"
    write(folder, "kubernetes.md", "# Kubernetes\n\nThe kubernetes cluster runs on three nodes.\n")
    write(folder, "postgres.md", "# Postgres\n\nBackups of postgres run nightly.\n")
    return folder


@pytest.fixture
def indexed(notes: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """A database indexed from `notes`, with the index command's output consumed."""
    db = tmp_path / "n.db"
    assert main(["index", str(notes), "--db", str(db)]) == 0
    capsys.readouterr()
    return db


def test_index_then_search_finds_the_note(
    notes: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """BACKEND-12: a folder is indexed and the pipeline finds its notes."""
    db = tmp_path / "n.db"
    assert main(["index", str(notes), "--db", str(db)]) == 0
    assert "2 added" in capsys.readouterr().out
    assert main(["search", "--db", str(db), "kubernetes", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["results"][0]["path"] == "kubernetes.md"
    jsonschema.validate(out["trace"], TRACE_SCHEMA)


def test_reindexing_unchanged_files_writes_nothing(
    notes: Path, indexed: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """BACKEND-17: a second run over the same files is a no-op."""
    assert main(["index", str(notes), "--db", str(indexed)]) == 0
    assert "0 added, 0 updated, 2 unchanged, 0 removed" in capsys.readouterr().out


def test_search_trace_shows_the_ladder(
    indexed: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """LADDER-2: `--trace` prints every rung reached, force-refresh included."""
    assert main(["search", "--db", str(indexed), "kubernets", "--trace", "--mode", "bm25"]) == 0
    out = capsys.readouterr().out
    assert "rung force-refresh" in out and "rung trigram_fuzzy" in out
    assert "kubernetes.md" in out


def test_missing_database_is_a_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """PIPE-2 spirit: bad input gets one clear line and exit 2, and no database is created."""
    db = tmp_path / "absent.db"
    assert main(["search", "--db", str(db), "kubernetes"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "database not found" in err[0]
    assert not db.exists()


def test_empty_query_is_rejected(indexed: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """PIPE-2: an empty query is an error, not an empty result."""
    assert main(["search", "--db", str(indexed), " \u200b "]) == 2
    assert "empty" in capsys.readouterr().err


def test_unknown_mode_is_rejected(tmp_path: Path) -> None:
    """PIPE-1: the mode must be one of the four."""
    with pytest.raises(SystemExit) as info:
        main(["search", "--db", str(tmp_path / "x.db"), "q", "--mode", "hybrid-rerank"])
    assert info.value.code == 2


def test_unreadable_file_leaves_no_database(
    notes: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """BACKEND-13: a file that is not UTF-8 fails the run, names the file, writes nothing."""
    write(notes, "broken.md", b"\xff\xfe not utf-8")
    db = tmp_path / "n.db"
    assert main(["index", str(notes), "--db", str(db)]) == 1
    assert "broken.md" in capsys.readouterr().err
    assert not db.exists()


def test_not_a_directory_is_rejected(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """BACKEND-12: indexing needs a folder."""
    assert main(["index", str(tmp_path / "nope"), "--db", str(tmp_path / "n.db")]) == 2
    assert "not a directory" in capsys.readouterr().err
