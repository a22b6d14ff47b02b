"""hrc adapter around LanceDB's `RRFReranker`, the reranker its hybrid and multi-vector
searches use, through `rerank_multivector` (any number of result lists).

Each input list becomes what a LanceDB search returns with `with_row_id(True)`: an Arrow table
with a `_rowid` column (one integer per distinct candidate id, in order of first sighting) and
the occurrence's fields as columns (`metadata` as a JSON string, decoded back on the way out).
`RRFReranker(K=k).rerank_multivector(tables, query, deduplicate=True)` fuses them; the result
is read in its order, with its `_relevance_score`. No table, no index, no embedding model: the
reranker is called as a search would call it. It has no list weights (`rrf-weights` is not
declared). See FINDINGS.md.
"""

from __future__ import annotations

import json
import sys
from importlib.metadata import version
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import pyarrow as pa
import wildproto
from lancedb.rerankers import RRFReranker

FIELDS = ("id", "path", "title", "summary", "content")


def table(items: list[dict[str, Any]], row_of: dict[str, int]) -> pa.Table:
    columns: dict[str, list[Any]] = {"_rowid": [row_of[c["id"]] for c in items]}
    for field in FIELDS:
        columns[field] = [c.get(field) for c in items]
    columns["metadata"] = [json.dumps(c.get("metadata")) for c in items]
    schema = pa.schema([("_rowid", pa.uint64()), *[(f, pa.string()) for f in FIELDS],
                        ("metadata", pa.string())])
    return pa.table(columns, schema=schema)


def op_rrf(inp: dict[str, Any]) -> dict[str, Any]:
    lists = wildproto.lists_of(inp)
    wildproto.unweighted(lists, "LanceDB RRFReranker")
    row_of: dict[str, int] = {}
    for lst in lists:
        for candidate in lst["items"]:
            row_of.setdefault(candidate["id"], len(row_of))
    reranker = RRFReranker() if inp.get("k") is None else RRFReranker(K=inp["k"])
    fused = reranker.rerank_multivector([table(lst["items"], row_of) for lst in lists],
                                        "query", deduplicate=True)
    results = []
    for row in fused.to_pylist():
        fields = {**{f: row.get(f) for f in FIELDS}, "metadata": json.loads(row["metadata"])}
        results.append(wildproto.fused(fields, float(row["_relevance_score"])))
    return {"results": results}


if __name__ == "__main__":
    sys.exit(wildproto.serve("lancedb RRFReranker", version("lancedb"), {"rrf": op_rrf}, []))
