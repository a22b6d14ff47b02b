"""Clauses no broken port cites, and the recorded reason for each (benchmarks/mutation/README.md).

Every profile clause must have a broken port. A core clause may instead be listed in
`unguarded.tsv` (`CLAUSE<TAB>reason`, `#` comments) when no observable mistake exists (it
defines a term, points to other clauses, or any mistake is an equivalent mutant) or when its
mistakes belong to the adapter protocol, which the fake adapters of tests/ break instead. A
reason starting `TODO:` marks a known gap. The gate fails on a clause that is neither guarded
nor listed, and tests fail on a stale line.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from pathlib import Path

RECORD = Path(__file__).with_name("unguarded.tsv")
_LINE = re.compile(r"([A-Z]+-[0-9]+)\t(\S.*)")


def load_recorded(path: Path = RECORD) -> dict[str, str]:
    """The listed clauses and their reasons; a malformed or repeated line is a `path:line` error."""
    recorded: dict[str, str] = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        match = _LINE.fullmatch(line.rstrip())
        if match is None:
            raise ValueError(f"{path}:{number}: expected CLAUSE<TAB>reason, got {line!r}")
        clause, reason = match.groups()
        if clause in recorded:
            raise ValueError(f"{path}:{number}: {clause} is listed twice")
        recorded[clause] = reason
    return recorded


def spec_order(clauses: Iterable[str]) -> tuple[str, ...]:
    """Clause ids by prefix, then number (RRF-2 before RRF-10)."""
    return tuple(sorted(clauses, key=lambda c: (c.split("-")[0], int(c.split("-")[1]))))


def unguarded(
    defined: Iterable[str], cited: Iterable[str], recorded: Mapping[str, str]
) -> tuple[str, ...]:
    """The defined clauses that no broken port cites and no recorded line explains."""
    return spec_order(set(defined) - set(cited) - set(recorded))
