"""What a rung issued: LADDER-16's optional `expressions` on an attempt row (spec/ladder.md).

A port MAY list the queries each rung sent to its backend. The expected rows of a case do not
carry the member; when the port's row does, the row is held to the rule: `[expression]` for a
row that searched, `[]` for one that did not. This module writes that expectation into a copy
of the case's expected output, at the rows where the port gave `expressions`, and names the
FTS5 items to judge by meaning (DSL-23), so that a port with a plan of several queries on a
rung fails on this member, with LADDER-16 as the reason, and never on the schema.
"""

from __future__ import annotations

import copy
import re
from typing import Any

#: The attempt-row member of LADDER-16.
MEMBER = "expressions"
#: The one rung whose expression is trigram tokens (compared exactly), not FTS5.
_NOT_FTS5_RUNG = "trigram_fuzzy"
#: Operations whose output has a search trace.
_TRACE_OPS = frozenset({"search", "search_corpus"})
#: A mismatch at or under this member is a failure of LADDER-16.
PATH = re.compile(r"/attempts/[0-9]+/expressions(/|$)")
REASON = (
    "LADDER-16: a rung issues one query, so `expressions` is [expression] when it searched, "
    "[] when not"
)


def _legs(output: Any, where: str = "/trace") -> list[tuple[str, Any]]:
    """(pointer, bm25 leg) pairs of a search output: the trace's, and each variant's."""
    trace = output.get("trace") if isinstance(output, dict) else None
    if not isinstance(trace, dict):
        return []
    found = [(f"{where}/bm25", trace.get("bm25"))]
    variants = trace.get("variants")
    if isinstance(variants, list):
        found += [(f"{where}/variants/{i}/bm25", v.get("bm25"))
                  for i, v in enumerate(variants) if isinstance(v, dict)]
    return found


def _rows(leg: Any) -> list[Any]:
    rows = leg.get("attempts") if isinstance(leg, dict) else None
    return rows if isinstance(rows, list) else []


def expect_plans(expected: Any, actual: Any, op: str | None) -> tuple[Any, list[str]]:
    """A copy of `expected` in which each attempt row gets the `expressions` LADDER-16 allows,
    at the rows where `actual` lists them, and the pointers of its FTS5 items.

    Returns `expected` itself and no pointers when the port gave no `expressions`.
    """
    if op not in _TRACE_OPS or not isinstance(expected, dict):
        return expected, []
    theirs = dict(_legs(actual))
    if not any(isinstance(r, dict) and MEMBER in r for leg in theirs.values() for r in _rows(leg)):
        return expected, []
    result = copy.deepcopy(expected)
    pointers: list[str] = []
    for where, leg in _legs(result):
        their_rows = _rows(theirs.get(where))
        for i, (mine, their) in enumerate(zip(_rows(leg), their_rows, strict=False)):
            if not (isinstance(mine, dict) and isinstance(their, dict) and MEMBER in their):
                continue
            if "expression" not in mine or "searched" not in mine:
                continue  # a partial expectation that does not pin the row says nothing here
            mine[MEMBER] = [mine["expression"]] if mine["searched"] else []
            if mine["searched"] and mine.get("rung") != _NOT_FTS5_RUNG:
                pointers.append(f"{where}/attempts/{i}/{MEMBER}/0")
    return result, pointers
