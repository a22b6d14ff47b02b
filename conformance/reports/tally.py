"""Reading a red run (issue 38, item 8): the failing cases counted by clause, so 90 failures with
one cause read as one line (`RRF-7  90`) before the 980 lines of their blocks, and the path to
rerun only the failures (`hrc run --failed-from REPORT.json`, as pytest's `--lf`)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from conformance.common.printable import printable
from conformance.running.results import FAILING, CaseResult

#: Clauses listed by name in the tally; the rest are counted on one line.
SHOWN = 12


def by_clause(results: Sequence[CaseResult]) -> list[tuple[str, int]]:
    """(clause, failing cases citing it), most first, ties by clause id in natural order."""
    counts: Counter[str] = Counter()
    for result in results:
        if result.status in FAILING:
            counts.update(dict.fromkeys(result.case.clauses, 1))

    def key(item: tuple[str, int]) -> tuple[int, str, int]:
        prefix, _, number = item[0].rpartition("-")
        return (-item[1], prefix, int(number) if number.isdigit() else 0)

    return sorted(counts.items(), key=key)


def block(results: Sequence[CaseResult], rerun: str | None = None) -> str:
    """`failures by clause` lines, empty when nothing failed; `rerun` is the command that runs
    only the failing cases again, when the run wrote a report to take them from."""
    failing = sum(1 for r in results if r.status in FAILING)
    if not failing:
        return ""
    rows = by_clause(results)
    noun = "case" if failing == 1 else "cases"
    lines = [f"failures by clause ({failing} failing {noun}; a case counts under each clause "
             "it cites):"]
    width = max(len(cid) for cid, _ in rows[:SHOWN]) if rows else 0
    lines += [f"  {printable(cid):<{width}} {count:>6}" for cid, count in rows[:SHOWN]]
    if len(rows) > SHOWN:
        rest = rows[SHOWN:]
        lines.append(f"  … {len(rest)} more clause(s), {sum(c for _, c in rest)} citations")
    if rerun:
        lines.append(f"rerun only the failing cases: {printable(rerun)}")
    return "\n".join(lines) + "\n"


class FailedFromError(ValueError):
    """A --failed-from report that cannot be read; the message is one line."""


def failed_ids(path: Path) -> list[str]:
    """The ids of the cases that failed the run recorded in the JSON report at `path`."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
        cases = document["cases"]
        ids = [c["id"] for c in cases if c["status"] in FAILING]
    except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError) as exc:
        raise FailedFromError(f"--failed-from {path}: not an hrc run report ({exc})") from exc
    if not all(isinstance(i, str) for i in ids):
        raise FailedFromError(f"--failed-from {path}: a case id is not a string")
    return ids
