"""Every golden case passes against the reference, called in-process (spec/operations.md)."""

from __future__ import annotations

from typing import Any

import pytest

from conformance.adapters.ops import registry
from conformance.adapters.protocol import non_finite_at
from conformance.judging.cases import Case, load_all
from conformance.judging.compare import check

CASES = load_all()
OPS = registry()


def _run(case: Case) -> tuple[str, Any]:
    """The reference's answer as the reference adapter gives it (TEXT-11 included)."""
    handler = OPS[case.op]
    try:
        output = handler(case.input)
        return ("error", "invalid_input") if non_finite_at(output) else ("ok", output)
    except Exception as exc:
        kind = getattr(exc, "kind", None)
        if kind is None:
            raise
        return "error", kind


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_reference_passes_golden_case(case: Case) -> None:
    assert case.op in OPS, f"{case.file}:{case.line}: no reference handler for op {case.op!r}"
    status, value = _run(case)
    if "error" in case.expect:
        assert status == "error", f"{case.file}:{case.line}: expected error, got {value!r}"
        assert value == case.expect["error"]
        return
    assert status == "ok", f"{case.file}:{case.line}: unexpected error {value!r}"
    mismatch = check(case.expect, value)
    assert mismatch is None, f"{case.file}:{case.line}: {mismatch}"
