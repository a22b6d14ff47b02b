"""Hostile adapters (issue 16): the run finishes within a wall-clock bound, every case gets
exactly one outcome, the right case is charged, a report is written, no process is left.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from fake_adapters.support import FAST, IDS, assert_accounted, fake, statuses, write_tiny_golden

from conformance.judging.cases import Case, case_files, load_all
from conformance.reports import report
from conformance.running.runner import run_suite


@pytest.fixture
def cases(tmp_path: Path) -> list[Case]:
    return load_all(case_files(write_tiny_golden(tmp_path)))


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie waiting for its (gone) parent counts as gone
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return True


def no_leftovers(pid_file: Path) -> None:
    pids = [int(p) for p in pid_file.read_text().split()] if pid_file.exists() else []
    assert pids, "the fake never started its detached child"
    deadline = time.monotonic() + 3
    while any(alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = [p for p in pids if alive(p)]
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert not left, f"processes left behind: {left}"


def run_cli(tmp_path: Path, adapter: list[str], *extra: str) -> tuple[int, float, str]:
    """`hrc run` in a subprocess (a real terminal-less run), with its wall-clock time."""
    golden = write_tiny_golden(tmp_path / "cli")
    path = tmp_path / "report.json"
    argv = [sys.executable, "-m", "conformance.cli", "run", "--golden", str(golden),
            "--adapter", subprocess.list2cmdline(adapter) if os.name != "posix"
            else " ".join(adapter), "--quiet", "--timeout", "0.5",
            "--handshake-timeout", "2", "--report-json", str(path), *extra]
    started = time.monotonic()
    done = subprocess.run(argv, capture_output=True, text=True, timeout=60, check=False)
    elapsed = time.monotonic() - started
    assert path.exists(), done.stderr
    report.load(path)
    return done.returncode, elapsed, done.stdout


@pytest.mark.skipif(os.name != "posix", reason="setsid is POSIX")
def test_detached_descendant_holding_stdout_cannot_hang_the_handshake(
    cases: list[Case], tmp_path: Path
) -> None:
    """PROTO-13, PROTO-34 A setsid'd descendant that keeps stdout open after the adapter exits
    neither hangs the run nor survives it (the issue's `setsid sleep 20 & sleep 1`)."""
    pids = tmp_path / "pids"
    started = time.monotonic()
    run = run_suite(cases, fake("detached_holder", "start", str(pids)), FAST)
    elapsed = time.monotonic() - started
    assert_accounted(run)
    assert elapsed < 12, f"took {elapsed:.1f} s"
    assert set(statuses(run).values()) == {"not_run"}  # PROTO-40: the handshake never succeeded
    assert run.aborted is not None and "(crashed)" in run.aborted[0]
    no_leftovers(pids)


@pytest.mark.skipif(os.name != "posix", reason="setsid is POSIX")
def test_parent_exit_with_a_child_holding_stdout_is_crashed_not_timed_out(
    cases: list[Case], tmp_path: Path
) -> None:
    """PROTO-14, PROTO-34 The adapter exits mid-case while a detached child keeps its stdout:
    that case is `crashed` (not `timed_out`), the rest pass, the child is killed."""
    pids = tmp_path / "pids"
    slow = FAST.__class__(**{**FAST.__dict__, "timeout": 10.0})
    started = time.monotonic()
    run = run_suite(cases, fake("detached_holder", "case", "tiny/length/astral", str(pids)), slow)
    assert time.monotonic() - started < 8
    assert_accounted(run)
    got = statuses(run)
    assert got.pop("tiny/length/astral") == "crashed"
    assert set(got.values()) == {"passed"}
    no_leftovers(pids)


@pytest.mark.skipif(os.name != "posix", reason="setsid is POSIX")
def test_detached_holder_through_the_cli_writes_a_report_in_seconds(tmp_path: Path) -> None:
    """PROTO-13 PROTO-40 The issue's repro through `hrc run`: exit 2 (the adapter never
    started), report written, seconds."""
    code, elapsed, _ = run_cli(tmp_path, fake("detached_holder", "start", str(tmp_path / "p")))
    assert code == 2
    assert elapsed < 15
    no_leftovers(tmp_path / "p")


def test_exit_right_after_each_answer_charges_no_case(cases: list[Case]) -> None:
    """PROTO-14 An adapter that exits the instant it has answered is restarted between cases;
    the next case is never charged (no waiting in the test: the race is the point)."""
    for _ in range(3):
        run = run_suite(cases, fake("exit_each"), FAST)
        assert_accounted(run)
        assert set(statuses(run).values()) == {"passed"}, statuses(run)


@pytest.mark.parametrize("which", ["tiny/length/astral", IDS[-1]])
def test_double_answer_charges_the_case_that_was_answered_twice(
    cases: list[Case], which: str
) -> None:
    """PROTO-8, PROTO-35 An unasked-for second answer is a `protocol_violation` of the case it
    answered twice, also after the last case; no other case is charged."""
    run = run_suite(cases, fake("double_answer", which), FAST)
    assert_accounted(run)
    got = statuses(run)
    assert got.pop(which) == "protocol_violation"
    assert set(got.values()) == {"passed"}, got
    assert "second answer" in (run.results[IDS.index(which)].message or "")


@pytest.mark.parametrize("which", [IDS[1], IDS[4]])
def test_an_answer_to_the_previous_case_instead_of_this_one_charges_both(
    cases: list[Case], which: str
) -> None:
    """PROTO-35 An adapter that answers case N with case N-1's answer (seq N-1) and nothing
    else: N is `timed_out`, and N-1, answered twice, is a `protocol_violation` (before: N-1
    stayed `passed`, the second answer dropped with the timeout; issue 39 item 6)."""
    run = run_suite(cases, fake("replay_previous", which), FAST)
    assert_accounted(run)
    got = statuses(run)
    before = IDS[IDS.index(which) - 1]
    assert got.pop(which) == "timed_out"
    assert got.pop(before) == "protocol_violation"
    assert "second answer" in (run.results[IDS.index(before)].message or "")
    assert set(got.values()) == {"passed"}, got


@pytest.mark.parametrize("kind", ["bigint", "deep", "inf"])
def test_answers_beyond_the_decode_bounds_are_protocol_violations(
    cases: list[Case], tmp_path: Path, kind: str
) -> None:
    """PROTO-2, PROTO-16, PROTO-36 An integer of 400 digits, arrays nested 600 deep and 1e400
    are protocol violations at decode; the run goes on and the report is written."""
    run = run_suite(cases, fake("hostile_json", kind), FAST)
    assert_accounted(run)
    got = statuses(run)
    assert all(got[i] == "protocol_violation" for i in IDS if i.startswith("tiny/normalise/"))
    assert all(got[i] == "passed" for i in IDS if i.startswith("tiny/length/"))
    code, _, _ = run_cli(tmp_path, fake("hostile_json", kind))
    assert code == 1


def test_control_and_ansi_escapes_in_adapter_text_are_shown_escaped(tmp_path: Path) -> None:
    """PROTO-37 Raw adapter text (error messages, stderr) reaches the terminal, CI logs and
    JUnit with control and ANSI/OSC escapes shown escaped: it cannot forge the footer."""
    golden = write_tiny_golden(tmp_path / "g")
    junit_path = tmp_path / "junit.xml"
    adapter = " ".join(fake("forger"))
    argv = [sys.executable, "-m", "conformance.cli", "run", "--golden", str(golden),
            "--adapter", adapter, "--timeout", "2", "--junit", str(junit_path)]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 1
    for stream in (done.stdout, done.stderr, junit_path.read_text(encoding="utf-8")):
        assert "\x1b" not in stream and "\r" not in stream and "\x07" not in stream
    footers = [ln for ln in done.stdout.splitlines() if ln.startswith("hrc: ")]
    assert len(footers) == 1 and "6 passed" not in footers[0], done.stdout
    assert "\\u001b[" in done.stdout


def test_large_answers_are_kept_as_prefix_and_hash(cases: list[Case], tmp_path: Path) -> None:
    """PROTO-39 A large legal answer (here 4 MiB, wrong) is kept by the result and the report
    as a prefix, its size and its SHA-256; messages and mismatch values are cut with a hash."""
    slow = FAST.__class__(**{**FAST.__dict__, "timeout": 10.0})
    run = run_suite(cases, fake("big_answer", "4"), slow)
    assert_accounted(run)
    big = run.results[IDS.index("tiny/normalise/spaces")]
    assert big.status == "failed"
    assert big.response is not None
    kept = big.response["output"]["hrc:truncated"]
    assert kept["bytes"] > 4 * 1024 * 1024 and len(kept["sha256"]) == 64
    assert len(repr(big.response)) < 10_000
    assert len(big.message or "") < 10_000 and "sha256" in (big.message or "")
    assert big.mismatch is not None and len(repr(big.mismatch)) < 20_000
    code, _, _ = run_cli(tmp_path, fake("big_answer", "4"), "--timeout", "10")
    assert code == 1
    assert (tmp_path / "report.json").stat().st_size < 200_000


#: Every scenario of the issue's table: (name, fake argv after the script, expected outcome of
#: the case it targets, or None when every case passes). `PIDS` is replaced by a file path.
A = "tiny/length/astral"
SCENARIOS = [
    ("good", ["good"], None),
    ("crash-on", ["crash_on", A], "crashed"),
    ("crash-always", ["crash_always"], "crashed"),
    ("hang-on", ["hang_on", A], "timed_out"),
    ("garbage", ["garbage", A], "protocol_violation"),
    ("garbage-hello", ["garbage_hello"], "not_run"),
    ("exit-in-handshake", ["exit_in_handshake"], "not_run"),
    ("wrong-seq", ["wrong_seq", A], "protocol_violation"),
    ("oversize", ["oversize", A, str(17 * 1024 * 1024)], "protocol_violation"),
    ("stderr-spam", ["stderr_spam"], None),
    ("double-answer", ["double_answer", A], "protocol_violation"),
    ("double-answer-last", ["double_answer", IDS[-1]], None),
    ("exit-each", ["exit_each"], None),
    ("deep", ["hostile_json", "deep"], None),
    ("bigint", ["hostile_json", "bigint"], None),
    ("inf", ["hostile_json", "inf"], None),
    ("surrogate", ["lone_surrogate", "value"], None),
    ("detached-start", ["detached_holder", "start", "PIDS"], "not_run"),
    ("detached-mid-case", ["detached_holder", "case", A, "PIDS"], "crashed"),
    ("forger", ["forger"], None),
    ("big-answer", ["big_answer", "2"], None),
]


def _marked_processes(marker: str) -> list[int]:
    """Live processes whose environment carries `marker` (ours, so /proc lets us read it)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as env:
                if marker.encode() in env.read() and alive(int(entry)):
                    found.append(int(entry))
        except OSError:
            continue
    return found


@pytest.mark.slow
@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs /proc")
@pytest.mark.parametrize(("name", "script", "target"), SCENARIOS, ids=[s[0] for s in SCENARIOS])
def test_every_scenario_finishes_accounts_reports_and_leaves_nothing(
    tmp_path: Path, name: str, script: list[str], target: str | None
) -> None:
    """PROTO-13, PROTO-26, PROTO-34 For every hostile scenario `hrc run` finishes within a
    wall-clock bound, gives each case one outcome, writes a valid report and leaves no
    process behind (a marker in the environment finds any survivor, detached or not)."""
    marker = f"HRC_FAULT_MARKER={os.getpid()}-{name}"
    argv_script = [str(tmp_path / "pids") if a == "PIDS" else a for a in script]
    golden = write_tiny_golden(tmp_path / "cli")
    path = tmp_path / "report.json"
    env = {**os.environ, marker.split("=")[0]: marker.split("=")[1]}
    argv = [sys.executable, "-m", "conformance.cli", "run", "--golden", str(golden),
            "--adapter", " ".join(fake(*argv_script)), "--quiet", "--timeout", "2",
            "--handshake-timeout", "2", "--restart-budget", "6", "--report-json", str(path)]
    started = time.monotonic()
    done = subprocess.run(argv, capture_output=True, text=True, timeout=120, check=False,
                          env=env)
    elapsed = time.monotonic() - started
    assert elapsed < 45, f"{name} took {elapsed:.1f} s"
    expected_codes = (2,) if target == "not_run" else (0, 1)  # PROTO-40: it never started
    assert done.returncode in expected_codes, done.stderr[-2000:]
    document = report.load(path)
    assert [c["id"] for c in document["cases"]] == IDS
    assert document["summary"]["total"] == len(IDS)
    if target is not None:
        status = {c["id"]: c["status"] for c in document["cases"]}
        assert target in status.values(), status
    time.sleep(0.2)
    left = _marked_processes(marker.split("=")[1])
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert not left, f"{name}: processes left behind: {left}"
