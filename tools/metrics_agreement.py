"""Compare the reference metrics (spec/metrics.md) with trec_eval through pytrec_eval.

`python tools/metrics_agreement.py [RUNS] [SEED]` prints how many per-query values agree bit
for bit. Runs have distinct documents and strictly decreasing scores, so trec_eval's order
(score, then document id) is the list order (spec/metrics.md, "Correspondence with trec_eval").
Queries without relevant documents are compared with trec_eval's 0 separately (METRIC-4).
"""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from reference import metrics

#: our measure -> trec_eval measure, `{k}` replaced by the cut-off.
TREC_NAMES = {
    "precision": "P_{k}",
    "recall": "recall_{k}",
    "reciprocalRank": "recip_rank",
    "ndcg": "ndcg_cut_{k}",
    "hit": "success_{k}",
    "averagePrecision": "map",
}


@dataclass
class Agreement:
    """Counts of compared values; `mismatches` lists the first few differences."""

    runs: int = 0
    queries: int = 0
    values: int = 0
    identical: int = 0
    unanswerable: int = 0
    mismatches: list[str] = field(default_factory=list)


def generate(rng: random.Random) -> tuple[dict[str, list[str]], dict[str, dict[str, int]], int]:
    """One random run: 1-5 queries, 0-40 documents each, graded judgements -1..3."""
    run: dict[str, list[str]] = {}
    qrels: dict[str, dict[str, int]] = {}
    pool = [f"d{i}" for i in range(60)]
    for q in range(rng.randint(1, 5)):
        qid = f"q{q}"
        judged = rng.sample(pool, rng.randint(0, 20))
        qrels[qid] = {d: rng.choice((-1, 0, 0, 1, 1, 2, 3)) for d in judged}
        run[qid] = rng.sample(pool, rng.randint(0, 40))
    return run, qrels, rng.choice((1, 3, 5, 10, 20, 100))


def compare(n_runs: int = 1000, seed: int = 20261123) -> Agreement:
    import pytrec_eval  # the `test` extra (pyproject.toml)

    rng = random.Random(seed)
    out = Agreement()
    for _ in range(n_runs):
        run, qrels, k = generate(rng)
        names = {m: t.format(k=k) for m, t in TREC_NAMES.items()}
        wanted = {".".join(t.rsplit("_", 1)) if "{k}" in TREC_NAMES[m] else t
                  for m, t in names.items()}
        scored = {q: {d: float(len(docs) - i) for i, d in enumerate(docs)}
                  for q, docs in run.items() if docs}
        trec = pytrec_eval.RelevanceEvaluator(qrels, wanted).evaluate(scored)
        ours = metrics.evaluate(run, qrels, k)
        out.runs += 1
        for row in ours.queries:
            out.queries += 1
            theirs = trec.get(row.query)
            for measure, name in names.items():
                out.values += 1
                # trec_eval drops a query with no retrieved document (METRIC-4: we score 0).
                expected = 0.0 if theirs is None else theirs[name]
                if row.value(measure) == expected:
                    out.identical += 1
                elif len(out.mismatches) < 20:
                    out.mismatches.append(
                        f"{row.query} k={k} {measure}: ours {row.value(measure)!r} "
                        f"trec_eval {expected!r}"
                    )
        for qid in ours.excluded:
            if qid in trec:
                out.unanswerable += 1
                if any(trec[qid][n] != 0.0 for n in names.values()):
                    out.mismatches.append(f"{qid}: trec_eval scores an unanswerable query")
    return out


def main(argv: list[str]) -> int:
    n = int(argv[0]) if argv else 1000
    seed = int(argv[1]) if len(argv) > 1 else 20261123
    a = compare(n, seed)
    print(f"{a.runs} runs, {a.queries} evaluated queries, {a.values} per-query values: "
          f"{a.identical} bit-identical to trec_eval, {a.values - a.identical} different; "
          f"{a.unanswerable} queries without relevant documents scored 0 by trec_eval "
          f"and excluded here (METRIC-4)")
    for m in a.mismatches:
        print("  " + m)
    return 0 if not a.mismatches else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
