"""hrc adapter around ir-measures (its default provider chain; pytrec_eval answers these).

The run becomes ir-measures' dict form `query -> {doc: score}` with scores falling with the
rank (`len - r`), the qrels are passed as given. `iter_calc` gives the per-query values of
P@k, R@k, RR, nDCG@k, Success@k (hit), AP, NumRel and NumRet; `calc_aggregate` the means.
The queries in the output are those ir-measures returned a value for; `excluded` and
`unjudged` are the qrels and run queries it did not. `relevantRetrieved` is `P@k * k`, read
off the library's precision (NumRelRet has no cut-off). See FINDINGS.md.
"""

from __future__ import annotations

import sys
from importlib.metadata import version
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import ir_measures
import wildproto
from ir_measures import AP, RR, NumRel, NumRet, P, R, Success, nDCG

# ir-measures validates measure parameters with `assert`.
wildproto.ERROR_KINDS.append((AssertionError, "invalid_input"))


def op_metrics(inp: dict[str, Any]) -> dict[str, Any]:
    run_in: dict[str, list[str]] = inp["run"]
    qrels_in: dict[str, dict[str, int]] = inp["qrels"]
    k = 5 if inp.get("k") is None else inp["k"]
    for ids in run_in.values():
        wildproto.no_repeats(ids, "an ir-measures run")
    run = {q: {d: float(len(ids) - r) for r, d in enumerate(ids)} for q, ids in run_in.items()}
    names = {"precision": P @ k, "recall": R @ k, "reciprocalRank": RR, "ndcg": nDCG @ k,
             "hit": Success @ k, "averagePrecision": AP}
    measures = [*names.values(), NumRel, NumRet]
    values: dict[str, dict[Any, float]] = {}
    for metric in ir_measures.iter_calc(measures, qrels_in, run):
        values.setdefault(metric.query_id, {})[metric.measure] = metric.value
    rows = []
    for query in sorted(values):
        got = values[query]
        rows.append({
            "query": query,
            "relevant": int(got[NumRel]),
            "retrieved": int(got[NumRet]),
            "relevantRetrieved": round(got[P @ k] * k),
            **{field: float(got[measure]) for field, measure in names.items()},
        })
    means = ir_measures.calc_aggregate(measures, qrels_in, run)
    return {
        "queries": rows,
        "excluded": sorted(q for q in qrels_in if q not in values),
        "unjudged": sorted(q for q in run_in if q not in values),
        "mean": {field: float(means[m]) if m in means else None for field, m in names.items()},
    }


if __name__ == "__main__":
    sys.exit(wildproto.serve("ir-measures", version("ir-measures"), {"metrics": op_metrics}, []))
