"""Okapi statistics in SQLite next to an FTS5 index, for benchmarks/bm25_okapi.py (no clause:
since profile 2.0.0 no operation reads an index; `hrc index` no longer writes these tables).

`sync(index)` brings three tables up to date with the FTS5 `chunks` table, in one
transaction: a document whose (hash, first rowid, chunk count) in the
indexer's `documents` table changed is re-tokenised (OKAPI-2), a vanished one is dropped.
`OkapiIndex` answers the statistics and scores with the same operations as the
`bm25-okapi.score` operation, so both give the same bits over the same chunks.
"""

from __future__ import annotations

import sqlite3
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from reference.backends.sqlite_fts import SqliteIndex
from reference.profiles.bm25_okapi.collection import Statistics
from reference.profiles.bm25_okapi.scoring import (
    Params,
    Scored,
    average_length,
    document_score,
    query_terms,
    rank,
    term_stats,
    term_weight,
)
from reference.text import words
from reference.types import IndexError_

SCHEMA = (
    "CREATE TABLE IF NOT EXISTS okapi_documents ("
    "path TEXT PRIMARY KEY NOT NULL, hash TEXT NOT NULL, "
    "first_rowid INTEGER NOT NULL, chunk_count INTEGER NOT NULL)",
    "CREATE TABLE IF NOT EXISTS okapi_chunks ("
    "chunk_rowid INTEGER PRIMARY KEY, id TEXT NOT NULL, path TEXT NOT NULL, "
    "dl INTEGER NOT NULL)",
    "CREATE INDEX IF NOT EXISTS okapi_chunks_id ON okapi_chunks(id)",
    "CREATE TABLE IF NOT EXISTS okapi_postings ("
    "term TEXT NOT NULL, chunk_rowid INTEGER NOT NULL, tf INTEGER NOT NULL, "
    "PRIMARY KEY (term, chunk_rowid)) WITHOUT ROWID",
    # Dropping a document's postings by chunk: without it each drop scanned every posting, so
    # removing documents was quadratic (issue 29). An older index gets it at its next sync.
    "CREATE INDEX IF NOT EXISTS okapi_postings_chunk ON okapi_postings(chunk_rowid)",
)


def _db(index: SqliteIndex) -> sqlite3.Connection:
    """The index's connection (the okapi tables live in the same database file)."""
    return index._db


def sync(index: SqliteIndex) -> None:
    """Make the okapi tables describe exactly the chunks of the FTS5 table."""
    with index.transaction():
        db = _db(index)
        for statement in SCHEMA:
            db.execute(statement)
        current = {
            str(p): (str(h), int(f), int(n))
            for p, h, f, n in db.execute(
                "SELECT path, hash, first_rowid, chunk_count FROM documents"
            )
        }
        mirrored = {
            str(p): (str(h), int(f), int(n))
            for p, h, f, n in db.execute(
                "SELECT path, hash, first_rowid, chunk_count FROM okapi_documents"
            )
        }
        for path, (_, first, count) in mirrored.items():
            if current.get(path) != mirrored[path]:
                _drop(db, first, count)
                db.execute("DELETE FROM okapi_documents WHERE path = ?", (path,))
        for path, (digest, first, count) in current.items():
            if mirrored.get(path) == (digest, first, count):
                continue
            rows = db.execute(
                "SELECT rowid, id, path, content FROM chunks WHERE rowid BETWEEN ? AND ?",
                (first, first + count - 1),
            ).fetchall()
            _add(db, rows)
            db.execute(
                "INSERT INTO okapi_documents(path, hash, first_rowid, chunk_count) "
                "VALUES (?, ?, ?, ?)",
                (path, digest, first, count),
            )


def _drop(db: sqlite3.Connection, first: int, count: int) -> None:
    last = first + count - 1
    db.execute("DELETE FROM okapi_postings WHERE chunk_rowid BETWEEN ? AND ?", (first, last))
    db.execute("DELETE FROM okapi_chunks WHERE chunk_rowid BETWEEN ? AND ?", (first, last))


def _add(db: sqlite3.Connection, rows: Iterable[Sequence[object]]) -> None:
    chunks: list[tuple[object, ...]] = []
    postings: list[tuple[object, ...]] = []
    for rowid, cid, path, content in rows:
        bag = Counter(words(str(content)))
        chunks.append((rowid, cid, path, sum(bag.values())))
        postings.extend((term, rowid, tf) for term, tf in bag.items())
    db.executemany(
        "INSERT INTO okapi_chunks(chunk_rowid, id, path, dl) VALUES (?, ?, ?, ?)", chunks
    )
    db.executemany(
        "INSERT INTO okapi_postings(term, chunk_rowid, tf) VALUES (?, ?, ?)", postings
    )


class OkapiIndex:
    """Okapi BM25 over the okapi tables of an SQLite index (OKAPI-1..9)."""

    def __init__(self, index: SqliteIndex) -> None:
        self._index = index

    def _query(self, sql: str, args: Sequence[object] = ()) -> list[Any]:
        with self._index.transaction():
            try:
                return list(_db(self._index).execute(sql, args).fetchall())
            except sqlite3.Error as exc:
                raise IndexError_(f"okapi tables: {exc}") from exc

    def document_count(self) -> int:
        """N: the number of chunks."""
        ((count,),) = self._query("SELECT count(*) FROM okapi_chunks")
        return int(count)

    def statistics(self, query: str) -> Statistics:
        """N, avgdl and every query term with n(t) and its IDF."""
        ((count, total),) = self._query("SELECT count(*), coalesce(sum(dl), 0) FROM okapi_chunks")
        terms = query_terms(query)
        df: dict[str, int] = {}
        for term in terms:
            ((n,),) = self._query("SELECT count(*) FROM okapi_postings WHERE term = ?", (term,))
            df[term] = int(n)
        n_docs = int(count)
        return Statistics(n_docs, average_length(int(total), n_docs),
                          term_stats(terms, df, n_docs))

    def search(self, query: str, params: Params) -> list[Scored]:
        """Every chunk holding a query term, ranked (OKAPI-8, OKAPI-9)."""
        stats = self.statistics(query)
        weights: dict[int, list[float]] = {}
        where: dict[int, tuple[str, str]] = {}
        avgdl = stats.average_length
        for term in stats.terms:  # code point order: the summation order of OKAPI-8
            if term.idf is None or avgdl is None:
                continue
            rows = self._query(
                "SELECT p.chunk_rowid, p.tf, c.dl, c.id, c.path FROM okapi_postings p "
                "JOIN okapi_chunks c ON c.chunk_rowid = p.chunk_rowid WHERE p.term = ?",
                (term.term,),
            )
            for rowid, tf, dl, cid, path in rows:
                key = int(rowid)
                where[key] = (str(cid), str(path))
                weights.setdefault(key, []).append(
                    term_weight(term.idf, int(tf), int(dl), avgdl, params)
                )
        return rank(
            Scored(where[k][0], where[k][1], document_score(ws)) for k, ws in weights.items()
        )

    def score_ids(self, query: str, ids: Sequence[str], params: Params) -> dict[str, float]:
        """The score of each chunk id in `ids` (0.0 for an unknown id or no term)."""
        stats = self.statistics(query)
        avgdl = stats.average_length
        wanted: dict[int, tuple[str, int]] = {}
        unique = list(dict.fromkeys(ids))
        for start in range(0, len(unique), 500):
            part = unique[start : start + 500]
            marks = ", ".join("?" * len(part))
            for rowid, cid, dl in self._query(
                f"SELECT chunk_rowid, id, dl FROM okapi_chunks WHERE id IN ({marks})", part
            ):
                wanted[int(rowid)] = (str(cid), int(dl))
        weights: dict[str, list[float]] = {}
        for term in stats.terms:  # code point order: the summation order of OKAPI-8
            if term.idf is None or avgdl is None:
                continue
            for rowid, tf in self._query(
                "SELECT chunk_rowid, tf FROM okapi_postings WHERE term = ?", (term.term,)
            ):
                hit = wanted.get(int(rowid))
                if hit is not None:
                    weights.setdefault(hit[0], []).append(
                        term_weight(term.idf, int(tf), hit[1], avgdl, params)
                    )
        return {cid: document_score(weights[cid]) if cid in weights else 0.0 for cid in ids}
