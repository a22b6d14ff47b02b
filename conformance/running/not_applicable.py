"""The porter's to-do list: not-applicable cases grouped by what the adapter lacks (PROTO-43).

Every `not_applicable` case carries the reason of PROTO-7 (the missing operation or
capabilities); grouping those reasons with counts turns a page of `n`s into a list of work.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from conformance.common.printable import printable
from conformance.running.results import CaseResult

_DROP = (" is not declared by the adapter", " is not declared")


def missing_of(result: CaseResult) -> str:
    """What a not-applicable case lacks, e.g. `capability 'sqlite-fts5'` (PROTO-7's reason)."""
    text = result.message or "(no reason given)"
    for tail in _DROP:
        text = text.removesuffix(tail)
    return text


def groups(results: Iterable[CaseResult]) -> list[tuple[str, int]]:
    """(missing operation or capability, number of cases), most cases first, then by name."""
    counts = Counter(missing_of(r) for r in results if r.status == "not_applicable")
    return sorted(counts.items(), key=lambda item: (-item[1], item[0]))


def block(results: Iterable[CaseResult]) -> str:
    """The text block printed before the counts, or "" when every case was applicable."""
    found = groups(results)
    if not found:
        return ""
    total = sum(n for _, n in found)
    width = len(str(max(n for _, n in found)))
    noun = "case" if total == 1 else "cases"
    lines = [f"not applicable: {total} {noun}, by what the adapter does not declare:"]
    lines += [f"  {n:>{width}}  {printable(what)}" for what, n in found]
    return "\n".join(lines) + "\n"
