"""`hrc eval`, `eval score`, `eval export` and `eval replay` (conformance/commands/eval.py), with
bad
inputs: malformed TREC lines as `file:line`, unknown query ids, empty runs (METRIC-4)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections.abc import Mapping
from pathlib import Path

import pytest

from conformance.cli import main
from conformance.reports.eval_trec import (
    EvalFileError,
    format_run,
    read_qrels,
    read_run,
)


def format_qrels(qrels: Mapping[str, Mapping[str, int]]) -> str:
    """Qrels in TREC format, queries and documents in code point order."""
    return "".join(
        f"{qid} 0 {doc} {qrels[qid][doc]}\n" for qid in sorted(qrels) for doc in sorted(qrels[qid])
    )

ROOT = Path(__file__).resolve().parent.parent
QRELS = ROOT / "corpus/demo-qrels/qrels.txt"


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("eval") / "demo.db"
    assert main(["index", str(ROOT / "corpus/demo"), "--db", str(path)]) == 0
    return path


def _labelled(tmp: Path, qrels: str, queries: str) -> Path:
    (tmp / "queries.tsv").write_text(queries, encoding="utf-8")
    path = tmp / "qrels.txt"
    path.write_text(qrels, encoding="utf-8")
    return path


def test_eval_prints_the_table_and_writes_json_chart_and_runs(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_json, chart, runs = tmp_path / "e.json", tmp_path / "c.svg", tmp_path / "runs"
    status = main(["eval", "--db", str(db), "--qrels", str(QRELS), "--modes", "bm25,hybrid",
                   "--json", str(out_json), "--chart", str(chart), "--write-runs", str(runs)])
    assert status == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["mode", "P@5", "R@5", "MRR", "nDCG@5", "Hit@5", "MAP", "queries"]
    assert [line.split()[0] for line in lines[2:]] == ["bm25", "hybrid"]
    doc = json.loads(out_json.read_text(encoding="utf-8"))
    assert doc["k"] == 5 and len(doc["modes"]["bm25"]["queries"]) >= 30
    svg = ET.fromstring(chart.read_text(encoding="utf-8"))
    bars = [e for e in svg.iter("{http://www.w3.org/2000/svg}rect") if e.find(
        "{http://www.w3.org/2000/svg}title") is not None]
    assert len(bars) == 2 * 6  # one bar per mode and metric
    # The TREC runs written, scored again from the files, give the same means (METRIC-3).
    assert main(["eval", "score", str(runs / "bm25.run"), str(runs / "hybrid.run"),
                 "--qrels", str(QRELS), "--json", str(tmp_path / "s.json")]) == 0
    scored = json.loads((tmp_path / "s.json").read_text(encoding="utf-8"))
    assert scored["modes"]["bm25"]["mean"] == doc["modes"]["bm25"]["mean"]
    assert scored["modes"]["hybrid"]["mean"] == doc["modes"]["hybrid"]["mean"]


def test_trec_round_trip_and_strictly_decreasing_scores() -> None:
    run = {"q2": ["b", "a"], "q1": ["c"]}
    text = format_run(run, "t")
    assert text.splitlines() == ["q1 Q0 c 1 1 t", "q2 Q0 b 1 2 t", "q2 Q0 a 2 1 t"]
    assert format_qrels({"q": {"b": 1, "a": -1}}) == "q 0 a -1\nq 0 b 1\n"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("q1 0 a 1\nq1 0 b\n", ":2: expected 4 fields"),
        ("q1 0 a high\n", ":1: relevance must be an integer"),
        ("q1 0 a 1\nq1 0 a 2\n", ":2: document 'a' judged twice"),
        ("q1 0 a 99999999999\n", ":1: relevance 99999999999 is out of range"),
    ],
)
def test_malformed_qrels_lines_are_file_line(tmp_path: Path, content: str, message: str,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.qrels"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(EvalFileError, match=message.replace("(", r"\(")):
        read_qrels(path)
    assert main(["eval", "score", str(path), "--qrels", str(path)]) == 2
    assert f"{path}{message}" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("q1 Q0 a 1 0.5\n", ":1: expected 6 fields"),
        ("q1 Q0 a one 0.5 t\n", ":1: rank must be an integer"),
        ("q1 Q0 a 1 high t\n", ":1: score must be a number"),
        ("q1 Q0 a 1 2 t\nq1 Q0 b 1 1 t\n", ":2: rank 1 used twice"),
    ],
)
def test_malformed_run_lines_are_file_line(tmp_path: Path, content: str, message: str,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    run = tmp_path / "bad.run"
    run.write_text(content, encoding="utf-8")
    assert main(["eval", "score", str(run), "--qrels", str(QRELS)]) == 2
    assert f"{run}{message}" in capsys.readouterr().err


def test_run_is_ordered_by_rank_column(tmp_path: Path) -> None:
    run = tmp_path / "r.run"
    run.write_text("q Q0 b 2 9 t\nq Q0 a 1 1 t\n", encoding="utf-8")
    assert read_run(run) == {"q": ["a", "b"]}


def test_empty_run_scores_zero_and_unjudged_queries_are_reported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """METRIC-4: a judged query with no run line scores 0; the file may be empty."""
    run = tmp_path / "empty.run"
    run.write_text("# nothing retrieved\n", encoding="utf-8")
    out = tmp_path / "s.json"
    assert main(["eval", "score", str(run), "--qrels", str(QRELS), "--json", str(out)]) == 0
    doc = json.loads(out.read_text(encoding="utf-8"))["modes"]["empty"]
    assert doc["mean"]["ndcg"] == 0.0 and len(doc["queries"]) >= 30


def test_unknown_query_id_in_qrels_is_file_line(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    qrels = _labelled(tmp_path, "q1 0 recipes/pancakes.md 1\nq9 0 recipes/ramen.md 1\n",
                      "q1\tpancakes\n")
    assert main(["eval", "--db", str(db), "--qrels", str(qrels)]) == 2
    assert f"{qrels}:2: unknown query id 'q9'" in capsys.readouterr().err


def test_query_without_judgements_is_reported_not_scored(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    qrels = _labelled(tmp_path, "q1 0 recipes/pancakes.md 1\n", "q1\tpancakes\nq2\tramen\n")
    assert main(["eval", "--db", str(db), "--qrels", str(qrels), "--modes", "bm25"]) == 0
    captured = capsys.readouterr()
    assert "1.0000" in captured.out and "not scored: q2" in captured.err


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--modes", "bm25,fast"], "unknown mode(s) fast"),
        (["--k", "0"], "--k must be between 1 and 1000"),
        (["--queries", "/nonexistent/q.tsv"], "query texts not found"),
    ],
)
def test_bad_arguments_exit_2(db: Path, extra: list[str], message: str,
                              capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", "--db", str(db), "--qrels", str(QRELS), *extra]) == 2
    assert message in capsys.readouterr().err


def test_missing_database_and_missing_options_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["eval", "--db", str(tmp_path / "no.db"), "--qrels", str(QRELS)]) == 2
    assert "database not found" in capsys.readouterr().err
    assert main(["eval", "--qrels", str(QRELS)]) == 2
    assert "--db" in capsys.readouterr().err


def test_export_then_replay_unchanged_passes(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    captured = tmp_path / "captured.jsonl"
    assert main(["eval", "export", "--db", str(db), "--qrels", str(QRELS), "--modes",
                 "bm25", "-o", str(captured)]) == 0
    first = json.loads(captured.read_text(encoding="utf-8").splitlines()[0])
    assert {"mode", "id", "query", "qrels", "results", "trace"} <= set(first)
    assert first["trace"]["effectiveMode"] == "bm25"
    capsys.readouterr()
    assert main(["eval", "replay", "--db", str(db), "--against", str(captured)]) == 0
    assert "ok, no metric dropped" in capsys.readouterr().out


def test_replay_fails_when_a_metric_drops(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A capture whose results were perfect: today's ranking is worse, so exit 1 and report
    the rank changes of the relevant documents."""
    captured = tmp_path / "captured.jsonl"
    assert main(["eval", "export", "--db", str(db), "--qrels", str(QRELS), "--modes",
                 "bm25", "-o", str(captured)]) == 0
    lines = []
    for line in captured.read_text(encoding="utf-8").splitlines():
        obj = json.loads(line)
        ideal = sorted(obj["qrels"], key=lambda d: (-obj["qrels"][d], d))[: obj["k"]]
        obj["results"] = [{"id": d, "path": d, "score": 1.0} for d in ideal]
        lines.append(json.dumps(obj))
    captured.write_text("\n".join(lines) + "\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["eval", "replay", "--db", str(db), "--against", str(captured),
                 "--max-drop", "0.01"]) == 1
    out = capsys.readouterr()
    assert "FAIL bm25 P@5 dropped" in out.err
    assert " -> " in out.out  # a rank change such as `path: 1 -> 3`


def test_replay_rejects_a_malformed_capture(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    captured = tmp_path / "captured.jsonl"
    captured.write_text('{"mode": "bm25"}\n', encoding="utf-8")
    assert main(["eval", "replay", "--db", str(db), "--against", str(captured)]) == 2
    assert f"{captured}:1: not a captured search" in capsys.readouterr().err


def test_score_reports_run_queries_without_judgements(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """METRIC-4: a run query the qrels do not know is unjudged, reported and not scored."""
    run = tmp_path / "r.run"
    run.write_text("q01 Q0 projects/kubernetes/kubernetes-setup.md 1 1 t\n"
                   "zz Q0 recipes/ramen.md 1 1 t\n", encoding="utf-8")
    assert main(["eval", "score", str(run), "--qrels", str(QRELS)]) == 0
    assert "not scored: zz" in capsys.readouterr().err


def test_replay_rejects_an_unknown_mode(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    captured = tmp_path / "captured.jsonl"
    line = {"mode": "fast", "id": "q", "query": "tea", "k": 5, "depth": 5, "qrels": {},
            "results": []}
    captured.write_text(json.dumps(line) + "\n", encoding="utf-8")
    assert main(["eval", "replay", "--db", str(db), "--against", str(captured)]) == 2
    assert "unknown mode 'fast'" in capsys.readouterr().err
