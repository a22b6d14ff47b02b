"""bm25-okapi in the search pipeline: the BM25 leg ranked with Okapi BM25 (OKAPI-14).

The leg asks its index for every match (leg_limit), and each backend answer is re-ranked by
the Okapi score of the hit's id in the profile's collection before the candidateK cut
(filter_leg). The candidates are the index's; only their order changes (OKAPI-13).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from reference.profile_hooks import PipelineHooks, ProfileCall
from reference.profiles.bm25_okapi.collection import Collection, MemoryCollection
from reference.profiles.bm25_okapi.operation import documents_from_json
from reference.profiles.bm25_okapi.scoring import Params, check_params
from reference.text import normalise
from reference.types import MAX_INTEGER, Candidate, InvalidInput

OPTION_NAMES = frozenset({"k1", "b", "hypotheticalDocument"})
BACKEND_NAMES = frozenset({"documents"})
LEG = "bm25"


@dataclass
class Options:
    """The request's options (OKAPI-3) and the query the leg scores (set before the legs)."""

    params: Params
    query: str = ""
    #: OKAPI-17: the caller's hypothetical document (HyDE), normalised; None embeds the query.
    hypothetical: str | None = None


def parse_request(obj: Mapping[str, Any]) -> Options:
    """OKAPI-14, OKAPI-17: `{k1?, b?, hypotheticalDocument?}`; an unknown member is
    invalid_input (PIPE-10)."""
    unknown = sorted(set(obj) - OPTION_NAMES)
    if unknown:
        raise InvalidInput(f"request.profiles.bm25-okapi: unknown option(s) {unknown}")
    raw = obj.get("hypotheticalDocument")
    hypothetical = None
    if raw is not None:
        if not isinstance(raw, str) or normalise(raw) == "":
            raise InvalidInput(
                "request.profiles.bm25-okapi.hypotheticalDocument must be a string, "
                "not empty after normalisation"
            )
        hypothetical = normalise(raw)
    return Options(check_params(obj.get("k1"), obj.get("b")), hypothetical=hypothetical)


def parse_backends(raw: Any) -> Collection:
    """OKAPI-14: `{documents}` (scripted), the real index's tables, or nothing (empty)."""
    if raw is None:
        return MemoryCollection([])
    if not isinstance(raw, Mapping):
        if hasattr(raw, "score_ids") and hasattr(raw, "statistics"):
            return raw  # type: ignore[no-any-return]  # the real index's collection
        raise InvalidInput("backends.profiles.bm25-okapi must be an object")
    unknown = sorted(set(raw) - BACKEND_NAMES)
    if unknown:
        raise InvalidInput(f"backends.profiles.bm25-okapi: unknown member(s) {unknown}")
    docs = raw.get("documents")
    return MemoryCollection(
        [] if docs is None else documents_from_json(docs, "backends.profiles.bm25-okapi.documents")
    )


def _options(call: ProfileCall) -> Options:
    options = call.options
    assert isinstance(options, Options)
    return options


def adjust_weights(call: ProfileCall, query: str, weights: dict[str, float]) -> dict[str, float]:
    """Not a weight change: records the query the leg will score and opens the trace."""
    options = _options(call)
    options.query = query
    collection: Collection = call.backend
    call.trace.update(
        {
            "k1": options.params.k1,
            "b": options.params.b,
            "documentCount": collection.document_count(),
            "rescored": 0,
        }
    )
    return weights


def vector_query(call: ProfileCall, text: str) -> str:
    """OKAPI-17: the vector leg embeds the hypothetical document instead of the query."""
    hypothetical = _options(call).hypothetical
    return text if hypothetical is None else hypothetical


def leg_limit(call: ProfileCall, leg: str, candidate_k: int) -> int:
    """OKAPI-14 step 1: the BM25 leg asks for every match."""
    return MAX_INTEGER if leg == LEG else candidate_k


def filter_leg(call: ProfileCall, leg: str, hits: list[Candidate]) -> list[Candidate]:
    """OKAPI-14 steps 2 and 3: score each hit by its id, order by score, path, id."""
    if leg != LEG:
        return hits
    options = _options(call)
    collection: Collection = call.backend
    scores = collection.score_ids(options.query, [h.id for h in hits], options.params)
    call.trace["rescored"] = int(call.trace.get("rescored", 0)) + len(hits)
    return sorted(hits, key=lambda h: (-scores[h.id], h.path, h.id))


PIPELINE = PipelineHooks(
    parse_request=parse_request,
    parse_backends=parse_backends,
    adjust_weights=adjust_weights,
    vector_query=vector_query,
    leg_limit=leg_limit,
    filter_leg=filter_leg,
)
