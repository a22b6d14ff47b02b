"""SQLite FTS5 index: the pinned schema, BM25 ranking and tie rule (spec/backends.md BACKEND-1..11).

Every write runs inside a savepoint, so a failure leaves the index as it was. Every SQLite
error on search becomes reference.types.IndexError_ carrying SQLite's message (BACKEND-7).

Search ranks rowids first and reads the columns only of the winners (BACKEND-5 allows it: the
result equals the pinned query's). An index opened with an embedder also stores each chunk's
integer vector beside it, written in the same transaction (BACKEND-25), so opening an index
does not re-embed the corpus.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import count
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from reference.backends.sqlite_schema import (
    _AT_MOST_SQL,
    _COLUMN_INDEX,
    _LAYOUT,
    _RANK_SQL,
    CHUNKS_SQL,
    CHUNKS_WITH_VECTORS_SQL,
    SCHEMA,
    TOKENIZER,
    VECTORS_KEY,
)
from reference.backends.vector_blobs import _flatten_word_blobs, pack_vector, unpack_vectors
from reference.trigram import GramIndex, TrigramIndex, chunk_words, word_postings
from reference.types import Candidate, IndexError_, InvalidInput


class CountingEmbedder(Protocol):
    """An embedder with exact integer vectors (`hrc-hash-v1`): what the index can persist."""

    name: str
    dimension: int

    def embed_counts(self, text: str) -> list[int]: ...

MIN_SQLITE_VERSION = (3, 27, 0)


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

    #: chunks() never answers None: the trigram rung may wait until it runs to load them.
    lists_chunks = True

    def __init__(
        self,
        path: str | os.PathLike[str],
        embedder: CountingEmbedder | None = None,
        *,
        store_words: bool = False,
    ) -> None:
        if _version_tuple(sqlite3.sqlite_version) < MIN_SQLITE_VERSION:
            raise IndexError_(
                f"SQLite {sqlite3.sqlite_version} is too old: the tokenizer "
                f"'{TOKENIZER}' needs 3.27.0 or later (BACKEND-2)"
            )
        self._lock = threading.RLock()
        self._savepoints = count()
        self._chunks_cache: list[Candidate] | None = None
        self._embedder = embedder
        self._store_words = store_words
        self._rowids: list[int] = []
        self._wids: dict[str, int] | None = None
        self._trigram: TrigramIndex | None = None
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
                self._forget()
                self._wids = None  # word ids written inside the savepoint are gone too
                self._db.execute(f"ROLLBACK TO {name}")
                self._db.execute(f"RELEASE {name}")
                raise
            self._db.execute(f"RELEASE {name}")

    def _forget(self) -> None:
        """Drop what is cached from the chunks (after a write or a rollback)."""
        self._chunks_cache = None
        self._trigram = None

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
                self._forget()
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
                if self._embedder is not None:
                    self._write_vectors([(first + i, c.content) for i, c in enumerate(chunks)])
                if self._store_words:
                    self._write_words([(first + i, c.content) for i, c in enumerate(chunks)])
        except sqlite3.Error as exc:
            raise IndexError_(f"cannot write document {path!r}: {exc}") from exc

    def _vectors_tag(self) -> str:
        assert self._embedder is not None
        return f"{self._embedder.name}/{self._embedder.dimension}"

    def _write_vectors(self, rows: Sequence[tuple[int, str]]) -> None:
        """BACKEND-25: store each chunk's vector (rowid, content); a different embedder's
        vectors are dropped first, so the table never mixes two embedders."""
        assert self._embedder is not None
        tag = self._vectors_tag()
        found = self._db.execute("SELECT value FROM meta WHERE key = ?", (VECTORS_KEY,)).fetchone()
        if found is None or found[0] != tag:
            self._db.execute("DELETE FROM chunk_vectors")
            self._db.execute(
                "INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", (VECTORS_KEY, tag)
            )
        embed = self._embedder.embed_counts
        self._db.executemany(
            "INSERT OR REPLACE INTO chunk_vectors(rowid, vector) VALUES (?, ?)",
            [(rowid, pack_vector(embed(text))) for rowid, text in rows],
        )

    def _write_words(self, rows: Sequence[tuple[int, str]]) -> None:
        """TRI-1: store each chunk's distinct words (rowid, content) as word ids."""
        if self._wids is None:
            self._wids = {
                str(w): int(i) for i, w in self._db.execute("SELECT wid, word FROM trigram_words")
            }
        wids = self._wids
        memo: dict[str, list[str]] = {}
        new: list[tuple[int, str]] = []
        packed: list[tuple[int, bytes]] = []
        for rowid, text in rows:
            ids = []
            for word in chunk_words(text, memo):
                wid = wids.get(word)
                if wid is None:
                    wid = wids[word] = len(wids)
                    new.append((wid, word))
                ids.append(wid)
            packed.append((rowid, np.array(ids, dtype="<i4").tobytes()))
        self._db.executemany("INSERT INTO trigram_words(wid, word) VALUES (?, ?)", new)
        self._db.executemany(
            "INSERT OR REPLACE INTO chunk_words(rowid, wids) VALUES (?, ?)", packed
        )

    def store_missing_words(self) -> int:
        """TRI-1: store the words of the chunks that have none stored; returns how many."""
        if not self._store_words:
            return 0
        try:
            with self.transaction():
                missing = self._db.execute(
                    "SELECT rowid, content FROM chunks WHERE rowid NOT IN "
                    "(SELECT rowid FROM chunk_words)"
                ).fetchall()
                self._write_words([(int(r), str(t)) for r, t in missing])
                self._db.execute(
                    "DELETE FROM chunk_words WHERE rowid NOT IN (SELECT rowid FROM chunks)"
                )
                self._store_gram_index()
                self._store_layout()
        except sqlite3.Error as exc:
            raise IndexError_(f"cannot store words: {exc}") from exc
        return len(missing)

    def _store_layout(self) -> None:
        """TRI-1: every chunk's word ids in chunks() order and each word's postings, as single
        blobs, so the first fuzzy query loads arrays instead of a row per chunk and a sort.
        Derived from chunk_words at the end of an index run; any later write deletes it."""
        rows = self._db.execute(
            "SELECT c.rowid, w.wids FROM chunks AS c JOIN chunk_words AS w "
            "ON w.rowid = c.rowid ORDER BY c.path, c.id"
        ).fetchall()
        (total,) = self._db.execute("SELECT count(*) FROM chunks").fetchone()
        (size,) = self._db.execute("SELECT count(*) FROM trigram_words").fetchone()
        self._db.execute(f"DELETE FROM trigram_blobs WHERE name GLOB '{_LAYOUT}*'")
        if len(rows) != int(total):
            return  # some chunk has no stored words: nothing to lay out
        flat, offsets = _flatten_word_blobs([bytes(b) for _, b in rows])
        positions, starts = word_postings(flat, offsets, int(size))
        layout = {
            "rowids": np.array([r for r, _ in rows], dtype="<i8").tobytes(),
            "word_offsets": offsets.astype("<i8").tobytes(),
            "word_ids": flat.astype("<i4").tobytes(),
            "postings": positions.astype("<i4").tobytes(),
            "posting_starts": starts.astype("<i8").tobytes(),
            "vocabulary": str(int(size)).encode("ascii"),
        }
        self._db.executemany(
            "INSERT INTO trigram_blobs(name, data) VALUES (?, ?)",
            [(_LAYOUT + name, data) for name, data in layout.items()],
        )

    def _load_layout(self, size: int) -> tuple[npt.NDArray[Any], ...] | None:
        """The stored layout when it describes exactly the chunks of chunks() (same rowids in
        the same order) over `size` words; else None."""
        found = dict(
            self._db.execute(
                f"SELECT substr(name, {len(_LAYOUT) + 1}), data FROM trigram_blobs "
                f"WHERE name GLOB '{_LAYOUT}*'"
            )
        )
        if found.get("vocabulary") != str(size).encode("ascii"):
            return None
        rowids = np.frombuffer(found["rowids"], dtype="<i8")
        if not np.array_equal(rowids, np.array(self._rowids, dtype=np.int64)):
            return None
        offsets = np.frombuffer(found["word_offsets"], dtype="<i8").astype(np.int64)
        flat = np.frombuffer(found["word_ids"], dtype="<i4").astype(np.int32)
        positions = np.frombuffer(found["postings"], dtype="<i4").astype(np.int64)
        starts = np.frombuffer(found["posting_starts"], dtype="<i8").astype(np.int64)
        if (
            len(offsets) != len(rowids) + 1
            or int(offsets[-1]) != len(flat)
            or len(starts) != size + 1
            or int(starts[-1]) != len(positions)
        ):
            raise IndexError_("the stored trigram layout is inconsistent")
        return flat, offsets, positions, starts

    def _vocabulary(self) -> list[str]:
        return [str(w) for (w,) in self._db.execute("SELECT word FROM trigram_words ORDER BY wid")]

    def _store_gram_index(self) -> None:
        """TRI-2: store the gram index of the vocabulary, unless it is current."""
        (size,) = self._db.execute("SELECT count(*) FROM trigram_words").fetchone()
        if self._stored_gram_size() == int(size):
            return
        grams = GramIndex.build(self._vocabulary())
        blobs = {
            "grams": "\n".join(grams.grams).encode("utf-8"),
            "gram_offsets": grams.offsets.astype("<i8").tobytes(),
            "gram_wids": grams.wids.astype("<i4").tobytes(),
            "gram_vocabulary": str(int(size)).encode("ascii"),
        }
        self._db.executemany(
            "INSERT OR REPLACE INTO trigram_blobs(name, data) VALUES (?, ?)", list(blobs.items())
        )

    def _stored_gram_size(self) -> int | None:
        row = self._db.execute(
            "SELECT data FROM trigram_blobs WHERE name = 'gram_vocabulary'"
        ).fetchone()
        return None if row is None else int(bytes(row[0]).decode("ascii"))

    def _load_gram_index(self, size: int) -> GramIndex | None:
        """The stored gram index when it covers exactly `size` words, else None."""
        if self._stored_gram_size() != size:
            return None
        data = dict(self._db.execute("SELECT name, data FROM trigram_blobs"))
        text = bytes(data["grams"]).decode("utf-8")
        offsets = np.frombuffer(bytes(data["gram_offsets"]), dtype="<i8").astype(np.int64)
        wids = np.frombuffer(bytes(data["gram_wids"]), dtype="<i4").astype(np.int32)
        grams = text.split("\n") if text else []
        if len(offsets) != len(grams) + 1 or int(offsets[-1]) != len(wids):
            raise IndexError_("the stored trigram gram index is inconsistent")
        return GramIndex(grams, offsets, wids)

    def trigram_index(self) -> TrigramIndex | None:
        """TRI-1..7: the trigram rung's index over chunks(), from the stored words; None when
        some chunk has none stored (the caller then builds it from the texts). Cached until
        the next write."""
        chunks = self.chunks()
        with self._lock:
            if self._trigram is not None:
                return self._trigram
            try:
                vocabulary = self._vocabulary()
                gram_index = self._load_gram_index(len(vocabulary))
                layout = self._load_layout(len(vocabulary))
                if layout is None:
                    stored = dict(self._db.execute("SELECT rowid, wids FROM chunk_words"))
            except sqlite3.Error as exc:
                raise IndexError_(str(exc)) from exc
            postings = None
            if layout is not None:
                flat, offsets, positions, starts = layout
                postings = (positions, starts)
            else:
                if any(rowid not in stored for rowid in self._rowids):
                    return None  # some chunk has no stored words
                flat, offsets = _flatten_word_blobs([bytes(stored[r]) for r in self._rowids])
            if flat.size and (int(flat.min()) < 0 or int(flat.max()) >= len(vocabulary)):
                raise IndexError_("stored chunk words name an unknown word id")
            self._trigram = TrigramIndex.from_word_ids(
                chunks, vocabulary, flat, offsets, gram_index, postings
            )
            return self._trigram

    def store_missing_vectors(self) -> int:
        """BACKEND-25: embed and store the chunks that have no stored vector (an index written
        before vectors were persisted, or by another embedder); returns how many."""
        if self._embedder is None:
            return 0
        try:
            with self.transaction():
                found = self._db.execute(
                    "SELECT value FROM meta WHERE key = ?", (VECTORS_KEY,)
                ).fetchone()
                if found is None or found[0] != self._vectors_tag():
                    self._db.execute("DELETE FROM chunk_vectors")
                missing = self._db.execute(
                    "SELECT rowid, content FROM chunks WHERE rowid NOT IN "
                    "(SELECT rowid FROM chunk_vectors)"
                ).fetchall()
                if missing or found is None:
                    self._write_vectors([(int(r), str(t)) for r, t in missing])
                self._db.execute(
                    "DELETE FROM chunk_vectors WHERE rowid NOT IN (SELECT rowid FROM chunks)"
                )
        except sqlite3.Error as exc:
            raise IndexError_(f"cannot store vectors: {exc}") from exc
        return len(missing)

    def remove_document(self, path: str) -> bool:
        """Delete the document and its chunks; return whether it was indexed."""
        try:
            with self.transaction():
                return self._delete_rows(path)
        except sqlite3.Error as exc:
            raise IndexError_(f"cannot remove document {path!r}: {exc}") from exc

    def _delete_rows(self, path: str) -> bool:
        self._forget()
        # Every write goes through here: the word layout no longer describes the chunks.
        self._db.execute(f"DELETE FROM trigram_blobs WHERE name GLOB '{_LAYOUT}*'")
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
            for table in ("chunk_vectors", "chunk_words"):
                self._db.execute(
                    f"DELETE FROM {table} WHERE rowid BETWEEN ? AND ?", (first, first + n - 1)
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
        """BACKEND-4..7: hits with their bm25() value, best (lowest) first.

        Equal to SEARCH_SQL's answer (BACKEND-5): rowids are ranked by score alone, rows tied
        with the last one kept are all fetched (`score <= cut`) and ordered by path and id,
        and only the winners' columns are read.
        """
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
            raise InvalidInput(f"limit must be an integer >= 1, got {limit!r}")
        try:
            with self._lock, self.transaction():  # one snapshot for every statement
                # A few rows past the cut usually hold every row tied with it (FTS5 scores
                # every match either way; each extra row costs only its place in the sort).
                probe = limit + 16
                ranked: list[tuple[int, float]] = self._db.execute(
                    _RANK_SQL, (expression, probe)
                ).fetchall()
                if len(ranked) > limit and ranked[limit][1] == ranked[limit - 1][1]:
                    # A tie straddles the cut: every row scoring <= the cut competes on
                    # path and id (BACKEND-5's ORDER BY score, path, id). They are a prefix
                    # of the probe unless the tie runs to its end.
                    cut = ranked[limit - 1][1]
                    if len(ranked) == probe and ranked[-1][1] == cut:
                        ranked = self._db.execute(_AT_MOST_SQL, (expression, cut)).fetchall()
                    else:
                        ranked = [row for row in ranked if row[1] <= cut]
                    names = self._columns("id, path", [r for r, _ in ranked])
                    ranked = [
                        (rowid, score)
                        for score, _, _, rowid in sorted(
                            (float(score), names[rowid][1], names[rowid][0], rowid)
                            for rowid, score in ranked
                        )[:limit]
                    ]
                ranked = ranked[:limit]
                rows = self._columns("id, path, title, summary, content", [r for r, _ in ranked])
        except UnicodeEncodeError:
            # A lone surrogate has no UTF-8 form: bad input, not an index fault (OP-2).
            raise InvalidInput("the expression is not valid Unicode (lone surrogate)") from None
        except sqlite3.Error as exc:
            # BACKEND-7: never a silent zero; SQLite's own message is kept.
            raise IndexError_(str(exc)) from exc
        order = sorted((float(score), rows[r][1], rows[r][0], r) for r, score in ranked)
        return [ScoredHit(_candidate(rows[r]), score) for score, _, _, r in order]

    def _columns(self, columns: str, rowids: Sequence[int]) -> dict[int, tuple[str, ...]]:
        """The given columns of each rowid (in batches of 500 parameters).

        Read from FTS5's own content table (`chunks_content`: the rowid as `id`, column i as
        `c<i>`, FTS5's documented storage), a B-tree lookup per rowid; `rowid IN (...)` on the
        virtual table costs a scan. Falls back to the virtual table if that table is absent.
        """
        shadow = ", ".join(f"c{_COLUMN_INDEX[name.strip()]}" for name in columns.split(","))
        out: dict[int, tuple[str, ...]] = {}
        for start in range(0, len(rowids), 500):
            part = rowids[start : start + 500]
            marks = ",".join("?" * len(part))
            try:
                rows = self._db.execute(
                    f"SELECT id, {shadow} FROM chunks_content WHERE id IN ({marks})", part
                ).fetchall()
            except sqlite3.OperationalError:
                rows = self._db.execute(
                    f"SELECT rowid, {columns} FROM chunks WHERE rowid IN ({marks})", part
                ).fetchall()
            for rowid, *cols in rows:
                out[int(rowid)] = tuple(cols)
        return out

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
            self._rowids = [int(r[5]) for r in rows]
            return self._chunks_cache

    def chunks_with_vectors(
        self, embedder: CountingEmbedder
    ) -> tuple[list[Candidate], npt.NDArray[np.int32] | None]:
        """BACKEND-8, BACKEND-25: chunks() and, when every chunk has a vector stored by this
        embedder, their vectors as an int32 matrix in the same order; else None."""
        with self._lock:
            try:
                found = self._db.execute(
                    "SELECT value FROM meta WHERE key = ?", (VECTORS_KEY,)
                ).fetchone()
                rows = self._db.execute(CHUNKS_WITH_VECTORS_SQL).fetchall()
            except sqlite3.Error as exc:
                raise IndexError_(str(exc)) from exc
            if self._chunks_cache is None:
                self._chunks_cache = [Candidate(*r[:5]) for r in rows]
                self._rowids = [int(r[5]) for r in rows]
            chunks = self._chunks_cache
        dim = embedder.dimension
        if found is None or found[0] != f"{embedder.name}/{dim}":
            return chunks, None
        blobs = [r[6] for r in rows]
        if any(b is None for b in blobs):
            return chunks, None
        return chunks, unpack_vectors(blobs, dim)

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


def _candidate(cols: Sequence[str]) -> Candidate:
    return Candidate(id=cols[0], path=cols[1], title=cols[2], summary=cols[3], content=cols[4])
