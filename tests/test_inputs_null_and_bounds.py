"""Integer maxima (OP-4), null as absent (OP-5) and validation before any backend (PIPE-9)."""

from __future__ import annotations

from typing import Any

import pytest

from conformance.adapters.ops import registry
from reference.backends.scripted import scripted_backends_from_json
from reference.pipeline import Backends, search
from reference.request import parse_request
from reference.types import MAX_INTEGER, InvalidInput, candidate_from_json, whole_number


def test_the_integer_bound_is_two_to_the_31_minus_one() -> None:
    """OP-4: one bound for every integer input, RRF-1's bound on k."""
    from reference.rrf import MAX_K

    assert MAX_INTEGER == 2147483647 == MAX_K
    assert whole_number(2147483647, "n") == 2147483647
    assert whole_number(2147483647.0, "n") == 2147483647


@pytest.mark.parametrize("value", [2147483648, 2**63, 1e300, 2.0**31])
def test_integers_above_the_bound_are_invalid_input(value: object) -> None:
    """OP-4: too large is invalid_input, never a crash or a clamp."""
    with pytest.raises(InvalidInput):
        whole_number(value, "n")


@pytest.mark.parametrize("name", ["topK", "candidateK", "rerankTopN", "rrfK"])
def test_every_integer_request_field_is_bounded(name: str) -> None:
    """PIPE-1, OP-4: the request rejects 2^31 in each integer field."""
    with pytest.raises(InvalidInput):
        parse_request({"query": "kubernetes", name: 2**31})
    assert parse_request({"query": "kubernetes", name: 2**31 - 1}).to_json()[name] == 2**31 - 1


def test_null_request_fields_take_their_defaults() -> None:
    """OP-5, PIPE-1: null is absent, for every optional field and inside weights."""
    nulls = {k: None for k in ("mode", "topK", "candidateK", "rerankTopN", "rrfK", "weights",
                               "rerank", "skipRetryLadder", "aliases", "intentTable",
                               "stopwordList")}
    assert parse_request({"query": "q", **nulls}) == parse_request({"query": "q"})
    weights = parse_request({"query": "q", "weights": {"bm25": None, "vector": 2}})
    assert (weights.bm25_weight, weights.vector_weight) == (1.0, 2.0)


@pytest.mark.parametrize("request_", [{"query": None}, {"query": "q", "top_k": None},
                                      {"query": "q", "aliases": {"k8s": None}},
                                      {"query": "q", "aliases": {"k8s": ["x", None]}}])
def test_required_nulls_unknown_names_and_null_entries_are_rejected(
    request_: dict[str, Any],
) -> None:
    """OP-5: a required null is missing; names are checked whatever the value; no null entries."""
    with pytest.raises(InvalidInput):
        parse_request(request_)


def test_candidate_optional_fields_null_are_absent_and_falsy_metadata_is_not() -> None:
    """OP-5: null title/summary/content/metadata are absent; `metadata: []` stays invalid."""
    cand = candidate_from_json(
        {"id": "a", "path": "a.md", "title": None, "summary": None, "content": None,
         "metadata": None}
    )
    assert (cand.title, cand.summary, cand.content, dict(cand.metadata)) == ("", "", "", {})
    for bad in ([], "", 0, False):
        with pytest.raises(InvalidInput):
            candidate_from_json({"id": "a", "path": "a.md", "metadata": bad})
    with pytest.raises(InvalidInput):
        candidate_from_json({"id": "a", "path": "a.md", "metadata": {"team": None}})


def test_null_backends_parts_are_absent() -> None:
    """OP-5: bm25, chunks, embedder, vector and reranker null mean not configured."""
    built = scripted_backends_from_json(
        {"bm25": None, "chunks": None, "embedder": None, "vector": None, "reranker": None}
    )
    assert built.embedder is None and built.reranker is None
    assert built.index.chunks() is None


@pytest.mark.parametrize(
    "request_",
    [
        {"query": "kubernetes", "mode": "hybrid", "rrfK": 2**31},
        {"query": "kubernetes", "mode": "hybrid", "candidateK": 2**63},
        {"query": "kubernetes", "mode": "hybrid", "aliases": {"k8s": [3]}},
        {"query": "kubernetes", "mode": "hybrid", "weights": {"vector": -1}},
    ],
)
def test_an_invalid_request_never_reaches_a_backend(request_: dict[str, Any]) -> None:
    """PIPE-9: invalid_input before any index, vector or reranker call."""
    scripted = scripted_backends_from_json(
        {"bm25": {"errors": {'"kubernetes"': "must not be called"}}, "embedder": True,
         "vector": {"error": "must not be called"},
         "reranker": {"name": "r", "error": "must not be called"}}
    )
    backends = Backends(scripted.index, scripted.embedder, scripted.vectors, scripted.reranker)
    with pytest.raises(InvalidInput):
        search(request_, backends)
    assert scripted.index.calls == [] and scripted.vectors.calls == 0
    assert scripted.reranker is not None and scripted.reranker.calls == 0


@pytest.mark.parametrize(
    ("op", "inp"),
    [
        ("rrf", {"k": None, "lists": [{"name": None, "weight": None, "items": []}]}),
        ("trigram_search", {"tokens": ["a"], "chunks": [], "candidateK": None}),
        ("rerank", {"fused": [], "rerankTopN": None, "reranker": {"name": "r", "results": []}}),
        ("compile", {"query": "k8s", "aliases": None}),
        ("compile", {"query": "k8s", "stopwordList": None}),
        ("intent_detect", {"query": "tips", "table": None}),
        ("intent_patterns", {"table": None}),
        ("search", {"request": {"query": "k8s"}, "backends": None}),
    ],
)
def test_operations_read_null_optional_inputs_as_absent(op: str, inp: dict[str, Any]) -> None:
    """OP-5: every operation's optional inputs accept null as absent."""
    registry()[op](inp)
