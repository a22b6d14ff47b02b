"""The scripted index that executes unscripted expressions with FTS5 (BACKEND-42)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from conformance.judging.capabilities import SQLITE_FTS5, detected
from reference.backends.scripted import scripted_backends_from_json
from reference.backends.sqlite_fts import SqliteIndex
from reference.types import Candidate, IndexError_, InvalidInput, candidates_from_json

DATA_DIR = Path(__file__).resolve().parents[1] / "spec" / "data"
CHUNKS: list[dict[str, Any]] = [
    {"id": "k", "path": "k.md", "content": "Kubernetes setup guide"},
    {"id": "p", "path": "p.md", "title": "Pasta", "content": "Pasta recipes for dinner"},
    {"id": "d", "path": "d.md", "content": "Dinner with friends"},
    {"id": "b", "path": "b.md", "content": "Dinner with friends"},
]


def _direct(expression: str, limit: int) -> list[str]:
    """What BACKEND-5 answers on an index built directly from CHUNKS."""
    chunks: list[Candidate] = candidates_from_json(CHUNKS, "chunks", chunk=True)
    with SqliteIndex(":memory:") as index:
        with index.transaction():
            for c in chunks:
                index.upsert_document(c.path, [c])
        return [c.id for c in index.search_bm25(expression, limit)]


@pytest.mark.parametrize(
    ("expression", "limit"),
    [('"dinner"', 10), ('"dinner"', 2), ('"pasta" OR "dinner"', 10), ('"kubernetes"', 5)],
)
def test_unscripted_expression_is_answered_as_backend_5(expression: str, limit: int) -> None:
    """BACKEND-42: an unscripted expression gets exactly the pinned query's answer."""
    b = scripted_backends_from_json({"bm25": {"fts5": True}, "chunks": CHUNKS})
    got = [c.id for c in b.index.search_bm25(expression, limit)]
    assert got == _direct(expression, limit)
    assert got  # every parametrised expression matches at least one chunk


def test_hits_are_the_stored_fields_with_empty_metadata() -> None:
    """BACKEND-42 (BACKEND-6): a hit is the stored row; scripted metadata is not kept."""
    chunks = [{**CHUNKS[1], "metadata": {"k": "v"}}]
    b = scripted_backends_from_json({"bm25": {"fts5": True}, "chunks": chunks})
    (hit,) = b.index.search_bm25('"pasta"', 5)
    assert (hit.id, hit.path, hit.title) == ("p", "p.md", "Pasta")
    assert hit.content == CHUNKS[1]["content"]
    assert dict(hit.metadata) == {}


def test_scripted_keys_answer_before_fts5() -> None:
    """BACKEND-42: errors and responses keep answering their own expressions."""
    b = scripted_backends_from_json(
        {
            "bm25": {
                "fts5": True,
                "responses": {'"dinner"': [{"id": "z", "path": "z.md"}]},
                "errors": {'"pasta"': "scripted failure"},
            },
            "chunks": CHUNKS,
        }
    )
    assert [c.id for c in b.index.search_bm25('"dinner"', 10)] == ["z"]
    with pytest.raises(IndexError_, match="scripted failure"):
        b.index.search_bm25('"pasta"', 10)


def test_sqlite_error_is_an_index_error() -> None:
    """BACKEND-42 (BACKEND-7): a malformed expression is an index error, never zero hits."""
    b = scripted_backends_from_json({"bm25": {"fts5": True}, "chunks": CHUNKS})
    with pytest.raises(IndexError_):
        b.index.search_bm25('"unclosed', 5)


def test_without_the_flag_chunks_answer_nothing() -> None:
    """BACKEND-36, BACKEND-42: `fts5` absent or false keeps the 2.x zero hits."""
    for bm25 in ({}, {"fts5": False}):
        b = scripted_backends_from_json({"bm25": bm25, "chunks": CHUNKS})
        assert b.index.search_bm25('"dinner"', 10) == []


@pytest.mark.parametrize(
    "backends",
    [
        {"bm25": {"fts5": "yes"}, "chunks": CHUNKS},
        {"bm25": {"fts5": 1}, "chunks": CHUNKS},
        {"bm25": {"fts5": True}},
        {"bm25": {"fts5": True}, "chunks": [CHUNKS[0], {**CHUNKS[1], "id": "k"}]},
    ],
)
def test_malformed_fts5_is_invalid_input(backends: dict[str, Any]) -> None:
    """BACKEND-40, BACKEND-42: a non-boolean flag, no chunks or a repeated id are rejected."""
    with pytest.raises(InvalidInput):
        scripted_backends_from_json(backends)


def test_fts5_search_case_needs_sqlite_fts5() -> None:
    """BACKEND-42: the loader reads `sqlite-fts5` from a `search` input with `fts5: true`."""
    data = {"request": {"query": "x"}, "backends": {"bm25": {"fts5": True}, "chunks": CHUNKS}}
    assert SQLITE_FTS5 in detected("search", data, DATA_DIR)
    off = {"request": {"query": "x"}, "backends": {"bm25": {"fts5": False}, "chunks": CHUNKS}}
    assert SQLITE_FTS5 not in detected("search", off, DATA_DIR)
