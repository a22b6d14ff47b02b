"""Vector store: exact integer cosine order, ties, zero vectors, shortlist (BACKEND-25..32)."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference.backends.embedder import HashEmbedder
from reference.backends.protocols import Embedder
from reference.backends.vector import (
    MemoryVectorStore,
    exact_order_key,
    similarity_float,
)
from reference.types import Candidate, IndexError_


def cand(path: str, content: str = "", n: int = 0) -> Candidate:
    return Candidate(id=f"{path}#{n}", path=path, content=content)


def exact_store(rows: dict[str, list[int]]) -> MemoryVectorStore:
    store = MemoryVectorStore(exact=True)
    for path, vec in rows.items():
        store.add(cand(path), vec)
    return store


class FloatEmbedder:
    """A non-conformance embedder with non-integer components."""

    name = "float-test"

    def embed(self, text: str) -> list[float]:
        return [0.5 + len(text) % 3, 0.25 * text.count("a"), 0.1]


def test_store_from_chunks_embeds_content_only() -> None:
    """BACKEND-25: the store holds each chunk's hrc-hash-v1 vector of its content."""
    chunk = Candidate("a#0", "a.md", title="zebra", summary="zebra", content="tea")
    store = MemoryVectorStore.from_chunks([chunk], HashEmbedder())
    emb = HashEmbedder()
    assert store.search_vector(emb.embed("tea"), 5) == [chunk]
    assert store.search_vector(emb.embed("zebra"), 5) == []


def test_upsert_and_remove_document_replace_chunks() -> None:
    """BACKEND-26: replacing or removing a document updates its chunks in the store."""
    emb: Embedder = HashEmbedder()
    store = MemoryVectorStore(emb)
    store.upsert_document("a.md", [cand("a.md", "green tea")])
    store.upsert_document("b.md", [cand("b.md", "black tea")])
    store.upsert_document("a.md", [cand("a.md", "coffee")])
    store.remove_document("b.md")
    assert [c.content for c in store.search_vector(emb.embed("tea coffee"), 5)] == ["coffee"]
    assert len(store) == 1


def test_zero_query_vector_has_no_hits() -> None:
    """BACKEND-27: a query without words (zero vector) has no hits."""
    store = MemoryVectorStore.from_chunks([cand("a.md", "tea")], HashEmbedder())
    assert store.search_vector(HashEmbedder().embed("?!"), 5) == []


def test_zero_chunk_vector_is_never_a_hit() -> None:
    """BACKEND-27: a chunk whose vector is zero never appears."""
    store = exact_store({"a.md": [0, 0], "b.md": [1, 0]})
    assert [c.path for c in store.search_vector([1.0, 1.0], 5)] == ["b.md"]


def test_chunk_sharing_no_bucket_is_not_a_hit() -> None:
    """BACKEND-27: a hit needs dot > 0; orthogonal and opposite chunks are not hits."""
    store = exact_store({"a.md": [0, 3], "b.md": [2, 1], "c.md": [-1, 0]})
    assert [c.path for c in store.search_vector([1.0, 0.0], 5)] == ["b.md"]


def test_exact_key_orders_like_cosine() -> None:
    """BACKEND-28: hit 1 ranks above hit 2 iff dot1²·|c2|² > dot2²·|c1|²."""
    store = exact_store({"a.md": [1, 3], "b.md": [2, 1], "c.md": [1, 0]})
    got = [c.path for c in store.search_vector([1.0, 0.0], 5)]
    assert got == ["c.md", "b.md", "a.md"]
    assert exact_order_key(2, 5) > exact_order_key(1, 10)


def test_order_is_exact_where_float_similarity_would_misorder() -> None:
    """BACKEND-28: (1,1) and (3,3) tie exactly although their floats differ by one ulp."""
    store = exact_store({"a.md": [1, 1], "b.md": [3, 3]})
    hits = store.search_scored([1.0, 0.0], 5)
    assert [h.candidate.path for h in hits] == ["a.md", "b.md"]
    assert hits[0].similarity < hits[1].similarity  # float order would put b.md first


def test_exact_order_matches_fraction_order_on_random_vectors() -> None:
    """BACKEND-28: the vectorised search equals a brute-force exact sort (with ties by path)."""
    rng = random.Random(7)
    rows = {f"d{i:03d}.md": [rng.randint(0, 3) for _ in range(8)] for i in range(300)}
    store = exact_store(rows)
    q = [rng.randint(0, 2) for _ in range(8)]
    want = sorted(
        (p for p, v in rows.items() if sum(a * b for a, b in zip(q, v, strict=True)) > 0),
        key=lambda p: (
            -exact_order_key(sum(a * b for a, b in zip(q, rows[p], strict=True)),
                             sum(x * x for x in rows[p])),
            p,
        ),
    )
    assert [c.path for c in store.search_vector([float(x) for x in q], 40)] == want[:40]


_BASES = [[1, 1, 0], [1, 0, 0], [2, 1, 0], [1, 2, 3], [0, 1, 1]]


@settings(max_examples=150, deadline=None, derandomize=True)
@given(
    st.lists(st.tuples(st.integers(0, 4), st.integers(1, 9)), min_size=1, max_size=60),
    st.lists(st.integers(0, 3), min_size=3, max_size=3),
    st.integers(1, 70),
)
def test_exact_order_holds_among_scaled_vectors_whose_floats_differ(
    picks: list[tuple[int, int]], q: list[int], limit: int
) -> None:
    """BACKEND-28, BACKEND-29, BACKEND-31: multiples of one vector tie exactly while their
    float scores can differ in the last bits; the float pre-sort must leave them to the exact
    key and the path tie rule, at every `limit`."""
    rows = {f"d{i:02d}.md": [x * m for x in _BASES[b]] for i, (b, m) in enumerate(picks)}
    store = exact_store(rows)

    def dot(p: str) -> int:
        return sum(a * b for a, b in zip(q, rows[p], strict=True))

    want = sorted(
        (p for p in rows if dot(p) > 0),
        key=lambda p: (-exact_order_key(dot(p), sum(x * x for x in rows[p])), p),
    )
    assert [c.path for c in store.search_vector([float(x) for x in q], limit)] == want[:limit]


def test_a_query_of_integers_orders_as_the_same_query_of_floats() -> None:
    """BACKEND-27: integer components take the checked path and give the same hits."""
    store = exact_store({"a.md": [1, 5], "b.md": [1, 0], "c.md": [1, 1]})
    assert store.search_vector([1, 0], 3) == store.search_vector([1.0, 0.0], 3)


def test_a_boolean_query_component_is_an_index_error() -> None:
    """Exact mode takes integers; `True` is not one, even where it would equal 1."""
    store = exact_store({"a.md": [1, 5]})
    with pytest.raises(IndexError_):
        store.search_vector([True, 0.0], 3)


def test_exact_ties_go_by_path_then_id() -> None:
    """BACKEND-29: equal exact similarity orders by path, then id, by code point."""
    store = MemoryVectorStore(exact=True)
    for path, n in [("b.md", 0), ("\uff5e.md", 0), ("a.md", 1), ("a.md", 0), ("\U0001f600.md", 0)]:
        store.add(cand(path, n=n), [2, 0])
    got = [c.id for c in store.search_vector([1.0, 0.0], 10)]
    assert got == ["a.md#0", "a.md#1", "b.md#0", "\uff5e.md#0", "\U0001f600.md#0"]


def test_limit_returns_the_first_hits_of_the_order() -> None:
    """BACKEND-29: search_vector(v, limit) is the first `limit` hits of the exact order."""
    store = exact_store({"a.md": [1, 5], "b.md": [1, 0], "c.md": [1, 1]})
    assert [c.path for c in store.search_vector([1.0, 0.0], 2)] == ["b.md", "c.md"]


def test_reported_similarity_formula() -> None:
    """BACKEND-30: float(dot)/sqrt(float(|q|²)*float(|c|²)); `cat` vs `café` is 1/sqrt(12)."""
    emb = HashEmbedder()
    store = MemoryVectorStore.from_chunks([cand("a.md", "café")], emb)
    (hit,) = store.search_scored(emb.embed("cat"), 5)
    assert hit.dot == 1
    assert hit.similarity == similarity_float(1, 3, 4) == 1 / math.sqrt(12) == 0.2886751345948129


def test_reported_similarity_of_tea_and_green_tea() -> None:
    """BACKEND-30: query `tea` against `green tea`: dot 3, |q|² 3, |c|² 8."""
    emb = HashEmbedder()
    store = MemoryVectorStore.from_chunks([cand("a.md", "green tea")], emb)
    (hit,) = store.search_scored(emb.embed("tea"), 5)
    assert (hit.dot, hit.similarity) == (3, 0.6123724356957946)


def test_shortlist_keeps_ties_at_the_cut() -> None:
    """BACKEND-31: ties straddling the limit are resolved by path, not by shortlist luck."""
    rows = {f"p{i:02d}.md": [1, 1] for i in range(20)}
    rows["z.md"] = [3, 3]  # same exact similarity, a larger float by one ulp
    store = exact_store(rows)
    got = [c.path for c in store.search_vector([1.0, 0.0], 3)]
    assert got == ["p00.md", "p01.md", "p02.md"]


def test_large_components_fall_back_to_integer_dots() -> None:
    """BACKEND-31: when float32 could be inexact, dots are computed in integers."""
    big = (1 << 23) + 1
    store = exact_store({"a.md": [big, 1], "b.md": [big, 0]})
    hits = store.search_scored([3.0, 1.0], 5)
    assert [(h.candidate.path, h.dot) for h in hits] == [("a.md", 3 * big + 1), ("b.md", 3 * big)]


def test_exact_store_rejects_non_integer_query() -> None:
    """BACKEND-28: the exact store orders integers only; a fractional query is an index error."""
    store = exact_store({"a.md": [1, 0]})
    with pytest.raises(IndexError_):
        store.search_vector([0.5, 0.0], 5)


def test_float_mode_uses_cosine_with_the_same_tie_rule() -> None:
    """BACKEND-32: a float embedder gets numpy cosine; equal similarities order by path."""
    emb = FloatEmbedder()
    store = MemoryVectorStore.from_chunks(
        [cand("b.md", "xyz"), cand("a.md", "xyz"), cand("c.md", "aaaa")], emb
    )
    assert not store.exact
    got = [c.path for c in store.search_vector(emb.embed("xyz"), 5)]
    assert got[:2] == ["a.md", "b.md"] and got[2] == "c.md"
