"""The JavaScript port's metrics (ports/js/src/metrics.mjs) give the reference's bits on 500
generated inputs (METRIC-3, METRIC-8, METRIC-11, METRIC-12): duplicates, graded and negative
judgements, empty runs, unjudged and excluded queries, cut-offs up to 1000."""

from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path

from conformance.adapters.ops.metrics import op_metrics

ROOT = Path(__file__).resolve().parent.parent

SCRIPT = """
import { evaluate, parseRun, parseQrels, parseK } from './src/metrics.mjs';
let text = '';
process.stdin.on('data', (c) => { text += c; });
process.stdin.on('end', () => {
  const one = (i) => evaluate(parseRun(i.run), parseQrels(i.qrels), parseK(i.k));
  const out = JSON.parse(text).map(one);
  process.stdout.write(JSON.stringify(out));
});
"""


def _inputs(n: int, seed: int) -> list[dict[str, object]]:
    rng = random.Random(seed)
    pool = [f"d{i}" for i in range(80)]
    out: list[dict[str, object]] = []
    for _ in range(n):
        qrels = {f"q{q}": {d: rng.randint(-2, 4) for d in rng.sample(pool, rng.randint(0, 25))}
                 for q in range(rng.randint(0, 6))}
        run = {f"q{q}": [rng.choice(pool) for _ in range(rng.randint(0, 60))]
               for q in range(rng.randint(0, 7))}
        out.append({"run": run, "qrels": qrels, "k": rng.choice((1, 2, 5, 10, 50, 1000))})
    return out


def test_js_port_metrics_are_bit_identical_to_the_reference() -> None:
    inputs = _inputs(500, 20261123)
    done = subprocess.run(
        ["node", "--input-type=module", "-e", SCRIPT],
        input=json.dumps(inputs), capture_output=True, text=True, check=True,
        cwd=ROOT / "ports/js",
    )
    theirs = json.loads(done.stdout)
    ours = [json.loads(json.dumps(op_metrics(i))) for i in inputs]
    mismatched = [i for i, (a, b) in enumerate(zip(ours, theirs, strict=True)) if a != b]
    assert mismatched == []
    assert sum(len(o["queries"]) for o in ours) > 1000
