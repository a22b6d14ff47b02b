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


def test_search_trace_shows_the_first_pass(
    indexed: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """TRACE-17, FANOUT-19: with `--fanout`, `--trace` lists every first-pass query and its
    hits before the rungs; without it there is no first-pass block."""
    argv = ["search", "--db", str(indexed), "kubernetes cluster", "--trace", "--mode", "bm25"]
    assert main([*argv, "--fanout"]) == 0
    out = capsys.readouterr().out
    assert "first pass: 3 queries" in out
    assert '"kubernetes cluster"' in out and '"cluster"' in out and '"kubernetes"' in out
    assert out.index("first pass") < out.index("rung initial")
    assert main(argv) == 0
    assert "first pass" not in capsys.readouterr().out


def test_trace_is_the_readable_view_and_json_is_the_json(
    indexed: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """TRACE-1: `--trace` prints the readable view only (no JSON dump after it); the whole trace
    as JSON is `--json`."""
    assert main(["search", "--db", str(indexed), "kubernetes", "--trace"]) == 0
    out = capsys.readouterr().out
    assert "mode: auto -> " in out and "rerank: " in out
    assert '"requestedMode"' not in out and "{" not in out
    assert main(["search", "--db", str(indexed), "kubernetes", "--json"]) == 0
    assert "requestedMode" in json.loads(capsys.readouterr().out)["trace"]


def test_one_agreement_is_singular() -> None:
    """UNAN-1: the readable trace says `1 agreement`, `2 agreements`."""
    from reference.cli import _plural

    assert _plural(1, "agreement") == "1 agreement"
    assert _plural(0, "agreement") == "0 agreements"
    assert _plural(2, "agreement") == "2 agreements"


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


def test_non_utf8_file_is_reported_and_skipped_not_the_end_of_the_run(
    notes: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """BACKEND-13: `hrc index` reports a file that is not UTF-8 on one warning line naming it
    and indexes the rest."""
    write(notes, "broken.md", b"\xff\xfe not utf-8")
    db = tmp_path / "n.db"
    assert main(["index", str(notes), "--db", str(db)]) == 0
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith("hrc index: warning: broken.md: not valid UTF-8")
    assert db.exists()
    assert main(["search", "--db", str(db), "--json", "kubernetes"]) == 0


def test_empty_folder_warns_that_the_index_is_empty(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """BACKEND-12: indexing a folder without a *.md or *.txt file warns instead of a silent
    empty index."""
    (tmp_path / "empty").mkdir()
    assert main(["index", str(tmp_path / "empty"), "--db", str(tmp_path / "n.db")]) == 0
    err = capsys.readouterr().err
    assert err.startswith("hrc index: warning: no *.md or *.txt file to index under ")
    assert "the index is empty" in err


def test_not_a_directory_is_rejected(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """BACKEND-12: indexing needs a folder."""
    assert main(["index", str(tmp_path / "nope"), "--db", str(tmp_path / "n.db")]) == 2
    assert "not a directory" in capsys.readouterr().err
