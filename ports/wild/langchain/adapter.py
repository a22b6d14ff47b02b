"""hrc adapter around LangChain's `EnsembleRetriever` (langchain-classic), weighted RRF.

Each input list becomes a retriever that returns it as LangChain `Document`s (the candidate's
`content` as `page_content`, its other fields in `metadata`); `EnsembleRetriever(retrievers,
weights, c=k, id_key="id")` fuses them through its public `invoke`. The list weights (1 when
absent, the spec's default) are passed explicitly; `k` is passed as `c` when given.

`EnsembleRetriever` returns documents, not scores. The scores it computed live in a local
`defaultdict` of `weighted_reciprocal_rank`; the adapter reads that map by giving the module a
recording `defaultdict` for the duration of the call. The floats are the library's own; the
adapter adds nothing to them. See FINDINGS.md.
"""

from __future__ import annotations

import collections
import sys
from importlib.metadata import version
from pathlib import Path
from typing import Any, ClassVar

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import wildproto
from langchain_classic.retrievers import EnsembleRetriever
from langchain_classic.retrievers import ensemble as ensemble_module
from langchain_core.callbacks import CallbackManagerForRetrieverRun
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever


class FixedRetriever(BaseRetriever):
    """A retriever whose answer is one input list, in its order."""

    docs: list[Document]

    def _get_relevant_documents(
        self, query: str, *, run_manager: CallbackManagerForRetrieverRun
    ) -> list[Document]:
        return list(self.docs)


class RecordingDict(collections.defaultdict):  # type: ignore[type-arg]
    """The module's `defaultdict`, remembering each instance so the scores can be read."""

    made: ClassVar[list[RecordingDict]] = []

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        RecordingDict.made.append(self)


def document(candidate: dict[str, Any]) -> Document:
    meta = {key: candidate.get(key) for key in ("id", "path", "title", "summary", "metadata")}
    return Document(page_content=candidate.get("content") or "", metadata=meta)


def op_rrf(inp: dict[str, Any]) -> dict[str, Any]:
    lists = wildproto.lists_of(inp)
    retrievers = [FixedRetriever(docs=[document(c) for c in lst["items"]]) for lst in lists]
    options: dict[str, Any] = {"id_key": "id"}
    if inp.get("k") is not None:
        options["c"] = inp["k"]
    ensemble = EnsembleRetriever(
        retrievers=retrievers, weights=[lst["weight"] for lst in lists], **options
    )
    RecordingDict.made.clear()
    ensemble_module.defaultdict = RecordingDict  # type: ignore[attr-defined]
    try:
        docs = ensemble.invoke("query")
    finally:
        ensemble_module.defaultdict = collections.defaultdict  # type: ignore[attr-defined]
    scores = RecordingDict.made[-1] if RecordingDict.made else {}
    results = []
    for doc in docs:
        candidate = {**doc.metadata, "content": doc.page_content}
        results.append(wildproto.fused(candidate, float(scores[doc.metadata["id"]])))
    return {"results": results}


if __name__ == "__main__":
    sys.exit(wildproto.serve(
        "langchain-classic EnsembleRetriever", version("langchain-classic"),
        {"rrf": op_rrf}, ["rrf-weights"],
    ))
