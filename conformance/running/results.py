"""What a run produces: the outcome names, one case's result, the run's result. The bottom of
conformance.running, so reports import it without importing the runner.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from conformance.adapters import protocol
from conformance.adapters.protocol import Hello
from conformance.judging.cases import Case
from conformance.judging.compare import Mismatch
from conformance.judging.datafiles import DataCheck
from conformance.judging.expectations import ExpectedFailure
from conformance.running.require import Verdict

#: Every outcome a case can get, in report order.
OUTCOMES: tuple[str, ...] = (
    "passed",
    "failed",
    "errored",
    "crashed",
    "timed_out",
    "protocol_violation",
    "not_applicable",
    "xfail",
    "xpass",
    "not_run",
)


#: Outcomes that make a run fail (and count as "failed" in the footer).
FAILING = frozenset({"failed", "errored", "crashed", "timed_out", "protocol_violation", "xpass"})


#: Outcomes the footer counts as "skipped".
SKIPPED = frozenset({"not_applicable", "xfail"})


#: PROTO-40: the outcome of a selected case the run never reached (the adapter did not start,
#: or --maxfail stopped the run); neither a pass, a failure nor a skip.
NOT_RUN = "not_run"


@dataclass(frozen=True)
class RunOptions:
    """Limits of a run (spec/adapter-protocol.md gives the defaults)."""

    timeout: float = 5.0
    handshake_timeout: float = 30.0
    handshake_attempts: int = 3
    restart_budget: int = 20
    max_line_bytes: int = protocol.DEFAULT_MAX_LINE_BYTES
    grace: float = 1.0


@dataclass(frozen=True)
class CaseResult:
    """The one outcome of one case."""

    case: Case
    status: str
    duration_ms: float = 0.0
    message: str | None = None
    mismatch: Mismatch | None = None
    #: what the adapter answered: {"output": ...} or {"error": {...}}; None when it did not.
    response: dict[str, Any] | None = None
    stderr: tuple[str, ...] = ()
    #: for xfail/xpass: the outcome before the expected-failures list was applied.
    underlying: str | None = None
    expected_failure: ExpectedFailure | None = None


@dataclass
class RunResult:
    """Everything a report needs about one run."""

    results: list[CaseResult]
    argv: list[str]
    hello: Hello | None
    restarts: int
    events: list[str]
    started_at: str
    duration_ms: float
    options: RunOptions = field(default_factory=RunOptions)
    #: the hello's dataFiles against the kit's spec/data (PROTO-29); None without a hello.
    data_check: DataCheck | None = None
    #: PROTO-40: why the adapter could not be used, and its stderr tail; None when it ran.
    aborted: tuple[str, tuple[str, ...]] | None = None
    #: PROTO-42: the `--require` verdicts (set by the caller after the run).
    requirements: list[Verdict] = field(default_factory=list)
    #: PROTO-40: Ctrl-C stopped the run; the case in flight and the rest are `not_run`.
    interrupted: bool = False

    def counts(self) -> dict[str, int]:
        counts = dict.fromkeys(OUTCOMES, 0)
        for result in self.results:
            counts[result.status] += 1
        return counts

    @property
    def ok(self) -> bool:
        """No case failed the run and no spec/data file is stale or unknown (PROTO-25, 29)."""
        data_failed = self.data_check is not None and self.data_check.failed
        if self.aborted is not None or self.interrupted or any(
            not v.met for v in self.requirements
        ):
            return False
        return not data_failed and not any(r.status in FAILING for r in self.results)
