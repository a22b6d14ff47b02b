"""Run golden cases against an adapter and give every case exactly one outcome (PROTO-13..19).

`AdapterSession` owns the adapter across cases: it starts it, shakes hands, restarts it after
a crash, hang or protocol violation, and gives up cleanly when the restart budget runs out.
`run_suite` drives a session over a list of cases and applies the expected-failures list.
The `hrc run` sub-command that calls it is conformance/commands/run.py.
"""

from __future__ import annotations

import datetime as dt
import json
import shlex
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from conformance.adapters.adapter_process import AdapterFault, AdapterProcess, python_command
from conformance.adapters.protocol import Hello, Message, unknown_operations
from conformance.common import signals
from conformance.common.printable import bounded
from conformance.judging.cases import Case
from conformance.judging.compare import Mismatch, check
from conformance.judging.datafiles import DataCheck
from conformance.judging.expectations import ExpectedFailure
from conformance.judging.trace_check import trace_problem
from conformance.running.results import FAILING, NOT_RUN, CaseResult, RunOptions, RunResult

BUDGET_EXHAUSTED = "adapter restart budget exhausted"
INTERRUPTED = "not run: the run was interrupted (Ctrl-C)"


def interrupted_message() -> str:
    """INTERRUPTED, naming SIGTERM or SIGHUP when one of them cut the run (PROTO-51)."""
    return f"not run: the run was interrupted ({signals.cause()})"
#: Characters of a message, and of each JSON-encoded mismatch value, a result keeps (PROTO-39).
KEEP_TEXT_CHARS = 4096
REFERENCE_ADAPTER_MODULE = "conformance.adapter_reference"
#: Exit status after Ctrl-C (128 + SIGINT), with the reports written (PROTO-40).
INTERRUPTED_STATUS = 130


def classify(case: Case, reply: Message) -> tuple[str, str | None, Mismatch | None]:
    """Status, message and mismatch for a valid answer (PROTO-19, PROTO-32)."""
    expect = case.expect
    if reply["type"] == "result":
        output = reply["output"]
        if "error" in expect:
            wrong = Mismatch(
                "", {"error": expect["error"]}, output, "expected an error, got an output"
            )
            return "failed", f"expected error {expect['error']!r}, got an output", wrong
        invalid = trace_problem(case.op, output)
        if invalid is not None:
            return "failed", str(invalid), invalid
        found = check(expect, output, case.op)
        if found is None:
            return "passed", None, None
        return "failed", str(found), found
    error = reply["error"]
    kind, text = error["kind"], error["message"]
    if kind == "internal_error":
        return "errored", f"adapter internal error: {text}", None
    if "error" not in expect:
        message = f"adapter answered error {kind!r} where an output was expected: {text}"
        return "errored", message, None
    if kind == expect["error"]:
        return "passed", None, None
    mismatch = Mismatch("/error/kind", expect["error"], kind, "wrong error kind")
    return "failed", f"expected error {expect['error']!r}, got {kind!r}: {text}", mismatch


def _json_text(value: Any) -> str:
    try:
        return json.dumps(value, ensure_ascii=False, sort_keys=True)
    except (TypeError, ValueError):
        return repr(value)


def _keep_text(text: str | None) -> str | None:
    """A message cut to KEEP_TEXT_CHARS plus the hash of the whole (PROTO-39)."""
    return None if text is None else bounded(text, KEEP_TEXT_CHARS)


def _keep_value(value: Any) -> Any:
    """A mismatch value as is when small; else its JSON text cut, with a hash (PROTO-39)."""
    if isinstance(value, bool | int | float) or value is None:
        return value
    if isinstance(value, str) and len(value) <= KEEP_TEXT_CHARS:
        return value
    text = _json_text(value)
    return value if len(text) <= KEEP_TEXT_CHARS else bounded(text, KEEP_TEXT_CHARS)


def _keep_mismatch(mismatch: Mismatch | None) -> Mismatch | None:
    if mismatch is None:
        return None
    return replace(
        mismatch, expected=_keep_value(mismatch.expected), actual=_keep_value(mismatch.actual)
    )


class AdapterSession:
    """One adapter across a run: start, handshake, restart, budget (PROTO-13..18)."""

    def __init__(
        self,
        argv: Sequence[str],
        options: RunOptions | None = None,
        known_ops: frozenset[str] | None = None,
    ) -> None:
        self.argv = list(argv)
        self.options = options or RunOptions()
        #: operation names a hello may declare (PROTO-41); None accepts any name.
        self.known_ops = known_ops
        self.hello: Hello | None = None
        #: PROTO-40: why the adapter could not be started, with its stderr tail; None if it ran.
        self.aborted: tuple[str, tuple[str, ...]] | None = None
        self.starts = 0
        self.restarts = 0
        #: human-readable log of every restart and handshake failure, for the report.
        self.events: list[str] = []
        self._proc: AdapterProcess | None = None
        self._seq = 0
        self._gave_up: tuple[str, str, tuple[str, ...]] | None = None
        #: seq -> case id of the requests sent, to charge a second answer (PROTO-35).
        self._sent: dict[int, str] = {}
        #: case ids answered twice and not yet collected by `take_double_answers`.
        self._double: list[str] = []

    @property
    def process(self) -> AdapterProcess | None:
        """The adapter process currently running, if any."""
        return self._proc

    @property
    def gave_up(self) -> bool:
        return self._gave_up is not None

    def _start(self) -> None:
        """Start a process and shake hands, retrying a bounded number of times (PROTO-17)."""
        opts = self.options
        last: AdapterFault | None = None
        attempts = 0
        for _ in range(max(1, opts.handshake_attempts)):
            if self.starts > 0:
                if self.restarts >= opts.restart_budget:
                    self._gave_up = ("crashed", BUDGET_EXHAUSTED, ())
                    self.events.append(f"{BUDGET_EXHAUSTED} ({self.restarts} restarts)")
                    return
                self.restarts += 1
            self.starts += 1
            attempts += 1
            proc = AdapterProcess(self.argv, max_line_bytes=opts.max_line_bytes)
            try:
                proc.start()
                hello = proc.handshake(opts.handshake_timeout)
            except AdapterFault as fault:
                proc.kill()
                last = fault
                self.events.append(
                    f"handshake attempt {attempts} failed ({fault.outcome}): {fault.message}"
                )
                if not fault.retryable:
                    break
                continue
            unknown = unknown_operations(hello, self.known_ops)
            if unknown:
                stderr = tuple(proc.stderr_tail())
                proc.kill()
                why = (
                    "adapter hello declares unknown operation(s) "
                    + ", ".join(repr(op) for op in unknown)
                    + " (spec/operations.md names the operations)"
                )
                self.events.append(why)
                self._abort(why, stderr)
                return
            self.hello = hello
            self._proc = proc
            return
        assert last is not None
        self._abort(
            f"adapter handshake failed after {attempts} attempt(s) ({last.outcome}): "
            f"{last.message}",
            tuple(last.stderr),
        )

    def _abort(self, message: str, stderr: tuple[str, ...]) -> None:
        """PROTO-40: the adapter cannot be used; the cases not yet run are `not_run`."""
        self.aborted = (message, stderr)
        self._gave_up = (NOT_RUN, f"not run: {message}", ())

    def _not_applicable(self, case: Case) -> CaseResult | None:
        if self.hello is None:
            return None
        reason = self.hello.not_applicable_reason(case.op, case.requires)
        if reason is None:
            return None
        return CaseResult(case, "not_applicable", message=reason)

    def run_case(self, case: Case) -> CaseResult:
        """Send one case and classify the answer; never raises for adapter faults.

        An adapter that died without reading the request (it exited right after its last
        answer) is restarted and the case sent again once, uncharged (PROTO-14).
        """
        result = self._run_case_once(case)
        if result is None:
            result = self._run_case_once(case, retry=False)
        assert result is not None
        return result

    def _run_case_once(self, case: Case, retry: bool = True) -> CaseResult | None:
        if self._gave_up is None:
            na = self._not_applicable(case)
            if na is not None:
                return na
            if self._proc is not None and not self._proc.alive():
                code = self._proc.exit_code()
                self.events.append(f"adapter exited (status {code}) between cases; restarting")
                self._retire()
            if self._proc is None:
                self._start()
                na = self._not_applicable(case) if self._gave_up is None else None
                if na is not None:
                    return na
        if self._gave_up is not None:
            status, message, stderr = self._gave_up
            return CaseResult(case, status, message=message, stderr=stderr)
        proc = self._proc
        assert proc is not None
        self._seq += 1
        self._sent[self._seq] = case.id
        mark = proc.stderr_mark()
        started = time.perf_counter()
        try:
            reply = proc.request(self._seq, case.id, case.op, case.input, self.options.timeout)
        except AdapterFault as fault:
            lost = round((time.perf_counter() - started) * 1000, 3)
            unread = retry and fault.outcome == "crashed" and proc.request_unread()
            # PROTO-35: an answer to an earlier case read while this one was in flight is that
            # case's second answer, whatever becomes of this one.
            self._collect_extra(proc)
            self._retire(drain=False)
            if unread:
                self.events.append(
                    f"adapter exited (status {proc.exit_code()}) before reading {case.id}; "
                    "restarting"
                )
                return None
            self.events.append(f"{case.id}: {fault.outcome}: {fault.message}; restarting")
            # Only the lines written since this case was sent: an earlier case's stderr is not
            # this case's (PROTO-3).
            fresh = tuple(proc.stderr_since(mark, fresh_only=True))
            return CaseResult(case, fault.outcome, lost, fault.message, stderr=fresh)
        self._collect_extra(proc)
        elapsed = round((time.perf_counter() - started) * 1000, 3)
        status, text, mismatch = classify(case, reply)
        response = (
            {"output": reply["output"]} if reply["type"] == "result" else {"error": reply["error"]}
        )
        if proc.last_line is None:  # longer than KEEP_LINE_BYTES: keep a digest (PROTO-39)
            response = {"output": {"hrc:truncated": {
                "bytes": proc.last_line_bytes,
                "sha256": proc.last_line_sha256,
                "prefix": _json_text(response)[: KEEP_TEXT_CHARS // 4],
            }}}
        del reply
        stderr = tuple(proc.stderr_since(mark, fresh_only=True)) if status != "passed" else ()
        return CaseResult(
            case, status, elapsed, _keep_text(text), _keep_mismatch(mismatch), response, stderr
        )

    def _retire(self, drain: bool = True) -> None:
        """Kill the current process; with `drain`, answers it left queued count as second
        answers (PROTO-35). After a fault they are not: that case is charged already."""
        proc = self._proc
        if proc is not None:
            proc.kill()
            if drain:
                proc.drain_answers()
                self._collect_extra(proc)
            proc.extra_answers.clear()
            self._proc = None

    def _collect_extra(self, proc: AdapterProcess) -> None:
        for seq in proc.extra_answers:
            case_id = self._sent.get(seq)
            if case_id is not None and case_id not in self._double:
                self._double.append(case_id)
        proc.extra_answers.clear()

    def take_double_answers(self) -> list[str]:
        """Case ids that were answered more than once since the last call (PROTO-35)."""
        found, self._double = self._double, []
        return found

    def handshake(self) -> Hello | None:
        """Start the adapter if none runs yet and return its hello (None when it failed)."""
        if self._gave_up is None and self._proc is None:
            self._start()
        return self.hello

    def kill_adapter(self) -> None:
        """Kill the current process; the next case starts a new one (counts as a restart)."""
        self._retire()

    def close(self) -> None:
        """Say bye and stop the adapter (PROTO-13); answers it still sends are extra."""
        proc = self._proc
        if proc is not None:
            proc.close(self.options.grace)
            self._collect_extra(proc)
            self._proc = None


def apply_expectation(result: CaseResult, expected: ExpectedFailure | None) -> CaseResult:
    """Strict expected failures (PROTO-22): a listed case that passes is `xpass`."""
    if expected is None or result.status == "not_applicable":
        return result
    if result.status == "passed":
        return replace(
            result,
            status="xpass",
            underlying="passed",
            expected_failure=expected,
            message=f"listed as an expected failure ({expected.reason}) but passed: "
            "remove it from the expected-failures file",
        )
    return replace(
        result,
        status="xfail",
        underlying=result.status,
        expected_failure=expected,
        message=f"expected failure ({expected.reason}); was {result.status}: {result.message}",
    )


def check_data(hello: Hello | None, data_dir: Path | None = None) -> DataCheck | None:
    """The hello's `dataFiles` against every spec/data file of the kit (PROTO-29, PROTO-30)."""
    from conformance.judging import datafiles
    from conformance.judging.suite import kit_suite

    if hello is None:
        return None
    kit = datafiles.kit_hashes(data_dir if data_dir is not None else kit_suite().data)
    return datafiles.check(hello.data_files, kit)


def run_suite(
    cases: Sequence[Case],
    argv: Sequence[str],
    options: RunOptions | None = None,
    expected: Mapping[str, ExpectedFailure] | None = None,
    on_result: Callable[[CaseResult], None] | None = None,
    data_dir: Path | None = None,
    known_ops: frozenset[str] | None = None,
    maxfail: int | None = None,
) -> RunResult:
    """Run every case once against one persistent adapter (restarted as needed).

    `data_dir` is the spec/data the hello's dataFiles are checked against (default: the kit's);
    `known_ops` the operation names a hello may declare (PROTO-41); after `maxfail` failing
    cases the rest are `not_run` (PROTO-40).
    """
    options = options or RunOptions()
    expected = expected or {}
    session = AdapterSession(argv, options, known_ops)
    started_at = dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
    clock = time.perf_counter()
    results: list[CaseResult] = []
    where: dict[str, int] = {}

    def charge_double_answers() -> None:
        for case_id in session.take_double_answers():
            index = where.get(case_id)
            if index is None:
                continue
            first = results[index]
            if (first.underlying or first.status) not in ("passed", "failed", "errored"):
                continue  # already charged with a fault of the adapter
            if first.underlying is not None:
                first = replace(first, status=first.underlying, underlying=None,
                                expected_failure=None)
            violated = replace(
                first,
                status="protocol_violation",
                message="the adapter sent a second answer to this case after its first "
                "(PROTO-35)",
                mismatch=None,
            )
            results[index] = apply_expectation(violated, expected.get(case_id))

    stop: str | None = None
    failing = 0
    interrupted = False
    try:
        for case in cases:
            if stop is None and session.aborted is not None:
                stop = f"not run: {session.aborted[0]}"
            if stop is not None:
                result = CaseResult(case, NOT_RUN, message=stop)
            else:
                result = apply_expectation(session.run_case(case), expected.get(case.id))
            where[case.id] = len(results)
            results.append(result)
            charge_double_answers()
            if on_result is not None:
                on_result(result)
            failing += result.status in FAILING
            if stop is None and maxfail is not None and failing >= maxfail:
                stop = f"not run: the run stopped after {failing} failing case(s) (--maxfail)"
    except KeyboardInterrupt:  # PROTO-40: what ran is reported; the rest is not_run
        interrupted = True
        for case in cases[len(results):]:
            results.append(CaseResult(case, NOT_RUN, message=interrupted_message()))
    finally:
        session.close()
        charge_double_answers()
    return RunResult(
        results=results,
        argv=list(argv),
        hello=session.hello,
        restarts=session.restarts,
        events=session.events,
        started_at=started_at,
        duration_ms=round((time.perf_counter() - clock) * 1000, 3),
        options=options,
        data_check=check_data(session.hello, data_dir),
        aborted=session.aborted,
        interrupted=interrupted,
    )


class AdapterCommandError(ValueError):
    """An `--adapter` command line that cannot be split into a program and its arguments."""


def adapter_argv(adapter: str | None) -> list[str]:
    """The adapter command line; the reference adapter when none is given."""
    if adapter is None:
        return python_command(REFERENCE_ADAPTER_MODULE)
    try:
        argv = shlex.split(adapter)
    except ValueError as exc:  # unbalanced quotes, a trailing backslash
        raise AdapterCommandError(
            f"--adapter {adapter!r}: cannot split the command line: {exc}"
        ) from None
    if not argv:
        raise AdapterCommandError("--adapter is empty")
    return argv
