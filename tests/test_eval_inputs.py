"""`hrc eval` reads its inputs bounded and exactly (issue 29, item 5): regular files only, a
size bound, `file:line` errors at the right line, strict integers and finite scores."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conformance.cli import main
from conformance.reports import eval_trec
from conformance.reports.eval_trec import EvalFileError, read_qrels, read_run

ROOT = Path(__file__).resolve().parent.parent
QRELS = ROOT / "corpus/demo-qrels/qrels.txt"
POSIX = pytest.mark.skipif(os.name != "posix", reason="POSIX files")


def _hrc(*args: str) -> subprocess.CompletedProcess[str]:
    """The CLI in a child with a deadline: reading a FIFO would block it for ever."""
    return subprocess.run([sys.executable, "-m", "conformance.cli", *args],
                          capture_output=True, text=True, timeout=60, check=False)


def _one_error_line(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 2, done
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    return done.stderr


@POSIX
def test_a_fifo_as_qrels_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "qrels.fifo"
    os.mkfifo(fifo)
    err = _one_error_line(_hrc("eval", "score", str(QRELS), "--qrels", str(fifo)))
    assert f"{fifo}: a FIFO, not a regular file" in err


@POSIX
def test_dev_zero_as_a_run_is_refused_without_reading_it() -> None:
    err = _one_error_line(_hrc("eval", "score", "/dev/zero", "--qrels", str(QRELS)))
    assert "/dev/zero: a device, not a regular file" in err


def test_a_missing_file_is_one_plain_line(tmp_path: Path) -> None:
    missing = tmp_path / "nope.run"
    err = _one_error_line(_hrc("eval", "score", str(missing), "--qrels", str(QRELS)))
    assert err.endswith(f"{missing}: no such file\n")
    assert "Errno" not in err and ":0:" not in err


def test_a_file_above_the_bound_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = tmp_path / "big.run"
    run.write_text("q Q0 a 1 1 t\n" * 10, encoding="utf-8")
    monkeypatch.setattr(eval_trec, "MAX_FILE_BYTES", 100)
    with pytest.raises(EvalFileError, match="larger than 100 bytes"):
        read_run(run)


@pytest.mark.parametrize("separator", ["\v", "\f", "\x1c", "\x1d", "\x1e", "\x85", "\u2028",
                                       "\u2029"])
def test_other_line_breaks_are_errors_at_their_own_line(tmp_path: Path, separator: str) -> None:
    qrels = tmp_path / "q.qrels"
    qrels.write_text(f"q1 0 a 1\nq1 0 b 1{separator}q1 0 c 1\nq1 0 d x\n", encoding="utf-8")
    with pytest.raises(EvalFileError, match=rf"^{qrels}:2: character U\+{ord(separator):04X}"):
        read_qrels(qrels)


def test_errors_after_a_crlf_file_keep_their_line(tmp_path: Path) -> None:
    qrels = tmp_path / "q.qrels"
    qrels.write_bytes(b"q1 0 a 1\r\nq1 0 b 1\r\nq1 0 c x\r\n")
    with pytest.raises(EvalFileError, match=rf"^{qrels}:3: relevance must be an integer"):
        read_qrels(qrels)


def test_a_bad_byte_is_reported_at_its_line(tmp_path: Path) -> None:
    qrels = tmp_path / "q.qrels"
    qrels.write_bytes(b"q1 0 a 1\nq1 0 b 1\nq1 0 \xff 1\n")
    with pytest.raises(EvalFileError, match=rf"^{qrels}:3: not UTF-8: byte 0xff"):
        read_qrels(qrels)


@pytest.mark.parametrize("relevance", ["1_0", "\u0663", "+1", " 1".strip() + "\u00a0", "1.0"])
def test_an_integer_is_ascii_digits_only(tmp_path: Path, relevance: str) -> None:
    qrels = tmp_path / "q.qrels"
    qrels.write_text(f"q1 0 a {relevance}\n", encoding="utf-8")
    with pytest.raises(EvalFileError, match=rf"^{qrels}:1: "):
        read_qrels(qrels)


@pytest.mark.parametrize("score", ["nan", "NaN", "inf", "-Infinity", "1e400", "-1e309", "0x10",
                                   "1_0", "\u0663"])
def test_a_score_is_a_finite_decimal_number(tmp_path: Path, score: str) -> None:
    run = tmp_path / "r.run"
    run.write_text(f"q Q0 a 1 {score} t\n", encoding="utf-8")
    with pytest.raises(EvalFileError, match=rf"^{run}:1: score must be a number"):
        read_run(run)


@pytest.mark.parametrize("score", ["1", "-1.5", "2e-3", ".5", "7.", "1E+300"])
def test_decimal_scores_are_accepted(tmp_path: Path, score: str) -> None:
    run = tmp_path / "r.run"
    run.write_text(f"q Q0 a 1 {score} t\n", encoding="utf-8")
    assert read_run(run) == {"q": ["a"]}


def test_tabs_and_runs_of_spaces_separate_fields(tmp_path: Path) -> None:
    run = tmp_path / "r.run"
    run.write_text("q\tQ0  a \t1 1 t\n", encoding="utf-8")
    assert read_run(run) == {"q": ["a"]}


@POSIX
def test_a_fifo_as_a_capture_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "capture.jsonl"
    os.mkfifo(fifo)
    done = _hrc("eval", "replay", "--against", str(fifo), "--db", str(tmp_path / "none.db"))
    assert f"{fifo}: a FIFO, not a regular file" in _one_error_line(done)


def test_qrels_checked_against_queries_use_the_same_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The query-id check reads the qrels as read_qrels does: a comment or a CRLF changes no
    line number."""
    (tmp_path / "queries.tsv").write_text("q1\tpancakes\n", encoding="utf-8")
    qrels = tmp_path / "qrels.txt"
    qrels.write_bytes(b"# judged\r\nq1 0 a 1\r\nq9\t0 b 1\r\n")
    db = tmp_path / "demo.db"
    assert main(["index", str(ROOT / "corpus/demo"), "--db", str(db)]) == 0
    capsys.readouterr()
    assert main(["eval", "--db", str(db), "--qrels", str(qrels)]) == 2
    assert f"{qrels}:3: unknown query id 'q9'" in capsys.readouterr().err
