"""SQLite FTS5 index: the pinned schema, BM25 ranking and tie rule (spec/backends.md BACKEND-1..11).

Every write runs inside a savepoint, so a failure leaves the index as it was. Every SQLite
error on search becomes reference.types.IndexError_ carrying SQLite's message (BACKEND-7).
"""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import count

from reference.types import Candidate, IndexError_, InvalidInput

TOKENIZER = "unicode61 remove_diacritics 2"
# BACKEND-4: bm25() column weights in declaration order (id, path, title, summary, content).
WEIGHT_ID = 0.0
WEIGHT_PATH = 3.0
WEIGHT_TITLE = 10.0
WEIGHT_SUMMARY = 5.0
WEIGHT_CONTENT = 1.0
MIN_SQLITE_VERSION = (3, 27, 0)

SCHEMA = (
    "CREATE VIRTUAL TABLE IF NOT EXISTS chunks USING fts5("
    f"id UNINDEXED, path, title, summary, content, tokenize = '{TOKENIZER}')",
    "CREATE TABLE IF NOT EXISTS documents ("
    "path TEXT PRIMARY KEY NOT NULL, hash TEXT NOT NULL, "
    "first_rowid INTEGER NOT NULL, chunk_count INTEGER NOT NULL)",
)

_RANK = (
    f"bm25(chunks, {WEIGHT_ID!r}, {WEIGHT_PATH!r}, {WEIGHT_TITLE!r}, "
    f"{WEIGHT_SUMMARY!r}, {WEIGHT_CONTENT!r})"
)
SEARCH_SQL = (
    f"SELECT id, path, title, summary, content, {_RANK} AS score FROM chunks "
    "WHERE chunks MATCH ? ORDER BY score, path, id LIMIT ?"
)
CHUNKS_SQL = "SELECT id, path, title, summary, content FROM chunks ORDER BY path, id"


@dataclass(frozen=True)
class ScoredHit:
    """A BM25 hit with SQLite's bm25() value (lower is better; for tests and debugging)."""

    candidate: Candidate
    score: float


def _version_tuple(text: str) -> tuple[int, ...]:
    return tuple(int(p) for p in text.split(".")[:3])


class SqliteIndex:
    """The Index protocol over an SQLite FTS5 table (BACKEND-1..11).

    `path` is a file path or ":memory:". The connection is shared by threads under a lock
    so that legs MAY run concurrently (PIPE-3).
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        if _version_tuple(sqlite3.sqlite_version) < MIN_SQLITE_VERSION:
            raise IndexError_(
                f"SQLite {sqlite3.sqlite_version} is too old: the tokenizer "
                f"'{TOKENIZER}' needs 3.27.0 or later (BACKEND-2)"
            )
        self._lock = threading.RLock()
        self._savepoints = count()
        self._chunks_cache: list[Candidate] | None = None
        try:
            self._db = sqlite3.connect(
                os.fspath(path), isolation_level=None, check_same_thread=False
            )
            # BACKEND-3: a UTF-8 database, so BINARY collation is code point order.
            # (Ignored by SQLite for an existing database; checked below.)
            self._db.execute("PRAGMA encoding = 'UTF-8'")
            with self.transaction():
                for statement in SCHEMA:
                    self._db.execute(statement)
            (encoding,) = self._db.execute("PRAGMA encoding").fetchone()
        except sqlite3.Error as exc:
            raise IndexError_(f"cannot open index {os.fspath(path)!r}: {exc}") from exc
        if encoding != "UTF-8":
            self._db.close()
            raise IndexError_(
                f"index {os.fspath(path)!r} uses {encoding}; BACKEND-3 needs UTF-8"
            )

    def connection(self) -> sqlite3.Connection:
        """The underlying connection, for tables kept beside the index (profile gbrain's
        edges); writes belong inside `transaction()`."""
        return self._db

    # -- transactions -------------------------------------------------------------------

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """BACKEND-9: all writes inside commit together or not at all (nests as savepoints)."""
        with self._lock:
            name = f"hrc_sp_{next(self._savepoints)}"
            self._db.execute(f"SAVEPOINT {name}")
            try:
                yield
            except BaseException:
                self._chunks_cache = None
                self._db.execute(f"ROLLBACK TO {name}")
                self._db.execute(f"RELEASE {name}")
                raise
            self._db.execute(f"RELEASE {name}")

    # -- writes -------------------------------------------------------------------------

    def upsert_document(
        self, path: str, chunks: Sequence[Candidate], content_hash: str = ""
    ) -> None:
        """Replace every chunk of `path` with `chunks` and record the document's content hash.

        Every chunk must carry `path`; a document with zero chunks is still recorded.
        """
        for chunk in chunks:
            if chunk.path != path:
                raise InvalidInput(f"chunk {chunk.id!r} has path {chunk.path!r}, not {path!r}")
        try:
            with self.transaction():
                self._delete_rows(path)
                (top,) = self._db.execute("SELECT coalesce(max(rowid), 0) FROM chunks").fetchone()
                first = int(top) + 1
                self._chunks_cache = None
                self._db.executemany(
                    "INSERT INTO chunks(rowid, id, path, title, summary, content) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    [
                        (first + i, c.id, c.path, c.title, c.summary, c.content)
                        for i, c in enumerate(chunks)
                    ],
                )
                self._db.execute(
                    "INSERT INTO documents(path, hash, first_rowid, chunk_count) "
                    "VALUES (?, ?, ?, ?)",
                    (path, content_hash, first, len(chunks)),
                )
        except sqlite3.Error as exc:
            raise IndexError_(f"cannot write document {path!r}: {exc}") from exc

    def remove_document(self, path: str) -> bool:
        """Delete the document and its chunks; return whether it was indexed."""
        try:
            with self.transaction():
                return self._delete_rows(path)
        except sqlite3.Error as exc:
            raise IndexError_(f"cannot remove document {path!r}: {exc}") from exc

    def _delete_rows(self, path: str) -> bool:
        self._chunks_cache = None
        row = self._db.execute(
            "SELECT first_rowid, chunk_count FROM documents WHERE path = ?", (path,)
        ).fetchone()
        if row is None:
            return False
        first, n = int(row[0]), int(row[1])
        if n:
            self._db.execute(
                "DELETE FROM chunks WHERE rowid BETWEEN ? AND ?", (first, first + n - 1)
            )
        self._db.execute("DELETE FROM documents WHERE path = ?", (path,))
        return True

    # -- reads --------------------------------------------------------------------------

    def document_hashes(self) -> dict[str, str]:
        """Path → content hash of every indexed document (BACKEND-10)."""
        with self._lock:
            try:
                rows = self._db.execute("SELECT path, hash FROM documents").fetchall()
            except sqlite3.Error as exc:
                raise IndexError_(str(exc)) from exc
        return {str(p): str(h) for p, h in rows}

    def search_bm25_scored(self, expression: str, limit: int) -> list[ScoredHit]:
        """BACKEND-4..7: hits with their bm25() value, best (lowest) first."""
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
            raise InvalidInput(f"limit must be an integer >= 1, got {limit!r}")
        with self._lock:
            try:
                rows = self._db.execute(SEARCH_SQL, (expression, limit)).fetchall()
            except UnicodeEncodeError:
                # A lone surrogate has no UTF-8 form: bad input, not an index fault (OP-2).
                raise InvalidInput("the expression is not valid Unicode (lone surrogate)") from None
            except sqlite3.Error as exc:
                # BACKEND-7: never a silent zero; SQLite's own message is kept.
                raise IndexError_(str(exc)) from exc
        return [
            ScoredHit(
                Candidate(id=r[0], path=r[1], title=r[2], summary=r[3], content=r[4]),
                float(r[5]),
            )
            for r in rows
        ]

    def search_bm25(self, expression: str, limit: int) -> list[Candidate]:
        """Index protocol: at most `limit` hits for an FTS5 expression (BACKEND-5..7)."""
        return [h.candidate for h in self.search_bm25_scored(expression, limit)]

    def chunks(self) -> list[Candidate]:
        """Index protocol: every chunk, ordered by path then id (BACKEND-8).

        The list is cached until the next write and the same object is returned each time, so
        callers can cache work keyed on it; callers must not mutate it.
        """
        with self._lock:
            if self._chunks_cache is not None:
                return self._chunks_cache
            try:
                rows = self._db.execute(CHUNKS_SQL).fetchall()
            except sqlite3.Error as exc:
                raise IndexError_(str(exc)) from exc
            self._chunks_cache = [
                Candidate(id=r[0], path=r[1], title=r[2], summary=r[3], content=r[4])
                for r in rows
            ]
            return self._chunks_cache

    def chunk_count(self) -> int:
        """Number of indexed chunks."""
        with self._lock:
            (n,) = self._db.execute("SELECT count(*) FROM chunks").fetchone()
        return int(n)

    def close(self) -> None:
        """Close the connection; the object is unusable afterwards."""
        with self._lock:
            self._db.close()

    def __enter__(self) -> SqliteIndex:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
