"""The operation names the spec defines, read from spec/operations.md (PROTO-41).

A case file naming an operation the spec does not define, or a hello declaring one, is an
error rather than a case that is silently never run: `rrf` misspelt `rff` would otherwise give
a green `0 passed`. Core operations are the first column of the `| op |` tables of
spec/operations.md; a profile operation `NAME.op` is known when its profile is (PROFILE-4).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache
from pathlib import Path

from conformance.judging import profiles
from conformance.judging.suite import kit_suite

_ROW = re.compile(r"^\|\s*`([a-z][a-z0-9_]*)`\s*\|")


@cache
def _core(path: Path) -> frozenset[str]:
    names: set[str] = set()
    in_op_table = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("| op |"):
            in_op_table = True
            continue
        if not line.startswith("|"):
            in_op_table = False
            continue
        match = _ROW.match(line)
        if in_op_table and match:
            names.add(match.group(1))
    return frozenset(names)


def core_operations(spec_dir: Path) -> frozenset[str]:
    """Core operation names of the spec in `spec_dir` (its operations.md tables); the kit's
    when that spec has no operations.md (a suite that only adds profiles)."""
    path = spec_dir / "operations.md"
    if not path.is_file():
        path = kit_suite().spec / "operations.md"
    return _core(path.resolve())


def is_known(op: str, core: frozenset[str], spec_dir: Path) -> bool:
    """A core name of the spec, or `NAME.op` of a profile the spec ships (PROFILE-4)."""
    owner = profiles.op_profile(op)
    if owner is None:
        return op in core
    return (spec_dir / "profiles" / f"{owner}.md").is_file()


def known_operations(spec_dir: Path, suite_ops: Iterable[str] = ()) -> frozenset[str]:
    """Every name a hello may declare: the spec's core operations and the suite's own."""
    return core_operations(spec_dir) | frozenset(suite_ops)
