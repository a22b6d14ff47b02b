"""What an FTS5 expression means: the rows it matches on a fixture table (spec/query-dsl.md
DSL-23, DSL-24).

Two expressions mean the same when they match the same rows of a table whose rows are built
from the expected expression's atoms (DSL-24), so that any implementation rebuilds them. The
runner judges ports with it (conformance/judging/fts5_meaning.py); a scripted index that is asked in
another spelling than its keys finds its key with it (BACKEND-36).
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations

#: DSL-24: the tokenizer of the real index (BACKEND-2), so "same rows" means what a search means.
TOKENIZER = "unicode61 remove_diacritics 2"
#: DSL-24: a word that is no atom's word; separates atoms and the words of a split phrase.
FILLER = "hrcfiller"
#: DSL-24: appended to an atom's last word to make a word that only a prefix matches.
EXTENSION = "zq"
#: DSL-24: up to this many atoms every subset is a row; above it, a fixed family of subsets.
MAX_FULL_SUBSETS = 8
#: The FTS5 keywords that are operators, not atoms, when written as barewords.
_KEYWORDS = frozenset({"AND", "OR", "NOT", "NEAR"})
#: An FTS5 string (`""` escapes a quote) with an optional `*`, or a bareword with an optional `*`.
_ATOM = re.compile(r'"((?:[^"]|"")*)"(\*?)|([^\s"()*:^+,{}]+)(\*?)')


@dataclass(frozen=True)
class Atom:
    """A string or bareword of an expression: its text (unescaped) and whether it is a prefix."""

    text: str
    prefix: bool


def atoms(expression: str) -> list[Atom]:
    """DSL-24: the distinct atoms of `expression` in order of first appearance.

    Strings lose their quotes (`""` becomes `"`); barewords that are FTS5 operators (AND, OR,
    NOT, NEAR) are not atoms; an atom followed by `*` is a prefix.
    """
    found: list[Atom] = []
    for m in _ATOM.finditer(expression):
        if m.group(1) is not None:
            atom = Atom(m.group(1).replace('""', '"'), m.group(2) == "*")
        else:
            if m.group(3) in _KEYWORDS:
                continue
            atom = Atom(m.group(3), m.group(4) == "*")
        if atom.text.strip() and atom not in found:
            found.append(atom)
    return found


def subsets(n: int) -> Iterator[tuple[int, ...]]:
    """DSL-24: all subsets up to MAX_FULL_SUBSETS atoms; else none, 1, 2, all but one, all."""
    if n <= MAX_FULL_SUBSETS:
        for mask in range(1 << n):
            yield tuple(i for i in range(n) if mask >> i & 1)
        return
    yield ()
    yield from ((i,) for i in range(n))
    yield from combinations(range(n), 2)
    yield from (tuple(j for j in range(n) if j != i) for i in range(n))
    yield tuple(range(n))


def fixture_rows(expression: str, other: str = "", extra: Sequence[str] = ()) -> list[str]:
    """DSL-24: the fixture rows for an expected expression and the one compared with it.

    The atoms are the expected expression's, then those of `other` not among them; the case's
    own rows (`extra`) come last.
    """
    found = atoms(expression)
    found += [a for a in atoms(other) if a not in found]
    join = f" {FILLER} "
    rows = [join.join(found[i].text for i in subset) for subset in subsets(len(found))]
    for atom in found:
        rows.append(atom.text + EXTENSION)
        words = atom.text.split()
        if len(words) > 1:
            rows.append(" ".join(reversed(words)))
            rows.append(join.join(words))
    rows.append(FILLER)
    rows.extend(extra)
    return rows


class Fts5Error(ValueError):
    """FTS5 rejected an expression; the message is SQLite's."""


class Fts5Unavailable(RuntimeError):
    """This Python's SQLite cannot build the fixture table, so meaning cannot be judged."""


def matching_rows(expression: str, rows: Sequence[str]) -> frozenset[int]:
    """The 0-based indexes of `rows` that `expression` matches on a fresh fixture table."""
    db = sqlite3.connect(":memory:")
    try:
        try:
            db.execute(f"CREATE VIRTUAL TABLE fixture USING fts5(body, tokenize = '{TOKENIZER}')")
        except sqlite3.Error as exc:  # no FTS5, or an SQLite older than BACKEND-2 allows
            raise Fts5Unavailable(f"cannot create the FTS5 fixture table: {exc}") from exc
        db.executemany(
            "INSERT INTO fixture(rowid, body) VALUES (?, ?)",
            [(i + 1, row) for i, row in enumerate(rows)],
        )
        try:
            got = db.execute(
                "SELECT rowid FROM fixture WHERE fixture MATCH ? ORDER BY rowid", (expression,)
            ).fetchall()
        except sqlite3.Error as exc:
            raise Fts5Error(str(exc)) from exc
        return frozenset(int(r[0]) - 1 for r in got)
    finally:
        db.close()


def difference(expected: str, actual: str, extra: Sequence[str] = ()) -> str | None:
    """DSL-23: why `actual` does not mean `expected`, or None when it does.

    `""` means "nothing searchable" and equals only `""`; neither is sent to FTS5 then.
    """
    if expected == actual:
        return None
    if expected == "" or actual == "":
        return 'the empty expression "" means nothing searchable and matches only ""'
    rows = fixture_rows(expected, actual, extra)
    try:
        matching_rows(expected, ())
    except Fts5Unavailable as exc:
        return f"cannot judge the meaning here, so the spellings must be equal: {exc}"
    except Fts5Error:
        pass  # reported below, with the rows
    try:
        want = matching_rows(expected, rows)
    except Fts5Error as exc:
        return f"the expected expression is rejected by FTS5 (a broken case): {exc}"
    try:
        got = matching_rows(actual, rows)
    except Fts5Error as exc:
        return f"FTS5 rejects the expression: {exc}"
    if want == got:
        return None
    row = min(want ^ got)
    verb = "matches" if row in got else "does not match"
    return f"different rows: it {verb} fixture row {row} {rows[row]!r}, the expected one does not"
