"""Removing documents from an index costs about the same per document at any scale (issue 29,
item 2). The growth is measured as a ratio of two sizes (tests/growth.py), never a time."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from reference.backends.embedder import HashEmbedder
from reference.backends.indexer import index_directory
from reference.backends.sqlite_fts import SqliteIndex
from reference.backends.vector import MemoryVectorStore
from tests.growth import assert_linear

WORDS = [f"w{k}" for k in range(400)]


def _folder(root: Path, n: int) -> Path:
    """`n` documents of 40 distinct words each (so many postings per document)."""
    root.mkdir()
    for i in range(n):
        body = " ".join(WORDS[(i * 7 + k) % len(WORDS)] for k in range(40))
        (root / f"d{i:05d}.md").write_text(f"# Doc {i}\n\n{body} [[d{(i + 1) % n:05d}]]\n")
    return root


def _removal(tmp_path: Path) -> Callable[[int], Callable[[], object]]:
    """`make(n)`: index n documents; the timed run re-indexes the folder with all of them gone."""
    empty = tmp_path / "empty"
    empty.mkdir()
    folders: dict[int, Path] = {}

    def make(n: int) -> Callable[[], object]:
        if n not in folders:
            folders[n] = _folder(tmp_path / f"docs-{n}", n)
        index = SqliteIndex(":memory:", embedder=HashEmbedder())
        vectors = MemoryVectorStore(HashEmbedder())
        index_directory(folders[n], index, vectors)

        def run() -> object:
            report = index_directory(empty, index, vectors)
            assert len(report.removed) == n
            index.close()
            return report

        return run

    return make


@pytest.mark.slow
def test_removing_documents_is_linear_in_removals(tmp_path: Path) -> None:
    # BACKEND-11: each removal used to scan every bm25-okapi posting and every stored vector.
    assert_linear(_removal(tmp_path), 400, "removing documents")
