"""What SQLite itself says about an FTS5 expression, so tests check that the kit *carries*
SQLite's message (BACKEND-7, DSL-23) without asserting the wording of one SQLite release."""

from __future__ import annotations

import sqlite3


def sqlite_rejection(expression: str) -> str:
    """SQLite's own error text for `MATCH expression` on an empty FTS5 table ('' if accepted)."""
    db = sqlite3.connect(":memory:")
    try:
        db.execute("CREATE VIRTUAL TABLE t USING fts5(content)")
        db.execute("INSERT INTO t(content) VALUES ('tea')")
        db.execute("SELECT rowid FROM t WHERE t MATCH ?", (expression,)).fetchall()
    except sqlite3.Error as exc:
        return str(exc)
    finally:
        db.close()
    return ""
