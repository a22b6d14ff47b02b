"""Helpers for the runner tests: a tiny golden suite and fake adapter command lines."""

from __future__ import annotations

import sys
from pathlib import Path

from conformance.running.results import OUTCOMES, RunOptions, RunResult

HERE = Path(__file__).resolve().parent

#: Short limits so fault tests stay fast (the defaults are 5 s / 30 s).
FAST = RunOptions(timeout=0.5, handshake_timeout=2.0, handshake_attempts=3, grace=0.3)

LENGTH_YAML = """\
op: length
cases:
  - id: tiny/length/ascii
    description: Three ASCII letters have length 3.
    clauses: [TEXT-8]
    tags: [ascii]
    input: {text: cat}
    expect:
      output: {length: 3}
  - id: tiny/length/astral
    description: Mathematical bold letters count one code point each.
    clauses: [TEXT-8]
    input: {text: "\\U0001D41C\\U0001D41A\\U0001D42D"}
    expect:
      output: {length: 3}
  - id: tiny/length/not-a-string
    description: A number is not a text, so the input is rejected.
    clauses: [OP-2]
    input: {text: 5}
    expect:
      error: invalid_input
"""

NORMALISE_YAML = """\
op: normalise
cases:
  - id: tiny/normalise/spaces
    description: Runs of whitespace collapse to one space and ends are trimmed.
    clauses: [TEXT-4]
    input: {text: "  a \\t b "}
    expect:
      output: {normalised: a b, folded: a b}
  - id: tiny/normalise/upper
    description: Folding lowercases but normalising keeps the case.
    clauses: [TEXT-5]
    tags: [case]
    input: {text: "ÉTÉ"}
    expect:
      output: {normalised: "ÉTÉ", folded: "été"}
  - id: tiny/normalise/needs-capability
    description: A case that needs a capability the adapter may lack.
    clauses: [TEXT-4]
    requires: [sqlite-fts5]
    input: {text: x}
    expect:
      output: {normalised: x, folded: x}
"""

IDS = [
    "tiny/length/ascii",
    "tiny/length/astral",
    "tiny/length/not-a-string",
    "tiny/normalise/spaces",
    "tiny/normalise/upper",
    "tiny/normalise/needs-capability",
]


def write_tiny_golden(root: Path) -> Path:
    """A golden dir with two stages (`lengths`, `text`) and six cases; returns it."""
    golden = root / "golden"
    (golden / "lengths").mkdir(parents=True)
    (golden / "text").mkdir(parents=True)
    (golden / "lengths" / "length.yaml").write_text(LENGTH_YAML, encoding="utf-8")
    (golden / "text" / "normalise.yaml").write_text(NORMALISE_YAML, encoding="utf-8")
    return golden


def fake(name: str, *args: str) -> list[str]:
    """argv running tests/fake_adapters/<name>.py with this interpreter (`-S`: fast start)."""
    return [sys.executable, "-S", str(HERE / f"{name}.py"), *args]


def statuses(run: RunResult) -> dict[str, str]:
    """Case id -> outcome of a run."""
    return {r.case.id: r.status for r in run.results}


def assert_accounted(run: RunResult) -> None:
    """Every selected case has exactly one outcome, in order, and the counts add up."""
    assert [r.case.id for r in run.results] == IDS
    counts = run.counts()
    assert set(counts) == set(OUTCOMES)
    assert sum(counts.values()) == len(IDS)
