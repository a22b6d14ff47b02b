"""The backend operations (spec/operations.md "Backend operations"; spec/backends.md BACKEND-*)."""

from __future__ import annotations

import base64
from typing import Any

import pytest

from conformance.adapters.adapter_reference import CAPABILITIES
from conformance.adapters.ops import registry
from conformance.judging.cases import load_all
from reference.types import IndexError_, InvalidInput

OPS = registry()
BACKEND_OPS = (
    "fnv1a",
    "embed_features",
    "embed",
    "chunk_document",
    "index_documents",
    "fts_search",
    "vector_search",
    "lexical_rerank",
)


def run(op: str, inp: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = OPS[op](inp)
    return out


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


# -- registration and capabilities ---------------------------------------------------------


def test_every_backend_operation_is_registered() -> None:
    """OP-1: the reference declares every backend operation of spec/operations.md."""
    assert set(BACKEND_OPS) <= set(OPS)


def test_backend_cases_require_only_declared_capabilities() -> None:
    """BACKEND-41: every capability a backend case requires is one the reference declares."""
    needed = {r for case in load_all() if case.id.startswith("backends/") for r in case.requires}
    assert needed <= set(CAPABILITIES)


def test_every_backend_op_has_golden_cases() -> None:
    """Each backend operation is exercised by at least one golden case under backends/."""
    used = {case.op for case in load_all() if case.id.startswith("backends/")}
    assert set(BACKEND_OPS) <= used


# -- shapes ---------------------------------------------------------------------------------


def test_fnv1a_shape_and_check_value() -> None:
    """BACKEND-22: the standard check value, unsigned, and its bucket."""
    assert run("fnv1a", {"text": "a"}) == {"hash": 3826002220, "bucket": 44}


def test_embed_lists_nonzero_buckets_ascending() -> None:
    """BACKEND-20, BACKEND-23: dimension 256 and [bucket, count] pairs in bucket order."""
    out = run("embed", {"text": "Cat, cat!"})
    assert out == {"dimension": 256, "counts": [[7, 2], [67, 2], [196, 2]]}


def test_embed_features_keeps_multiplicity() -> None:
    """BACKEND-21: features in order, repeated words repeated."""
    assert run("embed_features", {"text": "a a"}) == {"features": ["$a$", "$a$"]}


def test_chunk_document_shape() -> None:
    """BACKEND-15..18: title, summary, SHA-256 of the bytes and {id, content} chunks."""
    out = run("chunk_document", {"path": "n.md", "text": "# T\n\nbody\n"})
    assert set(out) == {"title", "summary", "hash", "chunks"}
    assert out["chunks"] == [{"id": "n.md#0", "content": "# T\n\nbody"}]
    assert len(out["hash"]) == 64 and out["hash"] == out["hash"].lower()


def test_chunk_document_text_and_base64_agree() -> None:
    """BACKEND-13, BACKEND-18: the same bytes give the same document whichever way sent."""
    text = "caf\u00e9\n"
    a = run("chunk_document", {"path": "a.md", "text": text})
    b = run("chunk_document", {"path": "a.md", "base64": b64(text.encode("utf-8"))})
    assert a == b


def test_chunk_document_invalid_utf8_is_index_error() -> None:
    """BACKEND-13: a file that does not decode fails with index_error naming the file."""
    with pytest.raises(IndexError_, match=r"bad\.md"):
        run("chunk_document", {"path": "bad.md", "base64": b64(b"\xe9")})


def test_index_documents_shape() -> None:
    """BACKEND-8, BACKEND-18: runs, chunks and both search lists are always present."""
    out = run("index_documents", {"batches": [[{"path": "a.md", "text": "tea\n"}]]})
    assert set(out) == {"runs", "chunks", "searches", "vectorSearches"}
    assert out["runs"] == [
        {
            "committed": True,
            "failedPath": None,
            "added": ["a.md"],
            "updated": [],
            "unchanged": [],
            "removed": [],
        }
    ]
    assert out["chunks"] == [
        {"id": "a.md#0", "path": "a.md", "title": "a", "summary": "tea", "content": "tea"}
    ]
    assert out["searches"] == [] and out["vectorSearches"] == []


def test_index_documents_failed_run_names_the_file() -> None:
    """BACKEND-9, BACKEND-13, BACKEND-19: a failed run commits nothing and names the file."""
    out = run(
        "index_documents",
        {
            "batches": [
                [
                    {"path": "a.md", "text": "ok\n"},
                    {"path": "b.md", "base64": b64(b"\xff")},
                    {"path": "c.md", "base64": b64(b"\xfe")},
                ]
            ]
        },
    )
    assert out["runs"][0]["committed"] is False
    assert out["runs"][0]["failedPath"] == "b.md"
    assert out["chunks"] == []


def test_fts_search_hit_shape() -> None:
    """BACKEND-6: a hit is the stored candidate with metadata {} plus the bm25 score."""
    out = run(
        "fts_search",
        {
            "chunks": [{"id": "a", "path": "a.md", "content": "tea", "metadata": {"k": "v"}}],
            "expression": '"tea"',
        },
    )
    (hit,) = out["hits"]
    assert set(hit) == {"id", "path", "title", "summary", "content", "metadata", "score"}
    assert hit["metadata"] == {} and isinstance(hit["score"], float)


def test_fts_search_error_is_index_error() -> None:
    """BACKEND-7: SQLite errors surface as index_error."""
    with pytest.raises(IndexError_):
        run("fts_search", {"chunks": [], "expression": ""})


def test_vector_search_hit_shape() -> None:
    """BACKEND-27, BACKEND-30: {id, path, dot, similarity}, dot an exact integer."""
    chunks = [{"id": "a", "path": "a.md", "content": "tea"}]
    out = run("vector_search", {"query": "tea", "chunks": chunks})
    assert out == {"hits": [{"id": "a", "path": "a.md", "dot": 3, "similarity": 1.0}]}


def test_vector_search_mixes_given_and_embedded_vectors_of_equal_length() -> None:
    """BACKEND-24: a content chunk embeds to 256 components, a given vector must match."""
    hits = run(
        "vector_search",
        {
            "queryVector": [1] + [0] * 255,
            "chunks": [{"id": "g", "path": "g.md", "vector": [2] + [0] * 255}],
        },
    )["hits"]
    assert hits == [{"id": "g", "path": "g.md", "dot": 2, "similarity": 1.0}]


def test_lexical_rerank_shape() -> None:
    """BACKEND-33: one {id, score} per head item in head order."""
    head = [{"id": "x", "path": "x.md"}, {"id": "y", "path": "y.md", "content": "tea"}]
    out = run("lexical_rerank", {"query": "green tea", "head": head})
    assert out == {"results": [{"id": "x", "score": 0.0}, {"id": "y", "score": 0.5}]}


def test_unknown_top_level_fields_are_ignored() -> None:
    """OP-1: extra top-level input fields change nothing."""
    assert run("embed", {"text": "cat", "later": True}) == run("embed", {"text": "cat"})


# -- validation -----------------------------------------------------------------------------

BAD_INPUTS: list[tuple[str, dict[str, Any]]] = [
    ("fnv1a", {}),
    ("fnv1a", {"text": 1}),
    ("fnv1a", {"text": "\ud800"}),
    ("embed", {"text": None}),
    ("embed_features", {"text": ["a"]}),
    ("chunk_document", {"text": "x"}),
    ("chunk_document", {"path": "", "text": "x"}),
    ("chunk_document", {"path": "a.md"}),
    ("chunk_document", {"path": "a.md", "text": "x", "base64": "eA=="}),
    ("chunk_document", {"path": "a.md", "base64": "not base64!"}),
    ("index_documents", {}),
    ("index_documents", {"batches": [{"path": "a.md", "text": "x"}]}),
    ("index_documents", {"batches": [[{"path": "/abs.md", "text": "x"}]]}),
    ("index_documents", {"batches": [[{"path": "a//b.md", "text": "x"}]]}),
    ("index_documents", {"batches": [[{"path": "a\\b.md", "text": "x"}]]}),
    ("index_documents", {"batches": [[{"path": "a.md", "text": 3}]]}),
    ("index_documents", {"batches": [], "searches": [{"expression": 1}]}),
    ("index_documents", {"batches": [], "searches": [{"expression": "x", "limit": 0}]}),
    ("index_documents", {"batches": [], "vectorSearches": [{"expression": "x"}]}),
    ("fts_search", {"chunks": [], "expression": None}),
    ("fts_search", {"chunks": {}, "expression": "x"}),
    ("fts_search", {"chunks": [{"id": "", "path": "a.md", "content": "x"}], "expression": "x"}),
    ("fts_search", {"chunks": [], "expression": "x", "limit": True}),
    ("fts_search", {"chunks": [], "expression": "x", "limit": 1.5}),
    ("vector_search", {"query": "a", "chunks": {}}),
    ("vector_search", {"query": 3, "chunks": []}),
    ("vector_search", {"queryVector": [], "chunks": []}),
    ("vector_search", {"queryVector": [0] * 257, "chunks": []}),
    ("vector_search", {"queryVector": [True], "chunks": []}),
    ("vector_search", {"query": "a", "chunks": [{"id": "a", "path": "a.md"}]}),
    ("vector_search", {"query": "a", "chunks": [{"id": "a", "path": "a.md", "vector": [1]}]}),
    ("vector_search", {"query": "a", "chunks": ["a"]}),
    ("lexical_rerank", {"query": "a"}),
    ("lexical_rerank", {"query": "a", "head": [{"id": "a"}]}),
]


@pytest.mark.parametrize(
    ("op", "bad"), BAD_INPUTS, ids=[f"{op}-{i}" for i, (op, _) in enumerate(BAD_INPUTS)]
)
def test_bad_inputs_are_invalid_input(op: str, bad: dict[str, Any]) -> None:
    """OP-2: a malformed input of a backend operation answers invalid_input."""
    with pytest.raises(InvalidInput) as info:
        run(op, bad)
    assert info.value.kind == "invalid_input"


REQUIRES = {
    "fnv1a": {"embedder:hrc-hash-v1"},
    "embed_features": {"embedder:hrc-hash-v1"},
    "embed": {"embedder:hrc-hash-v1"},
    "vector_search": {"embedder:hrc-hash-v1"},
    "fts_search": {"sqlite-fts5"},
    "index_documents": {"sqlite-fts5"},
    "lexical_rerank": {"reranker:hrc-lexical-v1"},
    "chunk_document": set(),
}


@pytest.mark.parametrize("op", sorted(REQUIRES))
def test_backend_cases_require_what_the_op_needs(op: str) -> None:
    """BACKEND-20, BACKEND-1, BACKEND-33: each case requires its op's capability, as documented."""
    cases = [c for c in load_all() if c.op == op]
    assert cases
    for case in cases:
        needed = set(REQUIRES[op])
        if op == "index_documents" and case.input.get("vectorSearches"):
            needed.add("embedder:hrc-hash-v1")
        assert set(case.requires) == needed, case.id
