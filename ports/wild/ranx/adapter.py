"""hrc adapter around ranx: `fuse(runs, method="rrf")` and `evaluate(qrels, run, metrics)`.

ranx works on runs, maps `query id -> {doc id: score}`, so the adapter writes each input list
as a run of one query whose scores fall with the rank (`len - r`), and reads ranx's fused run
in ranx's own order (`Run.sort`, applied by the fusion). ranx carries ids and scores only:
the candidate fields of a result (path, title, ...) are the first sighting's, attached by the
adapter, so the merge clauses measure that convention, not ranx (FINDINGS.md).

Metrics: `evaluate(..., make_comparable=True)` (ranx's option for runs and qrels whose queries
differ) with precision@k, recall@k, mrr, ndcg@k, hit_rate@k, map and hits@k; means are ranx's
(`return_mean=True`). The row counts `relevant` and `retrieved` are read off the input.
"""

from __future__ import annotations

import sys
from importlib.metadata import version
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import wildproto
from ranx import Qrels, Run, evaluate, fuse

# ranx validates with `assert` ("Only one run provided", query ids that do not match).
wildproto.ERROR_KINDS.append((AssertionError, "invalid_input"))

QUERY = "q"


def op_rrf(inp: dict[str, Any]) -> dict[str, Any]:
    lists = wildproto.lists_of(inp)
    wildproto.unweighted(lists, "ranx rrf")
    first_seen: dict[str, dict[str, Any]] = {}
    runs = []
    for lst in lists:
        ids = [c["id"] for c in lst["items"]]
        wildproto.no_repeats(ids, "a ranx Run")
        for candidate in lst["items"]:
            first_seen.setdefault(candidate["id"], candidate)
        scores = {doc: float(len(ids) - r) for r, doc in enumerate(ids)}
        runs.append(Run.from_dict({QUERY: scores}))
    params = {} if inp.get("k") is None else {"k": inp["k"]}
    result = fuse(runs=runs, method="rrf", params=params)
    ranked = result.to_dict().get(QUERY, {})
    return {"results": [wildproto.fused(first_seen[doc], float(score))
                        for doc, score in ranked.items()]}


def op_metrics(inp: dict[str, Any]) -> dict[str, Any]:
    run_in: dict[str, list[str]] = inp["run"]
    qrels_in: dict[str, dict[str, int]] = inp["qrels"]
    k = 5 if inp.get("k") is None else inp["k"]
    for ids in run_in.values():
        wildproto.no_repeats(ids, "a ranx Run")
    run = Run.from_dict({q: {d: float(len(ids) - r) for r, d in enumerate(ids)}
                         for q, ids in run_in.items()})
    qrels = Qrels.from_dict(qrels_in)
    names = {"precision": f"precision@{k}", "recall": f"recall@{k}", "reciprocalRank": "mrr",
             "ndcg": f"ndcg@{k}", "hit": f"hit_rate@{k}", "averagePrecision": "map"}
    measures = [*names.values(), f"hits@{k}"]
    per_query = evaluate(qrels, run, measures, return_mean=False, make_comparable=True)
    means = evaluate(qrels, run, measures, return_mean=True, make_comparable=True)
    evaluated = list(run.get_query_ids())  # ranx's query order, that of its score arrays
    rows = []
    for i, query in enumerate(evaluated):
        judged = qrels_in.get(query, {})
        rows.append({
            "query": query,
            "relevant": sum(1 for rel in judged.values() if rel > 0),
            "retrieved": len(run_in.get(query, [])),
            "relevantRetrieved": int(per_query[f"hits@{k}"][i]),
            **{field: float(per_query[name][i]) for field, name in names.items()},
        })
    return {
        "queries": rows,
        "excluded": sorted(q for q in qrels_in if q not in evaluated),
        "unjudged": sorted(q for q in run_in if q not in evaluated),
        "mean": {field: float(means[name]) for field, name in names.items()},
    }


def warm_up() -> None:
    """Compile ranx's numba kernels before hello (the first call takes seconds)."""
    op_rrf({"lists": [{"items": [{"id": "a", "path": "a"}]},
                      {"items": [{"id": "b", "path": "b"}]}]})
    op_metrics({"run": {"q": ["a", "b"]}, "qrels": {"q": {"a": 1}}})


if __name__ == "__main__":
    warm_up()
    sys.exit(wildproto.serve("ranx", version("ranx"), {"rrf": op_rrf, "metrics": op_metrics},
                             []))
