"""Fast paths that must equal the slow definitions (spec/backends.md BACKEND-5, BACKEND-25).

BM25 ranks rowids and reads columns only for the winners: the result equals the pinned query
(SEARCH_SQL) for every limit, also when many rows tie at the cut. `hrc index` stores vectors:
a store built from them equals one built by embedding every chunk.
"""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest
from fts5_oracle import sqlite_rejection

from conformance.cli import main
from reference.backends.embedder import HashEmbedder
from reference.backends.sqlite_fts import SqliteIndex
from reference.backends.sqlite_schema import SEARCH_SQL
from reference.backends.vector import MemoryVectorStore, vectors_of_index
from reference.backends.vector_blobs import pack_vector, unpack_vectors
from reference.text import normalise
from reference.types import Candidate


def _tied_index() -> SqliteIndex:
    """Many rows with identical text (exact bm25 ties) mixed with rows that differ."""
    rng = random.Random(7)
    index = SqliteIndex(":memory:")
    words = ["tea", "green", "black", "oolong", "kettle"]
    with index.transaction():
        for i in range(120):
            path = f"d/{rng.randrange(30):02d}-{i}.md"
            body = "tea green" if i % 3 == 0 else " ".join(rng.choices(words, k=rng.randint(1, 6)))
            index.upsert_document(path, [Candidate(f"{path}#0", path, "", "", body)])
    return index


@pytest.mark.parametrize("expression", ['"tea"', '"green"', '"tea" OR "kettle"', '"oolong"'])
def test_rowid_ranking_equals_the_pinned_query(expression: str) -> None:
    """BACKEND-5: every limit, ties straddling the cut included, gives the pinned query's rows."""
    index = _tied_index()
    db = index._db  # the pinned query run on the same connection
    for limit in [1, 2, 3, 5, 7, 10, 17, 40, 41, 60, 200]:
        want = [(r[0], r[5]) for r in db.execute(SEARCH_SQL, (expression, limit)).fetchall()]
        got = [(h.candidate.id, h.score) for h in index.search_bm25_scored(expression, limit)]
        assert got == want, limit
    index.close()


def test_rowid_ranking_reads_full_rows_of_the_winners_only() -> None:
    """BACKEND-6: a hit is the stored candidate, every text column included."""
    index = _tied_index()
    hits = index.search_bm25('"tea"', 3)
    stored = {c.id: c for c in index.chunks()}
    assert hits == [stored[h.id] for h in hits]
    index.close()


def test_malformed_expression_is_still_an_index_error() -> None:
    """BACKEND-7: the two-step search keeps SQLite's message."""
    from reference.types import IndexError_

    index = _tied_index()
    said = sqlite_rejection('"tea" AND')
    assert said
    with pytest.raises(IndexError_) as info:
        index.search_bm25('"tea" AND', 5)
    assert said in str(info.value)
    index.close()


def test_stored_vectors_round_trip_narrow_and_wide() -> None:
    """BACKEND-25: counts above 65535 are stored wide and read back exactly."""
    narrow, wide = [0, 1, 65535] + [0] * 253, [70000, 2] + [0] * 254
    matrix = unpack_vectors([pack_vector(narrow), pack_vector(wide)], 256)
    assert matrix.tolist() == [narrow, wide]


def _write(folder: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")


def test_index_stores_vectors_that_equal_embedding_now(tmp_path: Path) -> None:
    """BACKEND-25: `hrc index` stores each chunk's vector; the store built from them answers
    exactly like a store that embeds every chunk (incremental runs keep them in step)."""
    folder = tmp_path / "notes"
    _write(folder, {"a.md": "# Tea\n\ngreen tea, sencha", "b.md": "black tea and a kettle",
                    "c/d.md": "oolong kettle\n\nmore kettle notes"})
    db = tmp_path / "n.db"
    assert main(["index", str(folder), "--db", str(db)]) == 0
    _write(folder, {"b.md": "black coffee", "e.md": "teapot"})
    (folder / "a.md").unlink()
    assert main(["index", str(folder), "--db", str(db)]) == 0
    embedder = HashEmbedder()
    with SqliteIndex(db) as index:
        chunks, matrix = index.chunks_with_vectors(embedder)
        assert matrix is not None
        assert matrix.tolist() == [embedder.embed_counts(c.content) for c in chunks]
        stored = vectors_of_index(index, embedder)
        fresh = MemoryVectorStore.from_chunks(index.chunks(), embedder)
        for query in ["tea", "kettle", "black coffee", "teapot notes"]:
            vector = embedder.embed(normalise(query))
            assert stored.search_scored(vector, 10) == fresh.search_scored(vector, 10)


def test_index_written_without_vectors_is_embedded_on_open_and_filled_on_reindex(
    tmp_path: Path,
) -> None:
    """BACKEND-25: an index without stored vectors (hrc before 2.x) still searches, and the
    next `hrc index` run stores the missing vectors."""
    folder = tmp_path / "notes"
    _write(folder, {"a.md": "green tea", "b.md": "black tea"})
    db = tmp_path / "old.db"
    with SqliteIndex(db) as index:  # no embedder: the old layout
        from reference.backends.indexer import index_directory

        index_directory(folder, index)
    embedder = HashEmbedder()
    with SqliteIndex(db) as index:
        assert index.chunks_with_vectors(embedder)[1] is None
        assert len(vectors_of_index(index, embedder)) == 2
    assert main(["index", str(folder), "--db", str(db)]) == 0
    with SqliteIndex(db) as index:
        assert index.chunks_with_vectors(embedder)[1] is not None
    con = sqlite3.connect(db)
    assert con.execute("SELECT count(*) FROM chunk_vectors").fetchone() == (2,)
    con.close()


def test_stored_words_give_the_same_trigram_hits(tmp_path: Path) -> None:
    """TRI-1..7: the trigram index loaded from the words `hrc index` stored answers exactly
    like one built from the chunk texts, after updates and removals too."""
    from reference.trigram import TrigramIndex

    rng = random.Random(11)
    vocab = ["kubernetes", "kubectl", "cluster", "clusters", "postgres", "postgresql", "Ünïcode",
             "naïve", "ΣΊΣΥΦΟΣ", "tea", "teapot", "a", "kettle", "kettles", "nodes"]
    folder = tmp_path / "notes"
    files = {f"n{i:02d}.md": " ".join(rng.choices(vocab, k=rng.randint(1, 12))) for i in range(40)}
    _write(folder, files)
    db = tmp_path / "t.db"
    assert main(["index", str(folder), "--db", str(db)]) == 0
    _write(folder, {"n03.md": "kubernets clustr", "new.md": "postgress teapots"})
    (folder / "n05.md").unlink()
    assert main(["index", str(folder), "--db", str(db)]) == 0
    with SqliteIndex(db) as index:
        stored = index.trigram_index()
        assert stored is not None
        assert index._load_gram_index(len(index._vocabulary())) is not None  # refreshed too
        assert index._load_layout(len(index._vocabulary())) is not None  # and the layout
        fresh = TrigramIndex(index.chunks())
        for tokens in (["kubernets"], ["clustr", "teapo"], ["postgress"], ["naive"],
                       ["σίσυφος"], ["a"], ["zzz"], ["kettl", "node"]):
            for limit in (1, 3, 50):
                assert stored.search(tokens, limit) == fresh.search(tokens, limit)


def test_index_without_stored_words_builds_the_trigram_index(tmp_path: Path) -> None:
    """TRI-1: an index written without words answers None, and the pipeline builds it."""
    with SqliteIndex(tmp_path / "x.db") as index:
        index.upsert_document("a.md", [Candidate("a.md#0", "a.md", "", "", "kubernetes")])
        assert index.trigram_index() is None


def _doc(path: str, content: str) -> list[Candidate]:
    return [Candidate(f"{path}#0", path, "", "", content)]


def test_a_write_after_indexing_drops_the_word_layout_even_where_rowids_are_reused(
    tmp_path: Path,
) -> None:
    """TRI-1: rewriting the last document gives its chunks the same rowids again; the stored
    layout must not answer for the old words."""
    with SqliteIndex(tmp_path / "x.db", store_words=True) as index:
        index.upsert_document("a.md", _doc("a.md", "kubernetes cluster"))
        index.upsert_document("b.md", _doc("b.md", "postgres teapot"))
        index.store_missing_words()
        index.chunks()  # the layout is checked against the listed chunks' rowids
        assert index._load_layout(len(index._vocabulary())) is not None
        rowids = list(index._rowids)
        index.upsert_document("b.md", _doc("b.md", "cluster"))  # known words only
        index.chunks()
        assert index._rowids == rowids  # the same rowids and vocabulary, other words
        assert index._load_layout(len(index._vocabulary())) is None
        tri = index.trigram_index()
        assert tri is not None
        assert [h.candidate.path for h in tri.search(["clustr"], 5)] == ["a.md", "b.md"]
        assert tri.search(["teapo"], 5) == []


def test_a_search_that_never_reaches_the_trigram_rung_loads_no_chunk_list(
    tmp_path: Path,
) -> None:
    """Loading every chunk costs about 0.6 s at 100k; only the trigram rung needs them."""
    from reference.pipeline import Backends, search

    with SqliteIndex(tmp_path / "x.db", store_words=True) as index:
        index.upsert_document("a.md", _doc("a.md", "kubernetes cluster"))
        index.store_missing_words()
        index._forget()
        results, _ = search({"query": "kubernetes", "mode": "bm25"}, Backends(index=index))
        assert [r["id"] for r in results] == ["a.md#0"] and index._chunks_cache is None
        _, trace = search({"query": "kubernets", "mode": "bm25"}, Backends(index=index))
        assert trace["bm25"]["winningRung"] == "trigram_fuzzy"
