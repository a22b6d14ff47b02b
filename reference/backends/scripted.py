"""Scripted backends for the `search` op (spec/operations.md; spec/backends.md BACKEND-36..40, 42).

Every backend answers from the case's JSON, so the whole pipeline replays without an index or
a model. `scripted_backends_from_json` validates the object and names the bad field.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from reference.backends.protocols import RerankEntry
from reference.types import (
    Candidate,
    IndexError_,
    InvalidInput,
    candidates_from_json,
    optional,
    present,
)

SCRIPTED_EMBEDDER_NAME = "scripted"
SCRIPTED_VECTOR = (1.0,)


def _check_limit(limit: int) -> None:
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise InvalidInput(f"limit must be an integer >= 1, got {limit!r}")


#: BACKEND-36: look keys up by meaning (DSL-23) when no key is spelt like the expression. The
#: reference spells canonically (canonical-fts5) and looks up exactly; a port that respells
#: must look up by meaning. tests/test_fts5_meaning.py checks both agree on every golden case.
LOOKUP_BY_MEANING = False


class ExecutingIndex(Protocol):
    """BACKEND-42: what answers an unscripted expression when `bm25.fts5` is true."""

    def search_bm25(self, expression: str, limit: int) -> list[Candidate]: ...


@dataclass
class ScriptedIndex:
    """BACKEND-36: per-expression responses and errors; anything else has zero hits, or, with
    `bm25.fts5` (BACKEND-42), the hits of FTS5 executing it over the scripted chunks."""

    responses: Mapping[str, Sequence[Candidate]] = field(default_factory=dict)
    errors: Mapping[str, str] = field(default_factory=dict)
    chunk_list: Sequence[Candidate] | None = None
    calls: list[str] = field(default_factory=list)
    fts: ExecutingIndex | None = None

    def key_of(self, expression: str) -> str | None:
        """BACKEND-36: the key spelt like `expression`; else, by meaning, the first key of
        `errors` then `responses` (file order) that it means (DSL-23); else None."""
        if expression in self.errors or expression in self.responses:
            return expression
        if not LOOKUP_BY_MEANING or expression == "":
            return None
        from reference.query.meaning import difference

        for key in (*self.errors, *self.responses):
            if key != "" and difference(key, expression) is None:
                return key
        return None

    def search_bm25(self, expression: str, limit: int) -> list[Candidate]:
        _check_limit(limit)
        self.calls.append(expression)
        key = self.key_of(expression)
        if key is None:
            return [] if self.fts is None else self.fts.search_bm25(expression, limit)
        if key in self.errors:
            raise IndexError_(self.errors[key])
        return list(self.responses[key])[:limit]

    def chunks(self) -> Sequence[Candidate] | None:
        return self.chunk_list


@dataclass
class ScriptedVectors:
    """BACKEND-37: the given hits (first `limit`) whatever the vector, or the given error."""

    hits: Sequence[Candidate] = ()
    error: str | None = None
    calls: int = 0

    def search_vector(self, vector: Sequence[float], limit: int) -> list[Candidate]:
        _check_limit(limit)
        self.calls += 1
        if self.error is not None:
            raise IndexError_(self.error)
        return list(self.hits)[:limit]


@dataclass
class ScriptedGraph:
    """GRAPH-2: the given hits (first `limit`) whatever the query, or the given error."""

    hits: Sequence[Candidate] = ()
    error: str | None = None
    calls: int = 0

    def search_graph(self, query: str, limit: int) -> list[Candidate]:
        _check_limit(limit)
        self.calls += 1
        if self.error is not None:
            raise IndexError_(self.error)
        return list(self.hits)[:limit]


class ScriptedEmbedder:
    """BACKEND-38: name "scripted"; every text embeds to the same one-component vector."""

    name: str = SCRIPTED_EMBEDDER_NAME

    def embed(self, text: str) -> list[float]:
        return list(SCRIPTED_VECTOR)


@dataclass
class ScriptedReranker:
    """BACKEND-39: returns the scripted entries as they are, or raises the scripted error."""

    name: str
    entries: Sequence[RerankEntry] | None = None
    error: str | None = None
    calls: int = 0

    def rerank(self, query: str, head: Sequence[Candidate]) -> list[RerankEntry]:
        self.calls += 1
        if self.error is not None:
            raise IndexError_(self.error)
        return list(self.entries or ())


@dataclass
class ScriptedBackends:
    """What `scripted_backends_from_json` builds; None means "not configured"."""

    index: ScriptedIndex
    embedder: ScriptedEmbedder | None
    vectors: ScriptedVectors
    reranker: ScriptedReranker | None
    graph: ScriptedGraph | None = None
    #: PIPE-10: `backends.profiles`, raw; each enabled profile parses its own member.
    profile_data: Mapping[str, Any] = field(default_factory=dict)


# -- validation ---------------------------------------------------------------------------


def _object(value: Any, where: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise InvalidInput(f"{where} must be an object, got {type(value).__name__}")
    return value


def _list(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise InvalidInput(f"{where} must be a list, got {type(value).__name__}")
    return value


def _string(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise InvalidInput(f"{where} must be a string, got {type(value).__name__}")
    return value


def _candidates(value: Any, where: str, *, chunk: bool = False) -> list[Candidate]:
    _list(value, where)  # the shape error names the type
    return candidates_from_json(value, where, chunk=chunk)


def _fts_index(chunks: list[Candidate] | None) -> ExecutingIndex:
    """BACKEND-42: an in-memory FTS5 index (BACKEND-1..7) holding the scripted chunks."""
    from reference.backends.sqlite_fts import SqliteIndex

    if chunks is None:
        raise InvalidInput("backends.bm25.fts5 needs backends.chunks (the rows to search)")
    seen: set[str] = set()
    for i, chunk in enumerate(chunks):
        if chunk.id in seen:
            raise InvalidInput(f"backends.chunks[{i}]: id {chunk.id!r} repeats (BACKEND-42)")
        seen.add(chunk.id)
    by_path: dict[str, list[Candidate]] = {}
    for chunk in chunks:
        by_path.setdefault(chunk.path, []).append(chunk)
    index = SqliteIndex(":memory:")
    with index.transaction():
        for path, group in by_path.items():
            index.upsert_document(path, group)
    return index


def _index(raw: Any, chunks: list[Candidate] | None) -> ScriptedIndex:
    if raw is None:
        return ScriptedIndex(chunk_list=chunks)
    obj = _object(raw, "backends.bm25")
    execute = optional(obj, "fts5", False)
    if not isinstance(execute, bool):
        raise InvalidInput(
            f"backends.bm25.fts5 must be a boolean, got {type(execute).__name__}"
        )
    responses: dict[str, list[Candidate]] = {}
    for expr, hits in _object(optional(obj, "responses", {}), "backends.bm25.responses").items():
        responses[expr] = _candidates(hits, f"backends.bm25.responses[{expr!r}]")
    errors: dict[str, str] = {}
    for expr, message in _object(optional(obj, "errors", {}), "backends.bm25.errors").items():
        errors[expr] = _string(message, f"backends.bm25.errors[{expr!r}]")
    both = sorted(set(responses) & set(errors))
    if both:
        raise InvalidInput(
            f"backends.bm25: expression {both[0]!r} has both a response and an error"
        )
    return ScriptedIndex(
        responses=responses,
        errors=errors,
        chunk_list=chunks,
        fts=_fts_index(chunks) if execute else None,
    )


def _hits_or_error(raw: Any, where: str) -> tuple[list[Candidate], str | None]:
    """BACKEND-37, GRAPH-2: `{hits: [...]}` or `{error: "..."}`, exactly one of them."""
    obj = _object(raw, where)
    has_hits, has_error = present(obj, "hits"), present(obj, "error")
    if has_hits and has_error:
        raise InvalidInput(f"{where} must have either hits or error, not both")
    if has_error:
        return [], _string(obj["error"], f"{where}.error")
    if not has_hits:
        raise InvalidInput(f"{where} needs hits or error")
    return _candidates(obj["hits"], f"{where}.hits"), None


def _vectors(raw: Any) -> ScriptedVectors:
    if raw is None:
        return ScriptedVectors()
    hits, error = _hits_or_error(raw, "backends.vector")
    return ScriptedVectors(hits=hits, error=error)


def _graph(raw: Any) -> ScriptedGraph | None:
    if raw is None:
        return None
    hits, error = _hits_or_error(raw, "backends.graph")
    return ScriptedGraph(hits=hits, error=error)


def _score(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidInput(f"{where} must be a number, got {type(value).__name__}")
    return float(value)


def _reranker(raw: Any) -> ScriptedReranker | None:
    if raw is None:
        return None
    obj = _object(raw, "backends.reranker")
    name = _string(optional(obj, "name", SCRIPTED_EMBEDDER_NAME), "backends.reranker.name")
    if name == "":
        raise InvalidInput("backends.reranker.name must not be empty")
    has_results, has_error = present(obj, "results"), present(obj, "error")
    if has_results and has_error:
        raise InvalidInput("backends.reranker must have either results or error, not both")
    if has_error:
        return ScriptedReranker(name, error=_string(obj["error"], "backends.reranker.error"))
    if not has_results:
        raise InvalidInput("backends.reranker needs results or error")
    entries: list[RerankEntry] = []
    for i, item in enumerate(_list(obj["results"], "backends.reranker.results")):
        at = f"backends.reranker.results[{i}]"
        entry = _object(item, at)
        rid = _string(entry.get("id"), f"{at}.id")
        entries.append(RerankEntry(rid, _score(entry.get("score"), f"{at}.score")))
    return ScriptedReranker(name, entries=entries)


def scripted_backends_from_json(obj: Mapping[str, Any]) -> ScriptedBackends:
    """BACKEND-40: validate a case's `backends` object and build the scripted backends.

    Unknown fields are ignored (OP-1); a bad shape raises InvalidInput naming the field.
    """
    root = _object(obj, "backends")
    chunks = None if root.get("chunks") is None else _candidates(
        root["chunks"], "backends.chunks", chunk=True
    )
    embedder_flag = optional(root, "embedder", False)
    if not isinstance(embedder_flag, bool):
        raise InvalidInput(
            f"backends.embedder must be a boolean, got {type(embedder_flag).__name__}"
        )
    return ScriptedBackends(
        index=_index(root.get("bm25"), chunks),
        embedder=ScriptedEmbedder() if embedder_flag else None,
        vectors=_vectors(root.get("vector")),
        reranker=_reranker(root.get("reranker")),
        graph=_graph(root.get("graph")),
        profile_data=_object(optional(root, "profiles", {}), "backends.profiles"),
    )

