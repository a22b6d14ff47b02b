"""Snapshots of the reference's whole output (results + trace, timings dropped) for every
pipeline golden case (spec/trace.md TRACE-1, TRACE-2).

Golden pipeline cases mostly compare `partial`; these snapshots pin every other field too, so
a change anywhere in a trace shows up as a reviewable diff. Update deliberately with
`pytest tests/test_trace_snapshots.py --snapshot-update` after a spec change.
"""

from __future__ import annotations

from typing import Any

import pytest
from syrupy.assertion import SnapshotAssertion
from syrupy.extensions.json import JSONSnapshotExtension

from conformance.adapters.ops import registry
from conformance.judging.cases import Case, load_all
from conformance.judging.compare import drop_timings

OPS = registry()
CASES = [
    c
    for c in load_all()
    if c.op in ("search", "search_corpus") and "error" not in c.expect and c.derived_from is None
]


@pytest.fixture
def snapshot_json(snapshot: SnapshotAssertion) -> SnapshotAssertion:
    return snapshot.use_extension(JSONSnapshotExtension)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_reference_trace_matches_its_snapshot(
    case: Case, snapshot_json: SnapshotAssertion
) -> None:
    """TRACE-1, TRACE-2: the full output of each pipeline case, minus timings, is stable."""
    output: Any = OPS[case.op](case.input)
    assert drop_timings(output) == snapshot_json
