"""The one table of output numbers that compare with a tolerance (spec/portability.md TEXT-13).

Every other number compares bit-exact after parsing to binary64, and every integer exactly
(TEXT-13). The comparator and `hrc diff` both read `TOLERANCES`; tests/test_compare.py keeps
it equal to the table in spec/portability.md.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Tolerance:
    """A field whose value the spec does not pin to a procedure, and how close is equal."""

    op: str
    #: JSON pointer into the operation's output; `*` matches any one segment (a list index).
    pointer: str
    #: equal when |a - b| <= relative * max(|a|, |b|).
    relative: float
    why: str

    def matches(self, op: str | None, path: str) -> bool:
        if op != self.op:
            return False
        want = self.pointer.split("/")
        got = path.split("/")
        return len(want) == len(got) and all(w in ("*", g) for w, g in zip(want, got, strict=True))

    def describe(self) -> str:
        return f"tolerance {self.relative:g} relative (field {self.op} {self.pointer})"


_BM25 = "SQLite's bm25() (BACKEND-5): computed inside SQLite, not by a procedure the spec pins"

_EXP_LOG = ("profile engram: exp and log may be 2 ulps from correctly rounded in a port's math "
            "library (ENGRAM-12)")

TOLERANCES: tuple[Tolerance, ...] = (
    Tolerance("fts_search", "/hits/*/score", 1e-12, _BM25),
    Tolerance("index_documents", "/searches/*/hits/*/score", 1e-12, _BM25),
    Tolerance("engram.boost", "/results/*/score", 1e-14, _EXP_LOG),
    Tolerance("engram.boost", "/results/*/recency", 1e-14, _EXP_LOG),
    Tolerance("engram.boost", "/results/*/access", 1e-14, _EXP_LOG),
    Tolerance("engram.search", "/results/*/score", 1e-14, _EXP_LOG),
    Tolerance("engram.search", "/trace/boosts/*/score", 1e-14, _EXP_LOG),
    Tolerance("engram.search", "/trace/boosts/*/recency", 1e-14, _EXP_LOG),
    Tolerance("engram.search", "/trace/boosts/*/access", 1e-14, _EXP_LOG),
)


def tolerance_for(op: str | None, path: str) -> Tolerance | None:
    """The tolerance of the number at `path` of `op`'s output, or None (bit-exact)."""
    return next((t for t in TOLERANCES if t.matches(op, path)), None)
