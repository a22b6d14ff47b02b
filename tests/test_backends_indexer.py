"""Directory indexer: files, blocks, title, summary, chunks, incremental runs (BACKEND-12..19)."""

from __future__ import annotations

from pathlib import Path

import pytest

from reference.backends.embedder import HashEmbedder
from reference.backends.indexer import (
    CHUNK_MAX,
    IndexingError,
    chunk_texts,
    content_hash,
    index_directory,
    list_files,
    parse_document,
    split_blocks,
)
from reference.backends.sqlite_fts import SqliteIndex
from reference.backends.vector import MemoryVectorStore
from reference.types import IndexError_


def write(root: Path, rel: str, text: str | bytes) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")


def test_only_md_and_txt_files_are_read_recursively(tmp_path: Path) -> None:
    """BACKEND-12: *.md and *.txt, recursively; other suffixes and dot-names skipped."""
    for rel in ["a.md", "sub/b.txt", "c.MD", "d.rst", ".hidden.md", ".git/e.md", "sub/deep/f.md"]:
        write(tmp_path, rel, "x")
    assert [rel for rel, _ in list_files(tmp_path)] == ["a.md", "sub/b.txt", "sub/deep/f.md"]


def test_paths_are_relative_with_slashes_in_code_point_order(tmp_path: Path) -> None:
    """BACKEND-12: relative `/` paths, processed in code point order (not locale order)."""
    for rel in ["b.md", "B.md", "é.md", "a/z.md"]:
        write(tmp_path, rel, "x")
    assert [rel for rel, _ in list_files(tmp_path)] == ["B.md", "a/z.md", "b.md", "é.md"]


def test_bad_utf8_error_names_the_file(tmp_path: Path) -> None:
    """BACKEND-13: a file that is not valid UTF-8 fails with an error naming it."""
    write(tmp_path, "ok.md", "fine")
    write(tmp_path, "notes/bad.md", b"caf\xe9")
    with pytest.raises(IndexingError, match="notes/bad\\.md"):
        index_directory(tmp_path, SqliteIndex(":memory:"))


def test_unreadable_file_error_names_the_file(tmp_path: Path) -> None:
    """BACKEND-13: a file that cannot be read (here a dangling link) fails naming it."""
    write(tmp_path, "ok.md", "x")
    (tmp_path / "gone.md").symlink_to(tmp_path / "missing-target.md")
    with pytest.raises(IndexingError, match=r"gone\.md: cannot read"):
        index_directory(tmp_path, SqliteIndex(":memory:"))


def test_unreadable_file_commits_nothing(tmp_path: Path) -> None:
    """BACKEND-13: when one file fails, no file of the run is written."""
    index = SqliteIndex(":memory:")
    write(tmp_path, "a.md", "first")
    index_directory(tmp_path, index)
    write(tmp_path, "a.md", "changed")
    write(tmp_path, "b.md", "new")
    write(tmp_path, "z.md", b"\xff")
    with pytest.raises(IndexError_):
        index_directory(tmp_path, index)
    assert [c.content for c in index.chunks()] == ["first"]
    assert list(index.document_hashes()) == ["a.md"]


def test_leading_bom_is_dropped() -> None:
    """BACKEND-13: one leading U+FEFF is dropped before parsing."""
    doc = parse_document("a.md", "\ufeff# Title\n\nbody".encode())
    assert doc.title == "Title"


def test_blocks_split_on_blank_lines_and_headings() -> None:
    """BACKEND-14: blank lines end blocks; each heading line is a block by itself."""
    blocks = split_blocks("# Head\nline one\nline  two\n \t\n\r\n## Sub\r\nmore")
    assert [(b.text, b.heading) for b in blocks] == [
        ("# Head", True),
        ("line one line two", False),
        ("## Sub", True),
        ("more", False),
    ]


def test_hash_without_space_is_not_a_heading() -> None:
    """BACKEND-14: `#tag` and `####### x` (seven) are not headings."""
    blocks = split_blocks("#tag\n\n####### x")
    assert [b.heading for b in blocks] == [False, False]


def test_block_of_only_zero_width_characters_is_dropped() -> None:
    """BACKEND-14: a block that normalises to the empty string is dropped."""
    assert [b.text for b in split_blocks("a\n\n\u200b\u200b\n\nb")] == ["a", "b"]


def test_title_is_first_heading_text() -> None:
    """BACKEND-15: the title is the first heading's text without its `#` run."""
    doc = parse_document("x/notes.md", b"intro\n\n##  Caf\xc3\xa9 notes #\n\n# Later")
    assert doc.title == "Café notes #"


def test_title_falls_back_to_the_file_stem() -> None:
    """BACKEND-15: without a heading, the title is the file name minus its last suffix."""
    assert parse_document("dir/notes.v2.md", b"text").title == "notes.v2"


def test_summary_is_first_paragraph_cut_to_200_code_points() -> None:
    """BACKEND-15: first non-heading block, first 200 code points, no final space."""
    para = ("é" * 199) + " tail"
    doc = parse_document("a.md", f"# T\n\n{para}\n\nsecond".encode())
    assert doc.summary == "é" * 199


def test_summary_is_empty_without_paragraphs() -> None:
    """BACKEND-15: a document of headings only has an empty summary."""
    assert parse_document("a.md", b"# Only\n## Headings").summary == ""


def test_chunks_pack_whole_blocks_up_to_the_limit() -> None:
    """BACKEND-16: blocks join with a blank line while the chunk stays <= 1000 code points."""
    a, b, c = "a" * 600, "b" * 398, "c" * 10
    blocks = split_blocks(f"{a}\n\n{b}\n\n{c}")
    assert chunk_texts(blocks) == [f"{a}\n\n{b}", c]
    assert len(f"{a}\n\n{b}") == CHUNK_MAX


def test_long_block_is_never_split() -> None:
    """BACKEND-16: a block longer than the limit is a chunk by itself."""
    long = "word " * 300
    assert chunk_texts(split_blocks(f"short\n\n{long}\n\nend")) == ["short", long.strip(), "end"]


def test_empty_document_has_no_chunks() -> None:
    """BACKEND-16: a document without blocks has no chunks."""
    assert parse_document("a.md", b"\n \n").chunks == ()


def test_worked_example_document() -> None:
    """BACKEND-17: the spec's notes/tea.md example: ids, title, summary and content."""
    data = b"# Tea\n\nI prefer green tea.\nSencha, mostly.\n\n## Brewing\n75 degrees.\n"
    (only,) = parse_document("notes/tea.md", data).chunks
    assert only.id == "notes/tea.md#0"
    assert (only.title, only.summary) == ("Tea", "I prefer green tea. Sencha, mostly.")
    assert only.content == (
        "# Tea\n\nI prefer green tea. Sencha, mostly.\n\n## Brewing\n\n75 degrees."
    )


def test_chunk_ids_count_from_zero_and_share_title_and_summary() -> None:
    """BACKEND-17: chunk i has id <path>#<i> and the document's title and summary."""
    body = "\n\n".join(["x" * 900, "y" * 900, "z" * 200])
    doc = parse_document("d/a.md", f"# T\n\n{body}".encode())
    assert [c.id for c in doc.chunks] == ["d/a.md#0", "d/a.md#1", "d/a.md#2"]
    assert {(c.title, c.summary, c.path) for c in doc.chunks} == {("T", "x" * 200, "d/a.md")}


def test_content_hash_is_sha256_hex() -> None:
    """BACKEND-18: the content hash is the lowercase hex SHA-256 of the bytes."""
    assert content_hash(b"") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"


def test_reindex_reports_added_updated_unchanged_removed(tmp_path: Path) -> None:
    """BACKEND-18: a second run skips unchanged files, replaces changed, removes missing."""
    index = SqliteIndex(":memory:")
    for rel in ["a.md", "b.md", "c.md"]:
        write(tmp_path, rel, f"{rel} text")
    first = index_directory(tmp_path, index)
    assert first.counts() == {"added": 3, "updated": 0, "unchanged": 0, "removed": 0}
    write(tmp_path, "b.md", "b changed")
    (tmp_path / "c.md").unlink()
    write(tmp_path, "d.md", "d text")
    second = index_directory(tmp_path, index)
    assert (second.added, second.updated, second.unchanged, second.removed) == (
        ["d.md"], ["b.md"], ["a.md"], ["c.md"]
    )
    assert [c.content for c in index.chunks()] == ["a.md text", "b changed", "d text"]


def test_reindex_without_changes_writes_nothing(tmp_path: Path) -> None:
    """BACKEND-18: re-indexing unchanged files is idempotent and writes no chunk."""
    index = SqliteIndex(":memory:")
    write(tmp_path, "a.md", "one\n\ntwo")
    index_directory(tmp_path, index)
    before = index.chunks()
    again = index_directory(tmp_path, index)
    assert again.chunks_written == 0 and again.unchanged == ["a.md"]
    assert index.chunks() == before


def test_vector_store_follows_the_index(tmp_path: Path) -> None:
    """BACKEND-19: after the commit, the vector store holds exactly the index's chunks."""
    index = SqliteIndex(":memory:")
    vectors = MemoryVectorStore(HashEmbedder())
    write(tmp_path, "a.md", "green tea")
    write(tmp_path, "b.md", "black tea")
    index_directory(tmp_path, index, vectors)
    (tmp_path / "b.md").unlink()
    write(tmp_path, "a.md", "oolong tea")
    index_directory(tmp_path, index, vectors)
    hits = vectors.search_vector(HashEmbedder().embed("tea"), 10)
    assert [(h.id, h.content) for h in hits] == [("a.md#0", "oolong tea")]
