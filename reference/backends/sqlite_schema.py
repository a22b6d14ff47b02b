"""The FTS5 index's tables, column weights (BACKEND-4) and SQL statements."""

from __future__ import annotations

TOKENIZER = "unicode61 remove_diacritics 2"


# BACKEND-4: bm25() column weights in declaration order (id, path, title, summary, content).
WEIGHT_ID = 0.0


WEIGHT_PATH = 3.0


WEIGHT_TITLE = 10.0


WEIGHT_SUMMARY = 5.0


WEIGHT_CONTENT = 1.0


SCHEMA = (
    "CREATE VIRTUAL TABLE IF NOT EXISTS chunks USING fts5("
    f"id UNINDEXED, path, title, summary, content, tokenize = '{TOKENIZER}')",
    "CREATE TABLE IF NOT EXISTS documents ("
    "path TEXT PRIMARY KEY NOT NULL, hash TEXT NOT NULL, "
    "first_rowid INTEGER NOT NULL, chunk_count INTEGER NOT NULL)",
    # BACKEND-25: a chunk's integer vector, keyed by the chunk's rowid (reference layout).
    "CREATE TABLE IF NOT EXISTS chunk_vectors (rowid INTEGER PRIMARY KEY, vector BLOB NOT NULL)",
    "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL)",
    # TRI-1: each chunk's distinct content words (first-occurrence order) as word ids, so the
    # trigram rung's index is loaded, not rebuilt from every chunk's text (reference layout).
    "CREATE TABLE IF NOT EXISTS trigram_words (wid INTEGER PRIMARY KEY, word TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS chunk_words (rowid INTEGER PRIMARY KEY, wids BLOB NOT NULL)",
    # TRI-2: gram -> word ids over the whole vocabulary (refreshed at the end of each run).
    "CREATE TABLE IF NOT EXISTS trigram_blobs (name TEXT PRIMARY KEY, data BLOB NOT NULL)",
)


#: Name prefix, in trigram_blobs, of the blobs of _store_layout.
_LAYOUT = "layout_"


#: meta key naming the embedder and dimension of chunk_vectors, e.g. `hrc-hash-v1/256`.
VECTORS_KEY = "vectors"


_RANK = (
    f"bm25(chunks, {WEIGHT_ID!r}, {WEIGHT_PATH!r}, {WEIGHT_TITLE!r}, "
    f"{WEIGHT_SUMMARY!r}, {WEIGHT_CONTENT!r})"
)


SEARCH_SQL = (
    f"SELECT id, path, title, summary, content, {_RANK} AS score FROM chunks "
    "WHERE chunks MATCH ? ORDER BY score, path, id LIMIT ?"
)


CHUNKS_SQL = "SELECT id, path, title, summary, content, rowid FROM chunks ORDER BY path, id"


CHUNKS_WITH_VECTORS_SQL = (
    "SELECT c.id, c.path, c.title, c.summary, c.content, c.rowid, v.vector FROM chunks AS c "
    "LEFT JOIN chunk_vectors AS v ON v.rowid = c.rowid ORDER BY c.path, c.id"
)


#: Position of each column in the FTS5 table (BACKEND-1), i.e. `c<i>` in `chunks_content`.
_COLUMN_INDEX = {"id": 0, "path": 1, "title": 2, "summary": 3, "content": 4}


# BACKEND-5, ranked by rowid: the pinned query's order without reading any column but the
# score; `path` and `id` are read only for rows tied at the cut, the rest only for winners.
_RANK_SQL = (
    f"SELECT rowid, {_RANK} AS score FROM chunks WHERE chunks MATCH ? ORDER BY score LIMIT ?"
)


_AT_MOST_SQL = (
    f"SELECT rowid, score FROM (SELECT rowid, {_RANK} AS score FROM chunks "
    "WHERE chunks MATCH ?) WHERE score <= ?"
)
