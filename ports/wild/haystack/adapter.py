"""hrc adapter around Haystack's `DocumentJoiner(join_mode="reciprocal_rank_fusion")`.

Each input list becomes a list of Haystack `Document`s (the candidate's id as `id`, its
`content` as content, its other fields in `meta`); `DocumentJoiner(join_mode=
"reciprocal_rank_fusion", weights=[...]).run(documents=lists)` fuses them and sorts by score
(its default `sort_by_score=True`, no `top_k`). The list weights (1 when absent, the spec's
default) are passed as `weights`. The fusion has no `k` parameter (61 is built in, for
0-based ranks): an input with a `k` other than 60 is answered `unsupported`. Telemetry is
switched off. See FINDINGS.md.
"""

from __future__ import annotations

import os
import sys
from importlib.metadata import version
from pathlib import Path
from typing import Any

os.environ["HAYSTACK_TELEMETRY_ENABLED"] = "False"
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import wildproto
from haystack import Document
from haystack.components.joiners import DocumentJoiner

#: The spec's k that Haystack's built-in constant stands for (61 on 0-based ranks).
LIBRARY_K = 60


def document(candidate: dict[str, Any]) -> Document:
    meta = {key: candidate.get(key) for key in ("path", "title", "summary", "metadata")}
    return Document(id=candidate["id"], content=candidate.get("content") or "", meta=meta)


def op_rrf(inp: dict[str, Any]) -> dict[str, Any]:
    lists = wildproto.lists_of(inp)
    k = inp.get("k")
    if k is not None and (isinstance(k, bool) or k != LIBRARY_K):
        raise wildproto.Unsupported(f"DocumentJoiner has no k parameter (k {k!r})")
    joiner = DocumentJoiner(join_mode="reciprocal_rank_fusion",
                            weights=[lst["weight"] for lst in lists])
    out = joiner.run(documents=[[document(c) for c in lst["items"]] for lst in lists])
    results = []
    for doc in out["documents"]:
        fields = {**doc.meta, "id": doc.id, "content": doc.content}
        results.append(wildproto.fused(fields, float(doc.score)))
    return {"results": results}


if __name__ == "__main__":
    sys.exit(wildproto.serve(
        "haystack-ai DocumentJoiner", version("haystack-ai"), {"rrf": op_rrf}, ["rrf-weights"],
    ))
