"""`hrc eval score --order trec_eval` reproduces trec_eval on runs with tied scores.

A TREC run is ranked by its rank column here (METRIC-3); trec_eval ignores that column and
sorts by score, ties by docid descending. On tied runs the two disagree, the default run says
so, and `--order trec_eval` gives trec_eval's per-query values bit for bit (pytrec_eval, the
`test` extra).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from conformance import cli
from conformance.reports.eval_trec import trec_eval_order

TREC = {"precision": "P_{k}", "recall": "recall_{k}", "reciprocalRank": "recip_rank",
        "ndcg": "ndcg_cut_{k}", "hit": "success_{k}", "averagePrecision": "map"}


def test_trec_eval_order_is_score_then_docid_descending() -> None:
    entries = [("b", 1.0), ("a", 2.0), ("c", 1.0), ("B", 1.0), ("é", 1.0)]
    assert trec_eval_order(entries) == ["a", "é", "c", "b", "B"]


def _tied_run(rng: random.Random) -> tuple[str, dict[str, dict[str, float]], str]:
    """A run file whose ranks follow insertion order while scores tie in small groups."""
    lines, scored, qrels = [], {}, []
    for q in range(30):
        qid = f"q{q}"
        docs = rng.sample([f"d{i:02d}" for i in range(40)], rng.randint(3, 15))
        scores = {d: float(rng.randint(1, 4)) for d in docs}
        scored[qid] = scores
        lines += [f"{qid} Q0 {d} {r} {scores[d]} tag" for r, d in enumerate(docs, 1)]
        qrels += [f"{qid} 0 {d} {rng.choice((0, 1, 2, 3))}" for d in rng.sample(docs, 3)]
    return "\n".join(lines) + "\n", scored, "\n".join(qrels) + "\n"


def test_order_trec_eval_matches_pytrec_eval_on_tied_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import pytrec_eval

    text, scored, qrels_text = _tied_run(random.Random(27))
    run, qrels = tmp_path / "tied.run", tmp_path / "qrels.txt"
    run.write_text(text, encoding="utf-8")
    qrels.write_text(qrels_text, encoding="utf-8")
    k = 5
    judged = {}
    for line in qrels_text.splitlines():
        qid, _, doc, rel = line.split()
        judged.setdefault(qid, {})[doc] = int(rel)
    names = {m: t.format(k=k) for m, t in TREC.items()}
    wanted = {".".join(n.rsplit("_", 1)) if "{k}" in TREC[m] else n for m, n in names.items()}
    theirs = pytrec_eval.RelevanceEvaluator(judged, wanted).evaluate(scored)

    def ours(*order: str) -> tuple[dict[str, dict[str, float]], str]:
        out = tmp_path / "out.json"
        assert cli.main(["eval", "score", str(run), "--qrels", str(qrels), "--k", str(k),
                         "--json", str(out), *order]) == 0
        err = capsys.readouterr().err
        rows = json.loads(out.read_text(encoding="utf-8"))["modes"]["tied"]["queries"]
        return {r["query"]: r for r in rows}, err

    by_score, quiet = ours("--order", "trec_eval")
    compared = 0
    for qid, row in by_score.items():
        for measure, name in names.items():
            assert row[measure] == theirs[qid][name], (qid, measure)
            compared += 1
    assert compared > 100 and "note:" not in quiet
    by_rank, note = ours()
    differ = sum(by_rank[q][m] != by_score[q][m] for q in by_score for m in names)
    assert differ > 0, "the tied run must exercise the difference"
    assert "eval score: tied: note: in " in note and "--order trec_eval" in note
