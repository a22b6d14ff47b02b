"""Broken ports of the embedder, vector store, reranker and FTS5 index (spec/backends.md)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from conformance.selftest.broken_ports.patching import _mod, mutant, set_attr, swap

# -- hrc-hash-v1 (BACKEND-20..24) ---------------------------------------------------------------


@mutant(
    "embed-features-as-set",
    "BACKEND-21",
    "features are collected in a set, so a repeated window counts once",
    seams=(
        "reference.backends.embedder.features",
        "reference.backends.embedder.HashEmbedder.embed_counts",
    ),
)
def _embed_features_set() -> None:
    emb = _mod("reference.backends.embedder")
    old_features = emb.features

    def features(text: str) -> list[str]:
        return list(dict.fromkeys(old_features(text)))

    def embed_counts(self: Any, text: str) -> list[int]:
        counts = [0] * emb.DIMENSION
        for feature in features(text):
            counts[emb.bucket(feature)] += 1
        return counts

    swap(emb, "features", features)
    set_attr(emb.HashEmbedder, "embed_counts", embed_counts)


@mutant(
    "embed-fnv1-order",
    "BACKEND-22",
    "FNV-1 instead of FNV-1a: multiply first, then XOR the byte in",
    seams=("reference.backends.embedder.fnv1a_32",),
)
def _embed_fnv1() -> None:
    emb = _mod("reference.backends.embedder")

    def fnv1a_32(data: bytes) -> int:
        h: int = emb.FNV_OFFSET_BASIS
        for byte in data:
            h = (h * emb.FNV_PRIME) & 0xFFFFFFFF
            h ^= byte
        return h

    swap(emb, "fnv1a_32", fnv1a_32)
    emb.word_buckets.cache_clear()


@mutant(
    "embed-unit-length",
    "BACKEND-23",
    "`embed` returns the counts scaled to unit length instead of the exact integer counts",
    seams=("reference.backends.embedder.HashEmbedder.embed",),
)
def _embed_unit() -> None:
    emb = _mod("reference.backends.embedder")

    def embed(self: Any, text: str) -> list[float]:
        counts = self.embed_counts(text)
        norm = float(sum(c * c for c in counts)) ** 0.5
        return [float(c) / norm if norm else 0.0 for c in counts]

    set_attr(emb.HashEmbedder, "embed", embed)


@mutant(
    "embed-chunk-title-and-content",
    "BACKEND-24",
    "a chunk's vector embeds its title and content together, not its content alone",
    seams=(
        "reference.backends.vector.MemoryVectorStore.upsert_document",
        "reference.backends.vector.MemoryVectorStore._embed",
    ),
)
def _embed_title_and_content() -> None:
    vector = _mod("reference.backends.vector")
    original = vector.MemoryVectorStore._embed
    old_upsert = vector.MemoryVectorStore.upsert_document

    def upsert_document(self: Any, path: str, chunks: Any) -> None:
        self._titles = {**getattr(self, "_titles", {}), **{c.content: c.title for c in chunks}}
        old_upsert(self, path, chunks)

    def _embed(self: Any, text: str) -> Any:
        title = getattr(self, "_titles", {}).get(text, "")
        return original(self, f"{title} {text}" if title else text)

    set_attr(vector.MemoryVectorStore, "upsert_document", upsert_document)
    set_attr(vector.MemoryVectorStore, "_embed", _embed)


# -- the vector store (BACKEND-27..31) ---------------------------------------------------------


@mutant(
    "vector-ties-by-id",
    "BACKEND-29",
    "chunks with equal exact similarity are ordered by id alone, not by path then id",
    seams=("reference.backends.vector.MemoryVectorStore._exact_order",),
)
def _vector_ties_by_id() -> None:
    vector = _mod("reference.backends.vector")
    store = vector.MemoryVectorStore

    def _exact_order(self: Any, rows: Any, approx: Any, dots: Any) -> list[int]:
        ranked: list[int] = old(self, rows, approx, dots)
        key = {i: vector.exact_order_key(int(dots[i]), self._norm2[i]) for i in ranked}
        return sorted(ranked, key=lambda i: (-key[i], self._chunks[i].id.encode()))

    old = set_attr(store, "_exact_order", _exact_order)


@mutant(
    "vector-shortlist-no-margin",
    "BACKEND-31",
    "the float shortlist keeps scores >= the limit-th float exactly, without the 1e-9 margin",
    seams=("reference.backends.vector.SHORTLIST_MARGIN",),
)
def _vector_shortlist_no_margin() -> None:
    set_attr(_mod("reference.backends.vector"), "SHORTLIST_MARGIN", 0.0)


@mutant(
    "vector-zero-dot-hits",
    "BACKEND-27",
    "a chunk with `dot = 0` (nothing in common) is still a hit, at similarity 0",
    seams=("reference.backends.vector.MemoryVectorStore._top_exact",),
)
def _vector_zero_dot() -> None:
    vector = _mod("reference.backends.vector")
    store = vector.MemoryVectorStore

    def _top_exact(self: Any, vec: Any, limit: int) -> Any:
        found = old(self, vec, 2**31 - 1)
        if found is None:
            if not self._chunks or not any(vec):
                return None
            found = ([], [], sum(int(v) * int(v) for v in vec))
        rows, dots, q_norm2 = found
        taken = set(rows)
        rest = [
            i for i in range(len(self._chunks))
            if i not in taken and self._norm2[i] > 0
        ]
        rest.sort(key=lambda i: (self._chunks[i].path.encode(), self._chunks[i].id.encode()))
        rows = (list(rows) + rest)[:limit]
        return rows, (list(dots) + [0] * len(rest))[:limit], q_norm2

    old = set_attr(store, "_top_exact", _top_exact)


# -- hrc-lexical-v1 (BACKEND-33..35) -----------------------------------------------------------


@mutant(
    "lexical-results-sorted",
    "BACKEND-33",
    "the reranker returns its entries sorted by score, best first, not in head order",
    seams=("reference.backends.lexical_reranker.LexicalReranker.rerank",),
)
def _lexical_sorted() -> None:
    lex = _mod("reference.backends.lexical_reranker")
    original = lex.LexicalReranker.rerank

    def rerank(self: Any, query: str, head: Any) -> Any:
        return sorted(original(self, query, head), key=lambda e: -e.score)

    set_attr(lex.LexicalReranker, "rerank", rerank)


@mutant(
    "lexical-content-only",
    "BACKEND-34",
    "D is the words of the content alone; title and summary are not read",
    seams=("reference.backends.lexical_reranker.candidate_terms",),
)
def _lexical_content_only() -> None:
    lex = _mod("reference.backends.lexical_reranker")
    swap(lex, "candidate_terms", lambda c: frozenset(lex.words(c.content)))


@mutant(
    "lexical-q-with-repeats",
    "BACKEND-35",
    "|Q| counts repeated query words (a list, not a set), so `tea tea` needs `tea` twice",
    seams=("reference.backends.lexical_reranker.LexicalReranker.rerank",),
)
def _lexical_q_repeats() -> None:
    lex = _mod("reference.backends.lexical_reranker")
    original = lex.LexicalReranker.rerank

    def rerank(self: Any, query: str, head: Any) -> Any:
        q = [w for w in lex.words(query) if not self._is_stopword(w)]
        entries = original(self, query, head)
        if not q:
            return entries
        return [
            type(e)(e.id, float(sum(1 for w in q if w in lex.candidate_terms(c))) / float(len(q)))
            for e, c in zip(entries, head, strict=True)
        ]

    set_attr(lex.LexicalReranker, "rerank", rerank)


@mutant(
    "lexical-empty-query-scores-one",
    "BACKEND-35",
    "a query with no word left (all stopwords, or none) scores 1.0 instead of 0.0",
    seams=("reference.backends.lexical_reranker.overlap_score",),
)
def _lexical_empty_one() -> None:
    lex = _mod("reference.backends.lexical_reranker")
    original = lex.overlap_score
    swap(lex, "overlap_score", lambda q, d: 1.0 if not q else original(q, d))


# -- the FTS5 index (BACKEND-1..8) -------------------------------------------------------------


def _patch_schema(old: str, new: str) -> None:
    fts = _mod("reference.backends.sqlite_fts")
    set_attr(fts, "SCHEMA", tuple(s.replace(old, new) for s in fts.SCHEMA))


def _patch_rank(old: str, new: str) -> None:
    fts = _mod("reference.backends.sqlite_fts")
    for name in ("_RANK_SQL", "_AT_MOST_SQL"):
        set_attr(fts, name, getattr(fts, name).replace(old, new))


@mutant(
    "fts-id-indexed",
    "BACKEND-1",
    "the `id` column is declared without UNINDEXED, so its tokens match (at weight 0)",
    seams=("reference.backends.sqlite_fts.SCHEMA",),
)
def _fts_id_indexed() -> None:
    _patch_schema("id UNINDEXED,", "id,")


@mutant(
    "fts-remove-diacritics-1",
    "BACKEND-2",
    "the tokenizer uses the default remove_diacritics 1: multi-mark letters keep their marks",
    seams=("reference.backends.sqlite_fts.SCHEMA",),
)
def _fts_diacritics_1() -> None:
    _patch_schema("remove_diacritics 2", "remove_diacritics 1")


@mutant(
    "fts-weights-title-summary-swapped",
    "BACKEND-4",
    "bm25() weights 5 for title and 10 for summary (the two swapped)",
    seams=("reference.backends.sqlite_fts._RANK_SQL", "reference.backends.sqlite_fts._AT_MOST_SQL"),
)
def _fts_weights_swapped() -> None:
    _patch_rank("3.0, 10.0, 5.0, 1.0", "3.0, 5.0, 10.0, 1.0")


@mutant(
    "fts-ties-by-id",
    "BACKEND-5",
    "equal scores are ordered by `id` alone (`ORDER BY score, id`), not by path then id",
    seams=("reference.backends.sqlite_fts.SqliteIndex.search_bm25_scored",),
)
def _fts_ties_by_id() -> None:
    fts = _mod("reference.backends.sqlite_fts")
    original = fts.SqliteIndex.search_bm25_scored

    def search_bm25_scored(self: Any, expression: str, limit: int) -> Any:
        hits = original(self, expression, 2**31 - 1)
        hits.sort(key=lambda h: (h.score, h.candidate.id.encode()))
        return hits[:limit]

    set_attr(fts.SqliteIndex, "search_bm25_scored", search_bm25_scored)


@mutant(
    "fts-error-as-no-hits",
    "BACKEND-7",
    "an SQLite error while searching (a malformed expression) is answered as zero hits",
    seams=("reference.backends.sqlite_fts.SqliteIndex.search_bm25_scored",),
)
def _fts_error_no_hits() -> None:
    fts = _mod("reference.backends.sqlite_fts")
    original = fts.SqliteIndex.search_bm25_scored

    def search_bm25_scored(self: Any, expression: str, limit: int) -> Any:
        try:
            return original(self, expression, limit)
        except fts.IndexError_:
            return []

    set_attr(fts.SqliteIndex, "search_bm25_scored", search_bm25_scored)


@mutant(
    "fts-chunks-by-rowid",
    "BACKEND-8",
    "chunks() lists rows by path then insertion order, so `p.md#10` comes after `p.md#9`",
    seams=(
        "reference.backends.sqlite_fts.CHUNKS_SQL",
        "reference.backends.sqlite_fts.CHUNKS_WITH_VECTORS_SQL",
    ),
)
def _fts_chunks_by_rowid() -> None:
    fts = _mod("reference.backends.sqlite_fts")
    set_attr(fts, "CHUNKS_SQL", fts.CHUNKS_SQL.replace("ORDER BY path, id", "ORDER BY path, rowid"))
    set_attr(
        fts, "CHUNKS_WITH_VECTORS_SQL",
        fts.CHUNKS_WITH_VECTORS_SQL.replace("ORDER BY c.path, c.id", "ORDER BY c.path, c.rowid"),
    )


@mutant(
    "fts-utf16-database",
    "BACKEND-3",
    "the database is UTF-16 (little-endian), so BINARY collation orders paths by UTF-16 bytes",
    seams=(
        "reference.backends.sqlite_fts.SqliteIndex.chunks",
        "reference.backends.sqlite_fts.SqliteIndex.search_bm25_scored",
    ),
)
def _fts_utf16() -> None:
    fts = _mod("reference.backends.sqlite_fts")
    index = fts.SqliteIndex
    old_chunks, old_search = index.chunks, index.search_bm25_scored

    def utf16(text: str) -> bytes:
        return text.encode("utf-16-le")

    def chunks(self: Any) -> Any:
        rows: list[Any] = old_chunks(self)
        return sorted(rows, key=lambda c: (utf16(c.path), utf16(c.id)))

    def search_bm25_scored(self: Any, expression: str, limit: int) -> Any:
        hits: list[Any] = old_search(self, expression, 2**31 - 1)
        hits.sort(key=lambda h: (h.score, utf16(h.candidate.path), utf16(h.candidate.id)))
        return hits[:limit]

    set_attr(index, "chunks", chunks)
    set_attr(index, "search_bm25_scored", search_bm25_scored)


@mutant(
    "fts-hit-metadata-score",
    "BACKEND-6",
    "a hit carries its bm25() value in `metadata` (`{\"score\": …}`) instead of `{}`",
    seams=("reference.backends.sqlite_fts.SqliteIndex.search_bm25_scored",),
)
def _fts_hit_metadata_score() -> None:
    fts = _mod("reference.backends.sqlite_fts")
    original = fts.SqliteIndex.search_bm25_scored

    def search_bm25_scored(self: Any, expression: str, limit: int) -> Any:
        hits: list[Any] = original(self, expression, limit)
        return [
            type(h)(replace(h.candidate, metadata={"score": h.score}), h.score) for h in hits
        ]

    set_attr(fts.SqliteIndex, "search_bm25_scored", search_bm25_scored)


@mutant(
    "corpus-without-reranker",
    "BACKEND-41",
    "search_corpus indexes and embeds the demo corpus but configures no reranker",
    seams=("reference.backends.indexer.open_corpus",),
)
def _corpus_without_reranker() -> None:
    indexer = _mod("reference.backends.indexer")
    original = indexer.open_corpus

    def open_corpus(name: str) -> Any:
        opened = original(name)
        opened.reranker = None
        return opened

    swap(indexer, "open_corpus", open_corpus)


@mutant(
    "embed-dimension-512",
    "BACKEND-20",
    "the embedder has dimension 512 (buckets mod 512), not 256",
    seams=(
        "reference.backends.embedder.DIMENSION",
        "reference.backends.embedder.HashEmbedder.dimension",
    ),
)
def _embed_dimension_512() -> None:
    emb = _mod("reference.backends.embedder")
    set_attr(emb, "DIMENSION", 512)
    set_attr(emb.HashEmbedder, "dimension", 512)
    emb.word_buckets.cache_clear()
