"""hrc adapter around LlamaIndex's `QueryFusionRetriever` in reciprocal-rank mode.

Each input list becomes a retriever that returns it as `NodeWithScore`s: a `TextNode` with the
candidate's id as `id_`, its `content` as text and its other fields as node metadata, scored
`len - r` so that the retriever's order is the list's. `QueryFusionRetriever(retrievers,
mode="reciprocal_rerank", num_queries=1, use_async=False, similarity_top_k=<all>,
llm=MockLLM())` fuses them through its public `retrieve`: one query, so no LLM is asked for
query variants, and every fused node is returned. The mode has no `k` and no list weights:
an input with either is answered `unsupported` (rrf-weights is not declared). See FINDINGS.md.
"""

from __future__ import annotations

import sys
from importlib.metadata import version
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import wildproto
from llama_index.core.llms.mock import MockLLM
from llama_index.core.retrievers import BaseRetriever, QueryFusionRetriever
from llama_index.core.schema import NodeWithScore, QueryBundle, TextNode

#: The constant `_reciprocal_rerank_fusion` uses; no parameter sets it.
LIBRARY_K = 60


class FixedRetriever(BaseRetriever):
    """A retriever whose answer is one input list, in its order."""

    def __init__(self, items: list[dict[str, Any]]) -> None:
        super().__init__()
        self.items = items

    def _retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        return [NodeWithScore(node=node(c), score=float(len(self.items) - r))
                for r, c in enumerate(self.items)]


def node(candidate: dict[str, Any]) -> TextNode:
    meta = {key: candidate.get(key) for key in ("path", "title", "summary", "metadata")}
    return TextNode(id_=candidate["id"], text=candidate.get("content") or "", metadata=meta)


def op_rrf(inp: dict[str, Any]) -> dict[str, Any]:
    lists = wildproto.lists_of(inp)
    wildproto.unweighted(lists, "QueryFusionRetriever reciprocal_rerank")
    k = inp.get("k")
    if k is not None and (isinstance(k, bool) or k != LIBRARY_K):
        raise wildproto.Unsupported(f"QueryFusionRetriever has k = 60 built in (k {k!r})")
    retriever = QueryFusionRetriever(
        [FixedRetriever(lst["items"]) for lst in lists],
        llm=MockLLM(), mode="reciprocal_rerank", num_queries=1, use_async=False,
        similarity_top_k=max(1, sum(len(lst["items"]) for lst in lists)),
    )
    results = []
    for hit in retriever.retrieve("query"):
        fields = {**hit.node.metadata, "id": hit.node.id_, "content": hit.node.get_content()}
        results.append(wildproto.fused(fields, float(hit.score)))
    return {"results": results}


if __name__ == "__main__":
    sys.exit(wildproto.serve(
        "llama-index-core QueryFusionRetriever", version("llama-index-core"),
        {"rrf": op_rrf}, [],
    ))
