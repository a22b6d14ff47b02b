"""Reference handlers of the pipeline operations `search` and `search_corpus`.

Spec: spec/operations.md, spec/pipeline.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from conformance.adapters.ops import JSON, operation
from reference.types import InvalidInput


@operation("search")
def op_search(inp: JSON) -> JSON:
    """Run the pipeline on scripted backends built from the case's `backends` object."""
    from reference.backends.scripted import scripted_backends_from_json
    from reference.pipeline import Backends, search

    request = inp.get("request")
    if not isinstance(request, Mapping):
        raise InvalidInput("search: request must be an object")
    raw = inp.get("backends")
    raw = {} if raw is None else raw  # OP-5: null is absent
    if not isinstance(raw, Mapping):
        raise InvalidInput("search: backends must be an object")
    scripted = scripted_backends_from_json(raw)
    backends = Backends(
        index=scripted.index,
        embedder=scripted.embedder,
        vectors=scripted.vectors,
        reranker=scripted.reranker,
        graph=scripted.graph,
        profile_data=scripted.profile_data,
    )
    results, trace = search(request, backends)
    return {"results": results, "trace": trace}


@cache
def _corpus_backends(name: str) -> Any:
    """The real backends over a shipped corpus, built once per process (BACKEND clauses)."""
    from reference.backends.indexer import IndexingError, open_corpus
    from reference.pipeline import Backends

    try:
        opened = open_corpus(name)
    except IndexingError as exc:
        raise InvalidInput(f"search_corpus: {exc}") from exc
    return Backends(
        index=opened.index,
        embedder=opened.embedder,
        vectors=opened.vectors,
        reranker=opened.reranker,
    )


@operation("search_corpus")
def op_search_corpus(inp: JSON) -> JSON:
    """Run the pipeline on the real backends over a corpus shipped with the kit."""
    from reference.pipeline import search

    name = inp.get("corpus")
    if not isinstance(name, str):
        raise InvalidInput("search_corpus: corpus must be a string")
    request = inp.get("request")
    if not isinstance(request, Mapping):
        raise InvalidInput("search_corpus: request must be an object")
    results, trace = search(request, _corpus_backends(name))
    return {"results": results, "trace": trace}
