"""`bm25-okapi.search`: GenieHelper's retrieval, HyDE -> dense + BM25 -> RRF -> top 8
(spec/profiles/bm25-okapi.md OKAPI-18..27).

Only the system's own stages: the dense leg is the caller's ranked list (what its vector store
returned for the hypothetical document's embedding), the BM25 leg is Okapi BM25 over the given
documents with the raw query (OKAPI-1..10), the two are fused by the seed's unweighted RRF
(k = 60, 1-indexed ranks, ties in first-appearance order) and cut to `limit` (default 8).
The stage functions are module globals looked up at call time, so that a broken port in
conformance/selftest/broken_ports/ can replace one rule at a time.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from reference.profiles.bm25_okapi.operation import documents_from_json
from reference.profiles.bm25_okapi.scoring import (
    Document,
    Outcome,
    Params,
    check_params,
    score_documents,
)
from reference.text import normalise
from reference.types import InvalidInput, optional, whole_number

#: OKAPI-24: the seed's smoothing constant (HybridRanker's `k`).
RRF_K = 60
#: OKAPI-26: the seed's "default limit is 8 top nodes".
DEFAULT_LIMIT = 8
#: OKAPI-18: the members of the input.
FIELDS = frozenset({"query", "documents", "legs", "k1", "b", "hypotheticalDocument", "limit"})
#: OKAPI-21: the one leg the caller gives.
LEGS = frozenset({"dense"})

JSON = dict[str, Any]


def _query(value: object) -> str:
    if not isinstance(value, str):
        raise InvalidInput(f"query must be a string, got {value!r}")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise InvalidInput("query is not valid Unicode (lone surrogate)") from None
    return value


def hypothetical_document(value: object) -> str | None:
    """OKAPI-20: a string not empty after normalisation (TEXT-1..4), normalised; null: none."""
    if value is None:
        return None
    if not isinstance(value, str) or normalise(value) == "":
        raise InvalidInput(
            "hypotheticalDocument must be a string, not empty after normalisation"
        )
    return normalise(value)


def ranked_list(value: object, where: str, known: Mapping[str, Document]) -> list[str]:
    """OKAPI-21: `[{id, score?}]`, best first; ids distinct and each a document's id."""
    if not isinstance(value, list):
        raise InvalidInput(f"{where} must be a list of {{id, score?}} objects")
    out: list[str] = []
    seen: set[str] = set()
    for i, item in enumerate(value):
        at = f"{where}[{i}]"
        if not isinstance(item, Mapping):
            raise InvalidInput(f"{at} must be an object")
        unknown = sorted(set(item) - {"id", "score"})
        if unknown:
            raise InvalidInput(f"{at}: unknown member(s) {unknown}")
        hid = item.get("id")
        if not isinstance(hid, str) or hid == "":
            raise InvalidInput(f"{at}.id must be a non-empty string, got {hid!r}")
        score = item.get("score")
        if score is not None and (
            isinstance(score, bool) or not isinstance(score, int | float)
        ):
            raise InvalidInput(f"{at}.score must be a number, got {score!r}")
        if hid not in known:
            raise InvalidInput(f"{at}: id {hid!r} is not one of the documents")
        if hid in seen:
            raise InvalidInput(f"{at}: duplicate id {hid!r}")
        seen.add(hid)
        out.append(hid)
    return out


def legs_from_json(value: object, known: Mapping[str, Document]) -> list[str]:
    """OKAPI-21: `legs` is `{dense: [...]}`; no other leg is given (BM25 is computed)."""
    if not isinstance(value, Mapping):
        raise InvalidInput("legs must be an object {dense: [...]}")
    unknown = sorted(set(value) - LEGS)
    if unknown:
        raise InvalidInput(f"legs: unknown leg(s) {unknown} (bm25-okapi gives only dense)")
    if value.get("dense") is None:
        raise InvalidInput("legs.dense is required")
    return ranked_list(value["dense"], "legs.dense", known)


def sparse_list(documents: Sequence[Document], query: str, params: Params) -> Outcome:
    """OKAPI-22, OKAPI-23: Okapi BM25 of the raw query over every document (OKAPI-9 order)."""
    return score_documents(documents, query, params)


def rrf_term(rank: int) -> float:
    """OKAPI-24: one list's contribution at the 1-indexed rank: 1 / (k + rank)."""
    return 1.0 / float(RRF_K + rank)


def fuse(dense: Sequence[str], sparse: Sequence[str]) -> list[tuple[str, float]]:
    """OKAPI-24, OKAPI-25: the seed's `rrf_score`, dense then sparse, stable sort descending."""
    scores: dict[str, float] = {}
    for lst in (dense, sparse):
        for i, hid in enumerate(lst):
            scores[hid] = scores.get(hid, 0.0) + rrf_term(i + 1)
    return sorted(scores.items(), key=lambda item: item[1], reverse=True)


def top(items: list[tuple[str, float]], limit: int) -> list[tuple[str, float]]:
    """OKAPI-26: the first `limit` fused nodes."""
    return items[:limit]


def search_op(inp: JSON) -> JSON:
    """`bm25-okapi.search {query, documents, legs: {dense}, k1?, b?, hypotheticalDocument?,
    limit?}` (OKAPI-18)."""
    unknown = sorted(set(inp) - FIELDS)
    if unknown:
        raise InvalidInput(f"bm25-okapi.search: unknown member(s) {unknown}")
    query = _query(inp.get("query"))
    docs = documents_from_json(inp.get("documents"), "documents")
    by_id = {d.id: d for d in docs}
    params = check_params(inp.get("k1"), inp.get("b"))
    hyde = hypothetical_document(inp.get("hypotheticalDocument"))
    limit = whole_number(optional(inp, "limit", DEFAULT_LIMIT), "limit")
    dense = legs_from_json(inp.get("legs"), by_id)
    outcome = sparse_list(docs, query, params)
    sparse = [s.id for s in outcome.results]
    fused = fuse(dense, sparse)
    kept = top(fused, limit)
    return {
        "results": [{"id": i, "path": by_id[i].path, "score": s} for i, s in kept],
        "trace": {
            "hyde": {"document": hyde},
            "dense": {"hits": len(dense)},
            "bm25": {
                "k1": params.k1,
                "b": params.b,
                "documentCount": outcome.document_count,
                "averageLength": outcome.average_length,
                "hits": [{"id": s.id, "score": s.score} for s in outcome.results],
            },
            "fusion": {"k": RRF_K, "fused": len(fused)},
        },
    }
