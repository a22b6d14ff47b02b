"""The edges table `hrc index` keeps beside the FTS5 index (spec/profiles/gbrain.md GBRAIN-2..9).

One row per edge of each indexed document, written in the indexer's transaction, so the
edges change exactly when the document's chunks do and nothing is half-written. An edge to a
page that is not indexed is kept and reported (seed 004 links pages before they exist).
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Any

from .links import extract_links, page_of_path

SCHEMA = (
    "CREATE TABLE IF NOT EXISTS gbrain_edges ("
    "path TEXT NOT NULL, from_page TEXT NOT NULL, to_page TEXT NOT NULL, type TEXT NOT NULL, "
    "PRIMARY KEY (path, to_page, type))"
)


@dataclass(frozen=True)
class LinkSummary:
    """Edges in the index, and those whose target page is not indexed (by code point)."""

    edges: int
    missing: list[tuple[str, str, str]]


class EdgesTable:
    """Writes and reads `gbrain_edges` on the index's own connection."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db
        exists = db.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'gbrain_edges'"
        ).fetchone()
        #: True when the table is new: every document then needs its edges, changed or not.
        self.created = exists is None
        db.execute(SCHEMA)

    def write(self, path: str, markdown: str) -> None:
        """Replace the edges of document `path` (call inside the indexer's transaction)."""
        self.remove(path)
        if page_of_path(path) is None:
            return
        page, edges = extract_links(path, markdown)
        self._db.executemany(
            "INSERT INTO gbrain_edges(path, from_page, to_page, type) VALUES (?, ?, ?, ?)",
            [(path, page, e.target, e.type) for e in edges],
        )

    def remove(self, path: str) -> None:
        self._db.execute("DELETE FROM gbrain_edges WHERE path = ?", (path,))

    def summary(self) -> LinkSummary:
        """Edge count and every edge to a page no indexed document has."""
        docs = [row[0] for row in self._db.execute("SELECT path FROM documents")]
        pages = {page_of_path(p) for p in docs}
        rows = self._db.execute("SELECT from_page, to_page, type FROM gbrain_edges").fetchall()
        missing = sorted((f, t, k) for f, t, k in rows if t not in pages)
        return LinkSummary(len(rows), missing)

    def graph_data(self) -> dict[str, Any]:
        """This index's pages and edges, as `gbrain.search` takes them (GBRAIN-28): one page per
        document (its first chunk) and the stored edges."""
        pages = [
            {"id": cid, "path": path, "title": title, "summary": summary, "content": content}
            for cid, path, title, summary, content in self._db.execute(
                "SELECT c.id, c.path, c.title, c.summary, c.content FROM documents d "
                "JOIN chunks c ON c.rowid = d.first_rowid WHERE d.chunk_count > 0 "
                "ORDER BY d.path"
            )
        ]
        edges = [
            {"from": f, "to": t, "type": k}
            for f, t, k in self._db.execute(
                "SELECT from_page, to_page, type FROM gbrain_edges ORDER BY path, to_page, type"
            )
        ]
        return {"pages": pages, "edges": edges}
