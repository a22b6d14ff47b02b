"""hrc adapter around qdrant-client's local mode (`QdrantClient(":memory:")`), RRF fusion query.

Each distinct candidate id becomes one point (integer ids in order of first sighting) whose
payload is the first sighting's fields: a point holds one payload, so the merge clauses
measure that storage convention, not Qdrant. Input list `i` becomes the named vector `l{i}`
(one dimension, dot product): the item at rank `r` of a list of `n` has `l{i} = [n - r]`, so the
prefetch `Prefetch(query=[1.0], using="l{i}")` returns exactly that list in its order. The
fusion is `query_points(prefetch=[...], query=RrfQuery(rrf=Rrf(k=k, weights=w)))`: `k` is
passed when given (else Qdrant's default applies), the list weights when an input gives one.
No embedding model, no network. See FINDINGS.md.
"""

from __future__ import annotations

import sys
from importlib.metadata import version
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import wildproto
from qdrant_client import QdrantClient, models

CLIENT = QdrantClient(":memory:")
COLLECTION = "hrc"


def op_rrf(inp: dict[str, Any]) -> dict[str, Any]:
    lists = wildproto.lists_of(inp)
    point_of: dict[str, int] = {}
    vectors: dict[int, dict[str, list[float]]] = {}
    payloads: dict[int, dict[str, Any]] = {}
    for i, lst in enumerate(lists):
        ids = [c["id"] for c in lst["items"]]
        wildproto.no_repeats(ids, "a Qdrant point (one vector per name)")
        for r, candidate in enumerate(lst["items"]):
            point = point_of.setdefault(candidate["id"], len(point_of))
            payloads.setdefault(point, dict(candidate))
            vectors.setdefault(point, {})[f"l{i}"] = [float(len(ids) - r)]
    names = [f"l{i}" for i in range(len(lists))] or ["l0"]
    if CLIENT.collection_exists(COLLECTION):
        CLIENT.delete_collection(COLLECTION)
    CLIENT.create_collection(COLLECTION, vectors_config={
        name: models.VectorParams(size=1, distance=models.Distance.DOT) for name in names})
    if point_of:
        CLIENT.upsert(COLLECTION, points=[
            models.PointStruct(id=p, vector=vectors[p], payload=payloads[p])
            for p in sorted(payloads)])
    weights = [lst["weight"] for lst in lists]
    explicit = any(lst.get("weight") is not None for lst in inp["lists"])
    rrf = models.Rrf(k=inp.get("k"), weights=weights if explicit else None)
    hits = CLIENT.query_points(
        COLLECTION,
        prefetch=[models.Prefetch(query=[1.0], using=f"l{i}", limit=max(1, len(lst["items"])))
                  for i, lst in enumerate(lists)],
        query=models.RrfQuery(rrf=rrf), limit=max(1, len(point_of)), with_payload=True,
    ).points
    return {"results": [wildproto.fused(hit.payload or {}, float(hit.score)) for hit in hits]}


if __name__ == "__main__":
    sys.exit(wildproto.serve("qdrant-client local mode", version("qdrant-client"),
                             {"rrf": op_rrf}, ["rrf-weights"]))
