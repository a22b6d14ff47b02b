"""SQLite FTS5 index: schema, tokenizer, ranking, ties, errors, atomic writes (BACKEND-1..11)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from fts5_oracle import sqlite_rejection

from reference.backends import sqlite_schema
from reference.backends.sqlite_fts import SqliteIndex
from reference.types import Candidate, IndexError_, InvalidInput


def chunk(path: str, content: str, title: str = "", summary: str = "", n: int = 0) -> Candidate:
    return Candidate(id=f"{path}#{n}", path=path, title=title, summary=summary, content=content)


@pytest.fixture
def index() -> SqliteIndex:
    return SqliteIndex(":memory:")


def ids(hits: list[Candidate]) -> list[str]:
    return [h.id for h in hits]


def test_chunks_table_has_the_pinned_columns_and_tokenizer(tmp_path: Path) -> None:
    """BACKEND-1: the table is fts5(id UNINDEXED, path, title, summary, content, tokenize=...)."""
    db = tmp_path / "i.db"
    SqliteIndex(db).close()
    con = sqlite3.connect(db)
    (sql,) = con.execute("SELECT sql FROM sqlite_master WHERE name = 'chunks'").fetchone()
    con.close()
    assert "fts5(id UNINDEXED, path, title, summary, content" in sql
    assert "tokenize = 'unicode61 remove_diacritics 2'" in sql


def test_tokenizer_folds_diacritics(index: SqliteIndex) -> None:
    """BACKEND-2: `cafe` matches `café` and `zurich` matches `Zürich`."""
    index.upsert_document("a.md", [chunk("a.md", "A café in Zürich")])
    assert ids(index.search_bm25('"cafe" AND "zurich"', 10)) == ["a.md#0"]


def test_tokenizer_does_not_stem(index: SqliteIndex) -> None:
    """BACKEND-2: no stemmer, so `kubernets` does not match `kubernetes` (porter would)."""
    index.upsert_document("a.md", [chunk("a.md", "kubernetes preferred")])
    assert index.search_bm25('"kubernets"', 10) == []
    assert index.search_bm25('"prefer"', 10) == []


def test_path_is_tokenized_on_punctuation(index: SqliteIndex) -> None:
    """BACKEND-2: `user-preference-tea.md` holds the token `tea`."""
    path = "memory/user-preference-tea.md"
    index.upsert_document(path, [chunk(path, "x")])
    assert len(index.search_bm25('"tea"', 10)) == 1


def test_database_encoding_is_utf8(tmp_path: Path) -> None:
    """BACKEND-3: the index database uses the UTF-8 text encoding."""
    db = tmp_path / "i.db"
    SqliteIndex(db).close()
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA encoding").fetchone() == ("UTF-8",)
    con.close()


def test_utf16_database_is_refused(tmp_path: Path) -> None:
    """BACKEND-3: a UTF-16 database would not compare in code point order, so it is refused."""
    db = tmp_path / "u16.db"
    con = sqlite3.connect(db)
    con.execute("PRAGMA encoding = 'UTF-16le'")
    con.execute("CREATE TABLE t(x)")
    con.commit()
    con.close()
    with pytest.raises(IndexError_, match="UTF-8"):
        SqliteIndex(db)


def test_binary_collation_is_code_point_order(index: SqliteIndex) -> None:
    """BACKEND-3: equal scores tie-break by path in code point order, not UTF-16 order."""
    # U+FF5E sorts before U+1F600 by code point; UTF-16 order says the opposite. Every path
    # has two tokens, so the rows have equal lengths and equal scores.
    paths = ["\U0001f600x.md", "\uff5ex.md", "Z.md", "a.md"]
    for path in paths:
        index.upsert_document(path, [chunk(path, "same words here")])
    hits = index.search_bm25_scored('"same"', 10)
    assert len({h.score for h in hits}) == 1
    assert [h.candidate.path for h in hits] == ["Z.md", "a.md", "\uff5ex.md", "\U0001f600x.md"]


def test_title_weighs_more_than_content(index: SqliteIndex) -> None:
    """BACKEND-4: weight 10 on title beats weight 1 on content for the same term."""
    index.upsert_document("a.md", [chunk("a.md", "postgres notes", title="misc")])
    index.upsert_document("b.md", [chunk("b.md", "notes", title="postgres")])
    index.upsert_document("c.md", [chunk("c.md", "other", title="other")])
    assert ids(index.search_bm25('"postgres"', 10)) == ["b.md#0", "a.md#0"]


def test_id_column_is_not_searchable(index: SqliteIndex) -> None:
    """BACKEND-4: the id column is UNINDEXED (weight 0) and never matches."""
    index.upsert_document("a.md", [Candidate("zebra", "a.md", content="x")])
    assert index.search_bm25('"zebra"', 10) == []


def test_search_uses_the_pinned_sql() -> None:
    """BACKEND-5: ORDER BY score, path, id with the pinned bm25 weights and LIMIT."""
    assert "bm25(chunks, 0.0, 3.0, 10.0, 5.0, 1.0) AS score" in sqlite_schema.SEARCH_SQL
    assert sqlite_schema.SEARCH_SQL.endswith("ORDER BY score, path, id LIMIT ?")


def test_ties_go_by_path_then_id(index: SqliteIndex) -> None:
    """BACKEND-5: equal bm25 scores order by path, then id."""
    index.upsert_document("b.md", [chunk("b.md", "tea")])
    twins = [Candidate("a.md#1", "a.md", content="tea"), Candidate("a.md#0", "a.md", content="tea")]
    index.upsert_document("a.md", twins)
    assert ids(index.search_bm25('"tea"', 10)) == ["a.md#0", "a.md#1", "b.md#0"]


def test_limit_keeps_the_best_hits(index: SqliteIndex) -> None:
    """BACKEND-5: LIMIT is the requested limit, applied after ordering."""
    for p in ["c.md", "b.md", "a.md"]:
        index.upsert_document(p, [chunk(p, "tea")])
    assert ids(index.search_bm25('"tea"', 2)) == ["a.md#0", "b.md#0"]


def test_limit_below_one_is_invalid(index: SqliteIndex) -> None:
    """BACKEND-5: limit is an integer >= 1."""
    with pytest.raises(InvalidInput):
        index.search_bm25('"tea"', 0)


def test_hit_carries_the_stored_fields_and_empty_metadata(index: SqliteIndex) -> None:
    """BACKEND-6: a hit is {id, path, title, summary, content} as stored, metadata {}."""
    stored = chunk("a.md", "green tea", title="Tea", summary="about tea")
    index.upsert_document("a.md", [stored])
    (hit,) = index.search_bm25('"tea"', 5)
    assert hit == stored and dict(hit.metadata) == {}


def test_malformed_expression_raises_index_error_with_sqlite_message(index: SqliteIndex) -> None:
    """BACKEND-7: a malformed expression is an index error carrying SQLite's message."""
    index.upsert_document("a.md", [chunk("a.md", "tea")])
    said = sqlite_rejection('"tea" AND')
    assert said  # SQLite refuses it; its words are whatever this SQLite release says
    with pytest.raises(IndexError_) as info:
        index.search_bm25('"tea" AND', 5)
    assert said in str(info.value)


def test_empty_expression_raises_index_error(index: SqliteIndex) -> None:
    """BACKEND-7: the empty expression is an error, not zero hits."""
    with pytest.raises(IndexError_):
        index.search_bm25("", 5)


def test_closed_index_raises_index_error(index: SqliteIndex) -> None:
    """BACKEND-7: any SQLite failure while searching surfaces as index_error."""
    index.close()
    with pytest.raises(IndexError_):
        index.search_bm25('"tea"', 5)


def test_chunks_lists_every_row_by_path_then_id(index: SqliteIndex) -> None:
    """BACKEND-8: chunks() returns all rows ordered by path, then id."""
    index.upsert_document("b.md", [chunk("b.md", "x")])
    index.upsert_document("a.md", [chunk("a.md", "y", n=1), chunk("a.md", "z", n=0)])
    assert ids(index.chunks()) == ["a.md#0", "a.md#1", "b.md#0"]


def test_failed_upsert_keeps_the_previous_document(index: SqliteIndex) -> None:
    """BACKEND-9: a write that fails midway leaves the old chunks and hash in place."""
    index.upsert_document("a.md", [chunk("a.md", "old tea")], "h1")
    bad = Candidate("a.md#0", "a.md", content=object())  # type: ignore[arg-type]
    with pytest.raises(IndexError_):
        index.upsert_document("a.md", [chunk("a.md", "new", n=1), bad], "h2")
    assert [c.content for c in index.chunks()] == ["old tea"]
    assert index.document_hashes() == {"a.md": "h1"}


def test_transaction_rolls_back_every_write(index: SqliteIndex) -> None:
    """BACKEND-9: writes grouped in a transaction commit together or not at all."""
    index.upsert_document("keep.md", [chunk("keep.md", "tea")], "k")
    with pytest.raises(RuntimeError), index.transaction():
        index.upsert_document("a.md", [chunk("a.md", "x")], "a")
        index.remove_document("keep.md")
        raise RuntimeError("boom")
    assert index.document_hashes() == {"keep.md": "k"}
    assert ids(index.chunks()) == ["keep.md#0"]


def test_side_table_records_document_hashes(index: SqliteIndex) -> None:
    """BACKEND-10: the documents side table maps each path to its content hash."""
    index.upsert_document("a.md", [chunk("a.md", "x")], "abc")
    index.upsert_document("b.md", [], "def")
    assert index.document_hashes() == {"a.md": "abc", "b.md": "def"}


def test_remove_document_deletes_only_its_chunks(index: SqliteIndex) -> None:
    """BACKEND-10: removing a document deletes its rowid range and its side-table row."""
    index.upsert_document("a.md", [chunk("a.md", "x", n=0), chunk("a.md", "y", n=1)], "a")
    index.upsert_document("b.md", [chunk("b.md", "z")], "b")
    assert index.remove_document("a.md") is True
    assert ids(index.chunks()) == ["b.md#0"]
    assert index.remove_document("a.md") is False


def test_incremental_updates_answer_like_a_fresh_build() -> None:
    """BACKEND-11: after replace/remove, bm25 scores equal those of a fresh index."""
    inc = SqliteIndex(":memory:")
    inc.upsert_document("a.md", [chunk("a.md", "tea tea coffee")])
    inc.upsert_document("b.md", [chunk("b.md", "tea")])
    inc.upsert_document("c.md", [chunk("c.md", "water")])
    inc.upsert_document("a.md", [chunk("a.md", "green tea")])
    inc.remove_document("c.md")
    fresh = SqliteIndex(":memory:")
    fresh.upsert_document("a.md", [chunk("a.md", "green tea")])
    fresh.upsert_document("b.md", [chunk("b.md", "tea")])
    got = [(h.candidate.id, h.score) for h in inc.search_bm25_scored('"tea" OR "green"', 10)]
    want = [(h.candidate.id, h.score) for h in fresh.search_bm25_scored('"tea" OR "green"', 10)]
    assert got == want


def test_chunks_reflect_a_rolled_back_transaction(index: SqliteIndex) -> None:
    """BACKEND-8: chunks() read inside a rolled-back transaction is not served afterwards."""
    index.upsert_document("keep.md", [chunk("keep.md", "tea")])
    with pytest.raises(RuntimeError), index.transaction():
        index.upsert_document("tmp.md", [chunk("tmp.md", "x")])
        assert ids(index.chunks()) == ["keep.md#0", "tmp.md#0"]
        raise RuntimeError("undo")
    assert ids(index.chunks()) == ["keep.md#0"]
