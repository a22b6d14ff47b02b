"""The runner survives every adapter fault and gives each case exactly one outcome.

Each test runs the tiny suite (tests/fake_adapters/support.py) against one fake adapter.
"""

from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path

import pytest
from fake_adapters.support import FAST, IDS, assert_accounted, fake, statuses, write_tiny_golden

from conformance.judging.cases import Case, case_files, load_all
from conformance.running.runner import (
    BUDGET_EXHAUSTED,
    AdapterSession,
    run_suite,
)


@pytest.fixture
def cases(tmp_path: Path) -> list[Case]:
    return load_all(case_files(write_tiny_golden(tmp_path)))


def test_correct_adapter_passes_every_case(cases: list[Case]) -> None:
    """PROTO-19 A correct output, and the expected error kind, are `passed`."""
    run = run_suite(cases, fake("good"), FAST)
    assert_accounted(run)
    assert set(statuses(run).values()) == {"passed"}
    assert run.restarts == 0
    assert run.ok


def test_crash_marks_the_case_in_flight_and_the_run_continues(cases: list[Case]) -> None:
    """PROTO-14 An adapter that exits mid-case crashes that case; it is restarted for the rest."""
    run = run_suite(cases, fake("crash_on", "tiny/length/astral"), FAST)
    assert_accounted(run)
    got = statuses(run)
    assert got.pop("tiny/length/astral") == "crashed"
    assert set(got.values()) == {"passed"}
    assert run.restarts == 1
    crashed = run.results[1]
    assert "exited with status 3" in (crashed.message or "")
    assert "fake: about to crash" in crashed.stderr


def test_adapter_exiting_between_cases_is_restarted_without_blame(cases: list[Case]) -> None:
    """PROTO-14 An adapter found dead while idle is restarted; no case is charged for it."""
    session = AdapterSession(fake("exit_after", "tiny/length/ascii"), FAST)
    try:
        assert session.run_case(cases[0]).status == "passed"
        assert session.process is not None
        assert session.process.wait(timeout=5) == 0
        assert session.run_case(cases[1]).status == "passed"
    finally:
        session.close()
    assert session.restarts == 1


def test_hang_times_out_that_case_only(cases: list[Case]) -> None:
    """PROTO-15 No answer within the per-case timeout is `timed_out`; the adapter is replaced."""
    run = run_suite(cases, fake("hang_on", "tiny/normalise/spaces"), FAST)
    assert_accounted(run)
    got = statuses(run)
    assert got.pop("tiny/normalise/spaces") == "timed_out"
    assert set(got.values()) == {"passed"}
    assert run.restarts == 1


def test_non_json_line_is_a_protocol_violation(cases: list[Case]) -> None:
    """PROTO-16 A line on stdout that is not JSON is a `protocol_violation`."""
    run = run_suite(cases, fake("garbage", "tiny/length/ascii"), FAST)
    assert_accounted(run)
    got = statuses(run)
    assert got.pop("tiny/length/ascii") == "protocol_violation"
    assert set(got.values()) == {"passed"}
    assert "not JSON" in (run.results[0].message or "")


def test_wrong_seq_is_a_protocol_violation(cases: list[Case]) -> None:
    """PROTO-8 An answer whose seq is not the request's is a `protocol_violation`."""
    run = run_suite(cases, fake("wrong_seq", "tiny/normalise/upper"), FAST)
    assert_accounted(run)
    got = statuses(run)
    assert got.pop("tiny/normalise/upper") == "protocol_violation"
    assert set(got.values()) == {"passed"}
    assert "seq" in (run.results[4].message or "")


def test_over_long_line_is_a_protocol_violation(cases: list[Case]) -> None:
    """PROTO-2 A line longer than the cap is a `protocol_violation` and is not buffered whole."""
    options = dataclasses.replace(FAST, max_line_bytes=1024)
    run = run_suite(cases, fake("oversize", "tiny/length/ascii", "5000"), options)
    assert_accounted(run)
    got = statuses(run)
    assert got.pop("tiny/length/ascii") == "protocol_violation"
    assert set(got.values()) == {"passed"}
    assert "longer than 1024 bytes" in (run.results[0].message or "")


def test_line_at_the_cap_is_accepted(cases: list[Case]) -> None:
    """PROTO-2 A line no longer than the cap is read normally (here: a wrong output, `failed`)."""
    options = dataclasses.replace(FAST, max_line_bytes=8192)
    run = run_suite(cases, fake("oversize", "tiny/length/ascii", "5000"), options)
    assert statuses(run)["tiny/length/ascii"] == "failed"
    assert run.restarts == 0


@pytest.mark.parametrize(
    "message",
    [
        '{"type": "result", "seq": 0}',
        '{"type": "result", "seq": 0, "output": [1, 2]}',
        '{"type": "error", "seq": 0, "error": {"kind": "boom", "message": "x"}}',
        '{"type": "hello", "protocol": 1}',
        '{"type": "result", "seq": 0, "output": {}, "extra": 1}',
    ],
    ids=["no-output", "output-not-object", "unknown-kind", "unexpected-type", "extra-field"],
)
def test_message_failing_its_schema_is_a_protocol_violation(
    cases: list[Case], message: str
) -> None:
    """PROTO-4 A message that fails its schema in schemas/protocol/ is a `protocol_violation`."""
    run = run_suite(cases, fake("bad_message", "tiny/length/astral", message), FAST)
    assert_accounted(run)
    got = statuses(run)
    assert got.pop("tiny/length/astral") == "protocol_violation"
    assert set(got.values()) == {"passed"}


@pytest.mark.parametrize(
    "line",
    [
        '{"type": "result", "seq": SEQ, "output": {"length": NaN}}',
        '{"type": "result", "seq": SEQ, "seq": SEQ, "output": {"length": 3}}',
        "[1, 2, 3]",
        '{"type": "result", "seq": SEQ, "output": {"length": 1e400}}',
    ],
    ids=["nan", "duplicate-key", "not-an-object", "overflow-to-infinity"],
)
def test_line_that_is_not_strict_json_object_is_a_protocol_violation(
    cases: list[Case], line: str
) -> None:
    """PROTO-2 NaN, duplicate keys, non-object lines and numbers that overflow binary64 (1e400
    parses to Infinity) are protocol violations."""
    run = run_suite(cases, fake("raw_reply", "tiny/length/ascii", line), FAST)
    assert_accounted(run)
    assert statuses(run)["tiny/length/ascii"] == "protocol_violation"


def test_handshake_that_always_fails_gives_every_case_an_outcome(cases: list[Case]) -> None:
    """PROTO-17 PROTO-40 A handshake failing every attempt is one error with the reason and the
    stderr tail; every case is accounted as not run."""
    run = run_suite(cases, fake("exit_in_handshake"), FAST)
    assert_accounted(run)
    assert set(statuses(run).values()) == {"not_run"}
    assert run.aborted is not None
    message, stderr = run.aborted
    assert "handshake failed after 3 attempt(s) (crashed)" in message
    assert "fake: cannot load my configuration" in stderr
    assert all(r.stderr == () for r in run.results)
    assert not run.ok


def test_garbage_hello_is_a_protocol_violation_for_every_case(cases: list[Case]) -> None:
    """PROTO-17 PROTO-40 A handshake answered with garbage is a `protocol_violation` that stops
    the run before any case."""
    run = run_suite(cases, fake("garbage_hello"), FAST)
    assert_accounted(run)
    assert set(statuses(run).values()) == {"not_run"}
    assert run.aborted is not None and "(protocol_violation)" in run.aborted[0]


def test_handshake_is_retried_after_a_failed_start(cases: list[Case], tmp_path: Path) -> None:
    """PROTO-17 A failed handshake is retried; a later good start runs the suite normally."""
    counter = tmp_path / "starts"
    run = run_suite(cases, fake("flaky_start", str(counter), "2"), FAST)
    assert_accounted(run)
    assert set(statuses(run).values()) == {"passed"}
    assert counter.read_text() == "2"


def test_slow_start_uses_the_handshake_timeout_not_the_case_timeout(cases: list[Case]) -> None:
    """PROTO-17 The handshake has its own, longer timeout, so a slow start is not a fault."""
    options = dataclasses.replace(FAST, timeout=0.3, handshake_timeout=5.0)
    run = run_suite(cases, fake("slow_start", "0.45"), options)
    assert_accounted(run)
    assert set(statuses(run).values()) == {"passed"}


def test_protocol_version_mismatch_is_not_retried(cases: list[Case]) -> None:
    """PROTO-6 A hello with another protocol version is a violation, without retries."""
    run = run_suite(cases, fake("wrong_protocol"), FAST)
    assert_accounted(run)
    assert set(statuses(run).values()) == {"not_run"}
    assert run.aborted is not None
    assert "after 1 attempt(s) (protocol_violation)" in run.aborted[0]
    assert "protocol 2" in run.aborted[0]


def test_missing_program_gives_every_case_an_outcome(cases: list[Case], tmp_path: Path) -> None:
    """PROTO-40 An adapter that cannot be started at all is one error; no case is run."""
    run = run_suite(cases, [str(tmp_path / "no-such-adapter")], FAST)
    assert_accounted(run)
    assert set(statuses(run).values()) == {"not_run"}
    assert run.aborted is not None and "cannot start adapter" in run.aborted[0]
    assert "cannot start adapter" in (run.results[0].message or "")


def test_restart_budget_exhaustion_crashes_the_remaining_cases(cases: list[Case]) -> None:
    """PROTO-18 After the restart budget, every remaining case is crashed with that message."""
    options = dataclasses.replace(FAST, restart_budget=2)
    run = run_suite(cases, fake("crash_always"), options)
    assert_accounted(run)
    assert set(statuses(run).values()) == {"crashed"}
    assert run.restarts == 2
    messages = [r.message for r in run.results]
    assert messages[3:] == [BUDGET_EXHAUSTED] * 3
    assert all(m != BUDGET_EXHAUSTED for m in messages[:3])


def test_stderr_output_never_affects_results(cases: list[Case]) -> None:
    """PROTO-3 Heavy, binary and very long stderr output is drained and never a failure."""
    run = run_suite(cases, fake("stderr_spam"), FAST)
    assert_accounted(run)
    assert set(statuses(run).values()) == {"passed"}


def test_error_where_output_expected_is_errored(cases: list[Case]) -> None:
    """PROTO-19 An error answer where an output is expected is `errored`; the right error passes."""
    run = run_suite(cases, fake("errors", "invalid_input"), FAST)
    assert_accounted(run)
    got = statuses(run)
    assert got.pop("tiny/length/not-a-string") == "passed"
    assert set(got.values()) == {"errored"}


def test_wrong_error_kind_is_failed(cases: list[Case]) -> None:
    """PROTO-19 An error of another kind than the expected one is `failed`."""
    run = run_suite(cases, fake("errors", "index_error"), FAST)
    result = run.results[2]
    assert result.status == "failed"
    assert result.mismatch is not None
    assert (result.mismatch.expected, result.mismatch.actual) == ("invalid_input", "index_error")


def test_internal_error_is_errored_even_where_an_error_is_expected(cases: list[Case]) -> None:
    """PROTO-10 `internal_error` is the adapter's own bug: always `errored`."""
    run = run_suite(cases, fake("errors", "internal_error"), FAST)
    assert_accounted(run)
    assert set(statuses(run).values()) == {"errored"}


def test_wrong_output_is_failed_with_the_first_differing_field(cases: list[Case]) -> None:
    """PROTO-19 A wrong output, or an output where an error is expected, is `failed`."""
    run = run_suite(cases, fake("always_wrong"), FAST)
    assert_accounted(run)
    assert set(statuses(run).values()) == {"failed"}
    upper = run.results[4]
    assert upper.mismatch is not None
    assert (upper.mismatch.path, upper.mismatch.expected, upper.mismatch.actual) == (
        "/normalised",
        "ÉTÉ",
        "?",
    )


def test_undeclared_operation_or_capability_is_not_applicable(cases: list[Case]) -> None:
    """PROTO-7 A case whose op or capability the hello lacks is `not_applicable`, with why."""
    run = run_suite(cases, fake("missing_op"), FAST)
    assert_accounted(run)
    got = statuses(run)
    assert [got[i] for i in IDS[:3]] == ["passed"] * 3
    assert [got[i] for i in IDS[3:]] == ["not_applicable"] * 3
    assert "operation 'normalise' is not declared" in (run.results[3].message or "")
    assert run.ok


def test_capability_missing_alone_is_not_applicable(cases: list[Case]) -> None:
    """PROTO-7 A declared op with an undeclared `requires` capability is `not_applicable`."""
    cap_case = dataclasses.replace(cases[0], requires=("embedder:none",))
    run = run_suite([cap_case], fake("good"), FAST)
    assert run.results[0].status == "not_applicable"
    assert "capability 'embedder:none'" in (run.results[0].message or "")


def test_timings_are_never_compared(cases: list[Case]) -> None:
    """PROTO-20 `timings` keys in an output are dropped before comparison."""
    run = run_suite(cases, fake("with_timings"), FAST)
    assert set(statuses(run).values()) == {"passed"}


def test_session_starts_with_hello_and_ends_with_bye(cases: list[Case], tmp_path: Path) -> None:
    """PROTO-5 The first message is hello; PROTO-12 the last one is bye."""
    log = tmp_path / "log.jsonl"
    run_suite(cases, fake("recorder", str(log)), FAST)
    lines = [json.loads(x) for x in log.read_text(encoding="utf-8").splitlines()]
    messages = [m for m in lines if "type" in m]
    assert messages[0] == {"type": "hello", "protocol": 1}
    assert messages[-1] == {"type": "bye"}


def test_seq_increases_across_restarts(cases: list[Case], tmp_path: Path) -> None:
    """PROTO-8 seq numbers strictly increase over the whole run, restarts included."""
    log = tmp_path / "log.jsonl"
    session = AdapterSession(fake("recorder", str(log)), FAST)
    try:
        for case in cases:
            assert session.run_case(case).status == "passed"
            session.kill_adapter()  # the next case needs a fresh process
    finally:
        session.close()
    lines = [json.loads(x) for x in log.read_text(encoding="utf-8").splitlines()]
    seqs = [m["seq"] for m in lines if m.get("type") == "run"]
    assert len(seqs) == len(cases)
    assert seqs == sorted(set(seqs))
    assert session.restarts == len(cases) - 1


def test_adapter_ignoring_bye_is_killed(cases: list[Case], tmp_path: Path) -> None:
    """PROTO-12 An adapter that does not exit after bye is killed after the grace period."""
    log = tmp_path / "log.jsonl"
    run = run_suite(cases[:1], fake("recorder", str(log), "ignore-bye"), FAST)
    assert run.ok
    pid = json.loads(log.read_text(encoding="utf-8").splitlines()[0])["pid"]
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


def test_every_fault_leaves_a_complete_run(cases: list[Case]) -> None:
    """PROTO-13 Whatever the adapter does, each selected case gets exactly one outcome."""
    for argv in (fake("crash_always"), fake("garbage_hello"), fake("exit_in_handshake")):
        run = run_suite(cases, argv, dataclasses.replace(FAST, restart_budget=1))
        assert_accounted(run)


@pytest.mark.parametrize("where", ["value", "key"])
def test_lone_surrogate_is_a_protocol_violation_and_the_report_is_written(
    cases: list[Case], tmp_path: Path, where: str
) -> None:
    """PROTO-2, PROTO-16 An unpaired surrogate escape in an answer is a `protocol_violation` of
    that case; the text and JSON reports are still written (no UnicodeEncodeError)."""
    from conformance import cli
    from conformance.reports import report

    run = run_suite(cases, fake("lone_surrogate", where), FAST)
    assert_accounted(run)
    got = statuses(run)
    normalise = [i for i in IDS if i.startswith("tiny/normalise/") and i in got]
    violated = {i for i in normalise if got[i] == "protocol_violation"}
    assert violated == set(normalise) and len(violated) >= 2
    assert "unpaired surrogate" in (run.results[IDS.index("tiny/normalise/spaces")].message or "")
    assert all(got[i] == "passed" for i in IDS if i.startswith("tiny/length/"))

    golden = write_tiny_golden(tmp_path / "golden")
    path = tmp_path / "report.json"
    adapter = " ".join(fake("lone_surrogate", where))
    argv = ["run", "--golden", str(golden), "--adapter", adapter, "--quiet",
            "--timeout", "0.5", "--report-json", str(path)]
    assert cli.main(argv) == 1
    document = report.load(path)
    by_id = {c["id"]: c for c in document["cases"]}
    assert by_id["tiny/normalise/spaces"]["status"] == "protocol_violation"


def test_report_writer_escapes_a_lone_surrogate_instead_of_crashing(tmp_path: Path) -> None:
    """PROTO-26 Should a lone surrogate reach the report writer at all, it is written as an
    escape: the report stays valid JSON and the writer does not raise."""
    from conformance.reports import report

    run = run_suite([], fake("good"), FAST)
    document = report.build(run, report.SuiteInfo("1.0.0", 0, "golden"))
    document["warnings"] = ["a\ud800b"]
    path = tmp_path / "report.json"
    report.write_json(path, document)
    assert "\\ud800" in path.read_text(encoding="utf-8")


TRACE_YAML = """\
op: search
cases:
  - id: tiny/search/partial-results-only
    description: A partial case that lists only the results; the trace is still validated.
    clauses: [PROTO-32]
    input: {request: {query: kubernetes, mode: bm25}, backends: {}}
    expect:
      compare: partial
      output: {results: []}
"""


@pytest.mark.parametrize(
    ("how", "pointer"),
    [
        ("valid", None),
        ("missing", "/trace"),
        ("wrong-type", "/trace/fusion/k"),
        ("extra-field", "/trace/bm25"),
        ("not-an-object", "/trace"),
    ],
)
def test_invalid_trace_fails_the_case_even_when_partial(
    tmp_path: Path, how: str, pointer: str | None
) -> None:
    """PROTO-32, TRACE-1 A trace that fails schemas/trace.schema.json (or is missing) makes
    the case `failed`, naming the schema and the JSON pointer, although the partial case
    compares only `results`."""
    from conformance.adapters.ops import registry

    case_file = tmp_path / "golden" / "pipeline" / "trace.yaml"
    case_file.parent.mkdir(parents=True)
    case_file.write_text(TRACE_YAML, encoding="utf-8")
    (case,) = load_all(case_files(tmp_path / "golden"))
    stored = tmp_path / "output.json"
    stored.write_text(json.dumps(registry()["search"](case.input)), encoding="utf-8")
    (result,) = run_suite([case], fake("bad_trace", str(stored), how), FAST).results
    if pointer is None:
        assert result.status == "passed", result.message
        return
    assert result.status == "failed"
    assert result.mismatch is not None and result.mismatch.path == pointer
    assert "schemas/trace.schema.json" in (result.message or "")
