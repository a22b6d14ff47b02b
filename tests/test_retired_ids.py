"""Retired golden case ids are never reused (golden/README.md, golden/retired-ids.txt)."""

from __future__ import annotations

from pathlib import Path

from conformance.judging.cases import load_all

RETIRED = Path(__file__).resolve().parent.parent / "golden" / "retired-ids.txt"


def retired_ids() -> set[str]:
    lines = RETIRED.read_text(encoding="utf-8").splitlines()
    return {line.split()[0] for line in lines if line.strip() and not line.startswith("#")}


def test_no_case_reuses_a_retired_id() -> None:
    """An id listed as retired names no current case (PIPE-1 cases included)."""
    assert {case.id for case in load_all()} & retired_ids() == set()
