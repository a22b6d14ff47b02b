"""The reference adapter passes the whole golden suite through the protocol."""

from __future__ import annotations

from conformance.adapters.adapter_process import python_command
from conformance.judging.cases import load_all
from conformance.running.results import FAILING
from conformance.running.runner import REFERENCE_ADAPTER_MODULE, run_suite


def test_reference_adapter_passes_every_golden_case_over_the_protocol() -> None:
    """PROTO-13 Every golden case gets one outcome, and against the reference none fails."""
    cases = load_all()
    run = run_suite(cases, python_command(REFERENCE_ADAPTER_MODULE))
    assert len(run.results) == len(cases)
    failures = [
        f"{r.case.file}:{r.case.line} {r.case.id}: {r.status}: {r.message}"
        for r in run.results
        if r.status in FAILING
    ]
    assert not failures, "\n".join(failures)
    assert run.restarts == 0
