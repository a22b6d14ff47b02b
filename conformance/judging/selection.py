"""`--select`: which cases a pattern (id, file, clause, tag, authority) picks."""

from __future__ import annotations

import fnmatch
from collections.abc import Mapping, Sequence

from conformance.judging import authority
from conformance.judging.cases import Case


class SelectionError(ValueError):
    """A `--select` pattern matches no case."""


def matches(case: Case, pattern: str, authorities: Mapping[str, str] | None = None) -> bool:
    """`--select` semantics: exact id, id glob, id prefix (`rrf/ties`), tag, stage, op, a
    clause id the case cites (`RRF-8`, PROTO-23) or the authority of one (`authority:kit`,
    against `authorities`, default the kit's spec/authority.json)."""
    if pattern.startswith(authority.SELECT_PREFIX):
        index = authority.index_for() if authorities is None else authorities
        return authority.selects(pattern[len(authority.SELECT_PREFIX):], case.clauses, index)
    for name in (case.id, case.derived_from):  # DSL-23: a derived case goes with its base
        if name is None:
            continue
        if name == pattern or fnmatch.fnmatchcase(name, pattern):
            return True
        if name.startswith(pattern.rstrip("/") + "/"):
            return True
    return (
        pattern in case.tags
        or pattern == case.stage
        or pattern == case.op
        or pattern in case.clauses
    )


def select(
    cases: Sequence[Case], patterns: Sequence[str], authorities: Mapping[str, str] | None = None
) -> list[Case]:
    """Cases matching any pattern (all cases when there are none).

    Raises SelectionError when a pattern matches nothing, or names an unknown authority: a
    typo never selects an empty suite.
    """
    if not patterns:
        return list(cases)
    for pattern in patterns:
        if pattern.startswith(authority.SELECT_PREFIX):
            try:
                authority.check_selector(pattern[len(authority.SELECT_PREFIX):])
            except ValueError as exc:
                raise SelectionError(str(exc)) from exc
    chosen = [c for c in cases if any(matches(c, p, authorities) for p in patterns)]
    for pattern in patterns:
        if not any(matches(c, pattern, authorities) for c in cases):
            raise SelectionError(f"--select {pattern!r} matches no case")
    return chosen
