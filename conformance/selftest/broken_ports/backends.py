"""Broken ports of the backends (spec/backends.md), registered on import."""

from __future__ import annotations

from typing import Any

from conformance.selftest.broken_ports.patching import (
    _mod,
    mutant,
    set_attr,
    swap,
)
from reference.types import Candidate


@mutant(
    "vector-similarity-two-roots",
    "BACKEND-30",
    "the similarity divides by sqrt(|q|²) × sqrt(|c|²), two roots instead of one",
    seams=("reference.backends.vector.similarity_float",),
)
def _vector_two_roots() -> None:
    import math

    def similarity_float(dot: int, query_norm2: int, chunk_norm2: int) -> float:
        return float(dot) / (math.sqrt(float(query_norm2)) * math.sqrt(float(chunk_norm2)))

    swap(_mod("reference.backends.vector"), "similarity_float", similarity_float)


@mutant(
    "vector-order-by-float-similarity",
    "BACKEND-28",
    "hits ordered by the reported float similarity (ties by path), not the exact integer key",
    seams=("reference.backends.vector.MemoryVectorStore._top_exact",),
)
def _vector_float_order() -> None:
    vector = _mod("reference.backends.vector")
    store = vector.MemoryVectorStore

    def top_exact(self: Any, vec: Any, limit: int) -> Any:
        found = old(self, vec, 2**31 - 1)
        if found is None:
            return None
        rows, dots, q_norm2 = found
        pairs = zip(rows, dots, strict=True)
        sims = [vector.similarity_float(d, q_norm2, self._norm2[i]) for i, d in pairs]
        order = sorted(range(len(rows)), key=lambda j: -sims[j])  # stable: (path, id) ties
        return [rows[j] for j in order][:limit], [dots[j] for j in order][:limit], q_norm2

    old = set_attr(store, "_top_exact", top_exact)


@mutant(
    "scripted-fts5-ignored",
    "BACKEND-42",
    "bm25.fts5 is validated but never executes: unscripted expressions still have zero hits",
    seams=("reference.backends.scripted.ScriptedIndex.search_bm25",),
)
def _scripted_fts5_ignored() -> None:
    scripted = _mod("reference.backends.scripted")
    original = scripted.ScriptedIndex.search_bm25

    def search_bm25(self: Any, expression: str, limit: int) -> list[Candidate]:
        self.fts = None
        result: list[Candidate] = original(self, expression, limit)
        return result

    set_attr(scripted.ScriptedIndex, "search_bm25", search_bm25)


@mutant(
    "scripted-fts5-before-keys",
    "BACKEND-42",
    "with bm25.fts5 every expression is executed, scripted responses and errors are ignored",
    seams=("reference.backends.scripted.ScriptedIndex.search_bm25",),
)
def _scripted_fts5_before_keys() -> None:
    scripted = _mod("reference.backends.scripted")
    original = scripted.ScriptedIndex.search_bm25

    def search_bm25(self: Any, expression: str, limit: int) -> list[Candidate]:
        if self.fts is not None:
            self.calls.append(expression)
            hits: list[Candidate] = self.fts.search_bm25(expression, limit)
            return hits
        result: list[Candidate] = original(self, expression, limit)
        return result

    set_attr(scripted.ScriptedIndex, "search_bm25", search_bm25)


@mutant(
    "scripted-fts5-whenever-chunks",
    "BACKEND-42",
    "the chunks are executed with FTS5 whenever they are given, bm25.fts5 or not",
    seams=("reference.backends.scripted._index",),
)
def _scripted_fts5_whenever_chunks() -> None:
    scripted = _mod("reference.backends.scripted")
    original = scripted._index

    def index(raw: Any, chunks: list[Candidate] | None) -> Any:
        built = original(raw, chunks)
        if chunks is not None and built.fts is None and len({c.id for c in chunks}) == len(chunks):
            built.fts = scripted._fts_index(chunks)
        return built

    swap(scripted, "_index", index)


@mutant(
    "scripted-omitted-bm25-no-index",
    "BACKEND-36",
    "an omitted `bm25` configures no index (invalid_input) instead of one with zero hits",
    seams=("reference.backends.scripted._index",),
)
def _scripted_omitted_bm25() -> None:
    scripted = _mod("reference.backends.scripted")
    original = scripted._index

    def index(raw: Any, chunks: Any) -> Any:
        return None if raw is None else original(raw, chunks)

    swap(scripted, "_index", index)


@mutant(
    "scripted-vector-error-as-no-hits",
    "BACKEND-37",
    "a scripted `vector.error` is answered as zero hits instead of raising index_error",
    seams=("reference.backends.scripted.ScriptedVectors.search_vector",),
)
def _scripted_vector_error_no_hits() -> None:
    scripted = _mod("reference.backends.scripted")
    original = scripted.ScriptedVectors.search_vector

    def search_vector(self: Any, vector: Any, limit: int) -> list[Candidate]:
        if self.error is not None:
            self.calls += 1
            return []
        result: list[Candidate] = original(self, vector, limit)
        return result

    set_attr(scripted.ScriptedVectors, "search_vector", search_vector)


@mutant(
    "scripted-embedder-if-present",
    "BACKEND-38",
    "the scripted embedder is configured whenever `embedder` is present, `false` included",
    seams=("reference.backends.scripted.scripted_backends_from_json",),
)
def _scripted_embedder_if_present() -> None:
    scripted = _mod("reference.backends.scripted")
    original = scripted.scripted_backends_from_json

    def from_json(obj: Any) -> Any:
        built = original(obj)
        if isinstance(obj, dict) and "embedder" in obj and built.embedder is None:
            built.embedder = scripted.ScriptedEmbedder()
        return built

    swap(scripted, "scripted_backends_from_json", from_json)


@mutant(
    "scripted-reranker-drops-repeats",
    "BACKEND-39",
    "the scripted reranker drops repeated ids (keeps the first) instead of returning them as given",
    seams=("reference.backends.scripted.ScriptedReranker.rerank",),
)
def _scripted_reranker_drops_repeats() -> None:
    scripted = _mod("reference.backends.scripted")
    original = scripted.ScriptedReranker.rerank

    def rerank(self: Any, query: str, head: Any) -> Any:
        seen: set[str] = set()
        out = []
        for entry in original(self, query, head):
            if entry.id not in seen:
                seen.add(entry.id)
                out.append(entry)
        return out

    set_attr(scripted.ScriptedReranker, "rerank", rerank)


@mutant(
    "scripted-vector-both-accepted",
    "BACKEND-40",
    "`vector` with both `hits` and `error` is accepted (the error wins) instead of rejected",
    seams=("reference.backends.scripted._hits_or_error",),
)
def _scripted_vector_both() -> None:
    scripted = _mod("reference.backends.scripted")
    original = scripted._hits_or_error

    def hits_or_error(raw: Any, where: str) -> Any:
        if isinstance(raw, dict) and "hits" in raw and "error" in raw:
            return [], scripted._string(raw["error"], f"{where}.error")
        return original(raw, where)

    swap(scripted, "_hits_or_error", hits_or_error)
