"""Scripted backends of the `search` op and their validation (BACKEND-36..40)."""

from __future__ import annotations

from typing import Any

import pytest

from reference.backends.protocols import RerankEntry
from reference.backends.scripted import scripted_backends_from_json
from reference.types import IndexError_, InvalidInput

HIT = {"id": "c1", "path": "k.md", "content": "kubernetes"}


def test_index_answers_scripted_responses_up_to_limit() -> None:
    """BACKEND-36: a scripted expression returns its hits, at most `limit`, the first ones."""
    hits = [HIT, {"id": "c2", "path": "x.md"}, {"id": "c3", "path": "y.md"}]
    b = scripted_backends_from_json({"bm25": {"responses": {'"kubernetes"': hits}}})
    assert [c.id for c in b.index.search_bm25('"kubernetes"', 2)] == ["c1", "c2"]


def test_index_unknown_expression_has_zero_hits() -> None:
    """BACKEND-36: an expression absent from responses and errors answers zero hits."""
    b = scripted_backends_from_json({"bm25": {"responses": {'"kubernetes"': [HIT]}}})
    assert b.index.search_bm25('"Kubernetes"', 10) == []


def test_index_without_bm25_has_zero_hits_for_everything() -> None:
    """BACKEND-36: an omitted bm25 object answers zero hits to every expression."""
    assert scripted_backends_from_json({}).index.search_bm25('"x"', 5) == []


def test_index_scripted_error_raises_index_error() -> None:
    """BACKEND-36: an expression in errors raises index_error with the scripted message."""
    b = scripted_backends_from_json({"bm25": {"errors": {'"boom"': "fts5: syntax error"}}})
    with pytest.raises(IndexError_, match="fts5: syntax error"):
        b.index.search_bm25('"boom"', 5)


def test_index_chunks_are_the_scripted_chunks_or_none() -> None:
    """BACKEND-36: chunks() is the given chunk list, or None when the case gives none."""
    b = scripted_backends_from_json({"chunks": [HIT]})
    chunks = b.index.chunks()
    assert chunks is not None and [c.id for c in chunks] == ["c1"]
    assert scripted_backends_from_json({}).index.chunks() is None


def test_vectors_return_hits_whatever_the_vector() -> None:
    """BACKEND-37: the scripted hits, first `limit`, for any query vector."""
    b = scripted_backends_from_json(
        {"embedder": True, "vector": {"hits": [HIT, {"id": "c2", "path": "b.md"}]}}
    )
    assert [c.id for c in b.vectors.search_vector([9.0, 9.0], 1)] == ["c1"]


def test_vectors_scripted_error_raises_index_error() -> None:
    """BACKEND-37: vector.error raises index_error with the message."""
    b = scripted_backends_from_json({"embedder": True, "vector": {"error": "unreachable"}})
    with pytest.raises(IndexError_, match="unreachable"):
        b.vectors.search_vector([1.0], 5)


def test_vectors_omitted_have_zero_hits() -> None:
    """BACKEND-37: an omitted vector object has zero hits."""
    assert scripted_backends_from_json({"embedder": True}).vectors.search_vector([1.0], 5) == []


def test_embedder_configured_only_when_true() -> None:
    """BACKEND-38: embedder true gives the `scripted` embedder with vector [1.0]."""
    on = scripted_backends_from_json({"embedder": True}).embedder
    assert on is not None and on.name == "scripted" and on.embed("x") == [1.0]
    assert scripted_backends_from_json({"embedder": False}).embedder is None
    assert scripted_backends_from_json({}).embedder is None


def test_reranker_returns_entries_as_given() -> None:
    """BACKEND-39: results come back as is, invented and repeated ids included."""
    raw = [{"id": "c2", "score": 0.9}, {"id": "zz", "score": 1}, {"id": "c2", "score": 0.1}]
    rr = scripted_backends_from_json({"reranker": {"name": "judge", "results": raw}}).reranker
    assert rr is not None and rr.name == "judge"
    assert rr.rerank("q", []) == [
        RerankEntry("c2", 0.9), RerankEntry("zz", 1.0), RerankEntry("c2", 0.1)
    ]


def test_reranker_error_raises_index_error() -> None:
    """BACKEND-39: reranker.error raises index_error with the message."""
    rr = scripted_backends_from_json({"reranker": {"name": "s", "error": "timeout"}}).reranker
    assert rr is not None
    with pytest.raises(IndexError_, match="timeout"):
        rr.rerank("q", [])


def test_reranker_absent_is_not_configured() -> None:
    """BACKEND-39: no reranker object means no reranker."""
    assert scripted_backends_from_json({}).reranker is None


@pytest.mark.parametrize(
    ("backends", "field"),
    [
        ({"bm25": []}, "backends.bm25"),
        ({"bm25": {"responses": {'"x"': [{"path": "a.md"}]}}}, "backends.bm25.responses"),
        ({"bm25": {"errors": {'"x"': 3}}}, "backends.bm25.errors"),
        ({"bm25": {"responses": {"e": []}, "errors": {"e": "m"}}}, "both a response"),
        ({"chunks": [{"id": "c", "path": "a.md"}]}, "backends.chunks[0].content"),
        ({"embedder": "yes"}, "backends.embedder"),
        ({"vector": {"hits": [], "error": "x"}}, "backends.vector"),
        ({"vector": {}}, "backends.vector"),
        ({"vector": {"hits": [{"id": "", "path": "p"}]}}, "backends.vector.hits[0]"),
        ({"reranker": {"name": "s"}}, "backends.reranker"),
        ({"reranker": {"name": "", "results": []}}, "backends.reranker.name"),
        ({"reranker": {"results": [{"id": "c", "score": "high"}]}}, "results[0].score"),
        ({"reranker": {"results": [{"id": 1, "score": 1}]}}, "results[0].id"),
        ({"reranker": {"results": [{"id": "c", "score": True}]}}, "results[0].score"),
    ],
)
def test_malformed_backends_are_invalid_input_naming_the_field(
    backends: dict[str, Any], field: str
) -> None:
    """BACKEND-40: a bad shape is invalid_input and the message names the field."""
    with pytest.raises(InvalidInput) as info:
        scripted_backends_from_json(backends)
    assert field in str(info.value)


def test_unknown_fields_are_ignored() -> None:
    """BACKEND-40: unknown fields anywhere in backends are ignored (OP-1)."""
    b = scripted_backends_from_json({"future": 1, "bm25": {"responses": {}, "extra": True}})
    assert b.index.search_bm25('"x"', 1) == []
