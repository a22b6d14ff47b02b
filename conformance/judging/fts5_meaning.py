"""Judge a port's FTS5 fields by meaning, not spelling (spec/query-dsl.md DSL-23..25).

The runner executes the expected expression and the port's expression against one fixture
FTS5 table, in its own process (Python's sqlite3), and compares the sets of matching rows
(reference/query/meaning.py holds the rule). This module says which output fields are FTS5
expressions and reconciles an output whose FTS5 fields mean the expected ones.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from conformance.judging.pointer import resolve_pointer
from reference.query.meaning import (
    EXTENSION,
    FILLER,
    MAX_FULL_SUBSETS,
    TOKENIZER,
    Atom,
    Fts5Error,
    atoms,
    difference,
    fixture_rows,
    matching_rows,
    subsets,
)

__all__ = [
    "EXTENSION",
    "FILLER",
    "MAX_FULL_SUBSETS",
    "TOKENIZER",
    "Atom",
    "Fts5Error",
    "MeaningMismatch",
    "atoms",
    "difference",
    "fields",
    "fixture_rows",
    "matching_rows",
    "reconcile",
    "subsets",
]


# -- which fields of an output are FTS5 expressions (DSL-23, TRACE) ------------------------------

#: Operations whose `expression` output field is an FTS5 expression.
_EXPRESSION_OPS = frozenset({"compile", "sanitise"})
#: Operations whose trace carries FTS5 expressions (TRACE-n: query.expression, attempt rows).
_TRACE_OPS = frozenset({"search", "search_corpus"})
#: LADDER: the one rung whose `expression` is trigram tokens, not FTS5.
_NOT_FTS5_RUNG = "trigram_fuzzy"


def fields(op: str, expected: Any) -> list[str]:
    """JSON pointers of the FTS5-expression fields present in an expected output of `op`."""
    if not isinstance(expected, dict):
        return []
    if op in _EXPRESSION_OPS:
        return ["/expression"] if isinstance(expected.get("expression"), str) else []
    if op not in _TRACE_OPS or not isinstance(expected.get("trace"), dict):
        return []
    trace = expected["trace"]
    found: list[str] = []
    query = trace.get("query")
    if isinstance(query, dict) and isinstance(query.get("expression"), str):
        found.append("/trace/query/expression")
    found.extend(_attempt_fields(trace.get("bm25"), "/trace/bm25"))
    variants = trace.get("variants")
    if isinstance(variants, list):  # TRACE-16: each variant's BM25 leg has the same rows
        for i, entry in enumerate(variants):
            if isinstance(entry, dict):
                found.extend(_attempt_fields(entry.get("bm25"), f"/trace/variants/{i}/bm25"))
    return found


def _attempt_fields(bm25: Any, where: str) -> list[str]:
    """The FTS5 `expression` pointers of a BM25 leg's attempt rows (TRACE-8), at `where`."""
    if not isinstance(bm25, dict):
        return []
    attempts = bm25.get("attempts")
    found = [
        f"{where}/attempts/{i}/expression"
        for i, row in enumerate(attempts if isinstance(attempts, list) else [])
        if isinstance(row, dict)
        and isinstance(row.get("expression"), str)
        and row.get("rung") != _NOT_FTS5_RUNG
    ]
    first_pass = bm25.get("firstPass")  # FANOUT-19: every first-pass query is FTS5
    found += [
        f"{where}/firstPass/{i}/expression"
        for i, row in enumerate(first_pass if isinstance(first_pass, list) else [])
        if isinstance(row, dict) and isinstance(row.get("expression"), str)
    ]
    return found


def _with(value: Any, pointer: str, new: Any) -> Any:
    """A copy of `value` with the field at `pointer` replaced (the path exists)."""
    parts = pointer.strip("/").split("/")
    if not parts or parts == [""]:
        return new
    head, rest = parts[0], "/" + "/".join(parts[1:]) if len(parts) > 1 else ""
    if isinstance(value, dict):
        out = dict(value)
        out[head] = _with(value[head], rest, new) if rest else new
        return out
    items = list(value)
    index = int(head)
    items[index] = _with(items[index], rest, new) if rest else new
    return items


@dataclass(frozen=True)
class MeaningMismatch:
    """The first FTS5 field whose meaning differs: where, both expressions and why."""

    path: str
    expected: str
    actual: str
    reason: str


def reconcile(
    expected: Any, actual: Any, pointers: Sequence[str], extra: Sequence[str] = ()
) -> tuple[MeaningMismatch | None, Any]:
    """DSL-23: judge each FTS5 field by meaning.

    Returns the first field whose meaning differs, or None and a copy of `actual` in which every
    field that means the same as expected holds the expected spelling, so that the rest of the
    output can be compared exactly. Fields missing or not strings are left to that comparison.
    """
    for pointer in pointers:
        has_e, e = resolve_pointer(expected, pointer)
        has_a, a = resolve_pointer(actual, pointer)
        if not (has_e and has_a and isinstance(e, str) and isinstance(a, str)):
            continue
        why = difference(e, a, extra)
        if why is not None:
            return MeaningMismatch(pointer, e, a, why), actual
        if a != e:
            actual = _with(actual, pointer, e)
    return None, actual
