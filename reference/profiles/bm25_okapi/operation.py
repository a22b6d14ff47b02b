"""The `bm25-okapi.score` operation: input validation and output shape (OKAPI-11, OKAPI-12)."""

from __future__ import annotations

from typing import Any

from reference.profiles.bm25_okapi.scoring import Document, Outcome, check_params, score_documents
from reference.types import InvalidInput, candidates_from_json


def _query(value: object) -> str:
    if not isinstance(value, str):
        raise InvalidInput(f"query must be a string, got {value!r}")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise InvalidInput("query is not valid Unicode (lone surrogate)") from None
    return value


def documents_from_json(value: object, where: str) -> list[Document]:
    """OKAPI-12: a list of {id, path, content}; ids unique, content required."""
    docs = candidates_from_json(value, where, chunk=True)
    seen: set[str] = set()
    for d in docs:
        if d.id in seen:
            raise InvalidInput(f"{where}: duplicate id {d.id!r}")
        seen.add(d.id)
    return [Document(d.id, d.path, d.content) for d in docs]


def outcome_json(outcome: Outcome) -> dict[str, Any]:
    """OKAPI-11: the output object."""
    return {
        "documentCount": outcome.document_count,
        "averageLength": outcome.average_length,
        "terms": [{"term": t.term, "df": t.df, "idf": t.idf} for t in outcome.terms],
        "results": [{"id": s.id, "path": s.path, "score": s.score} for s in outcome.results],
    }


def op_score(inp: dict[str, Any]) -> dict[str, Any]:
    """`bm25-okapi.score {documents, query, k1?, b?}` (OKAPI-11)."""
    docs = documents_from_json(inp.get("documents"), "documents")
    query = _query(inp.get("query"))
    params = check_params(inp.get("k1"), inp.get("b"))
    return outcome_json(score_documents(docs, query, params))
