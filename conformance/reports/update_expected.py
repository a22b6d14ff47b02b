"""`hrc run --update-expected-failures FILE`: write the expected-failures list a run implies.

Every case that failed the run gets an entry with PLACEHOLDER as its reason, which the strict
loader refuses (PROTO-21), so the file cannot be used until a human says why each case fails.
Entries of the `--expected-failures` file given to the run are kept with their reasons while
their case still fails (xfail) or was not selected; a listed case that now passes (xpass) is
dropped.
"""

from __future__ import annotations

from pathlib import Path

import yaml

from conformance.common import atomic_write
from conformance.judging.expectations import PLACEHOLDER, ExpectedFailure
from conformance.running.results import FAILING, RunResult

__all__ = ["PLACEHOLDER", "entries", "write"]


def entries(run: RunResult, previous: dict[str, ExpectedFailure]) -> list[dict[str, str]]:
    """The entries to write, previous ones first (in file order), then new failures in run order."""
    status = {r.case.id: r.status for r in run.results}
    out: list[dict[str, str]] = []
    for entry in sorted(previous.values(), key=lambda e: e.line):
        if status.get(entry.id) in (None, "xfail"):
            kept = {"id": entry.id, "reason": entry.reason}
            if entry.link is not None:
                kept["link"] = entry.link
            out.append(kept)
    for result in run.results:
        if result.status in FAILING and result.status != "xpass" and result.case.id not in previous:
            out.append({"id": result.case.id, "reason": PLACEHOLDER})
    return out


def write(path: Path, run: RunResult, previous: dict[str, ExpectedFailure]) -> int:
    """Write the file from the run and the entries the run was given; returns the count."""
    found = entries(run, previous)
    header = (
        "# Expected failures (PROTO-21), written by `hrc run --update-expected-failures`.\n"
        f"# Replace every reason {PLACEHOLDER!r} with why the case fails; hrc refuses it.\n"
    )
    body = "[]\n"
    if found:
        body = yaml.safe_dump(found, allow_unicode=True, sort_keys=False, width=100)
    atomic_write.write_text(path, header + body)  # PROTO-49
    return len(found)
