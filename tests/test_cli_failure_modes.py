"""Every way a run can be asked to lie, and the one line it answers with instead (issue 15).

Each failure mode runs `hrc` and asserts the exit status and the single error line on stderr:
`hrc COMMAND: error: ...` (PROTO-44). A run whose adapter never started accounts for every
case as not run (PROTO-40); a suite that names nothing real is an error (PROTO-41).
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import pytest
from fake_adapters.support import IDS, fake, write_tiny_golden

from conformance import cli
from conformance.reports import report

ERROR_LINE = re.compile(r"^hrc( [a-z]+( [a-z]+)?)?: error: \S")


@pytest.fixture
def golden(tmp_path: Path) -> Path:
    return write_tiny_golden(tmp_path)


def run_argv(golden: Path, adapter: list[str] | str, *extra: str) -> list[str]:
    command = adapter if isinstance(adapter, str) else shlex.join(adapter)
    return ["run", "--golden", str(golden), "--adapter", command, "--timeout", "2",
            "--handshake-timeout", "2", "--quiet", *extra]


def one_error(capsys: pytest.CaptureFixture[str], argv: list[str], status: int = 2) -> str:
    """Run `hrc argv`; assert the exit status and exactly one error line; return it."""
    try:
        code = cli.main(argv)
    except SystemExit as exc:  # argparse usage errors exit through OneLineParser
        code = int(exc.code or 0)
    err = capsys.readouterr().err
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert code == status, err
    assert len(lines) == 1, err
    assert ERROR_LINE.match(lines[0]), lines[0]
    return lines[0]


# -- PROTO-40: an adapter that cannot be used is one error, every case not run, exit 2 ------


def test_profile_lines_count_unrun_cases_as_not_run(capsys: pytest.CaptureFixture[str]) -> None:
    """PROTO-40, PROFILE-6 On the shipped suite, an adapter that cannot start leaves each
    profile's cases not run, never failed (the footer already says so)."""
    assert cli.main(["run", "--quiet", "--adapter", "no-such-binary", "--timeout", "2"]) == 2
    lines = [ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("  profile ")]
    assert lines
    for line in lines:
        assert re.search(r": 0 passed, 0 failed, 0 skipped, [1-9][0-9]* not run$", line), line


def test_missing_adapter_program_is_one_error_and_every_case_not_run(
    golden: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """PROTO-40 `--adapter no-such-binary`: one line with the cause, 6 cases not run, exit 2;
    the report accounts for every case as not_run."""
    out_json = tmp_path / "r.json"
    out_xml = tmp_path / "j.xml"
    code = cli.main(run_argv(golden, "no-such-binary", "--report-json", str(out_json),
                             "--junit", str(out_xml)))
    captured = capsys.readouterr()
    assert code == 2
    err = captured.err.strip().splitlines()
    assert len(err) == 1
    assert err[0].startswith("hrc run: error: adapter handshake failed after 1 attempt(s)")
    assert "cannot start adapter 'no-such-binary'" in err[0]
    assert err[0].endswith("; 6 selected cases not run")
    assert captured.out.splitlines()[-1] == "hrc: 0 passed, 0 failed, 0 skipped, 6 not run"
    assert "FAILED" not in captured.out
    document = report.load(out_json)
    assert [c["status"] for c in document["cases"]] == ["not_run"] * len(IDS)
    assert document["summary"]["not_run"] == 6 and document["summary"]["ok"] is False
    assert "cannot start adapter" in document["aborted"]["message"]
    suite = ET.parse(out_xml).getroot()[0]
    assert suite.get("errors") == "1" and suite.get("skipped") == "6"
    (start,) = [tc for tc in suite if tc.get("name") == "hrc-adapter-start"]
    assert "cannot start adapter" in start[0].get("message", "")


def test_failed_handshake_shows_the_cause_and_the_stderr_tail_once(
    golden: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """PROTO-40 PROTO-17 A handshake failing every attempt: the error line, then the adapter's
    stderr tail once (not once per case), then the footer."""
    code = cli.main(run_argv(golden, fake("exit_in_handshake")))
    captured = capsys.readouterr()
    assert code == 2
    assert captured.err.count("error:") == 1
    assert "handshake failed after 3 attempt(s) (crashed)" in captured.err
    assert captured.out.count("fake: cannot load my configuration") == 1
    assert captured.out.rstrip().endswith("6 not run")


def test_unknown_operation_in_a_hello_is_an_error(
    golden: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """PROTO-41 A hello declaring an operation the spec does not define (`rff`) stops the run."""
    line = one_error(capsys, run_argv(golden, fake("unknown_op")))
    assert "unknown operation(s) 'rff'" in line


# -- PROTO-41: nothing to run is an error, never a green 0 passed ----------------------------


def _empty(tmp_path: Path) -> Path:
    folder = tmp_path / "empty"
    folder.mkdir()
    return folder


def _unknown_op(tmp_path: Path) -> Path:
    folder = tmp_path / "typo"
    (folder / "stage").mkdir(parents=True)
    (folder / "stage" / "cases.yaml").write_text(
        "op: rff\ncases:\n- id: typo/rff/one\n"
        "  description: A typo in the operation name.\n  clauses: [RRF-1]\n"
        "  input: {lists: []}\n  expect: {output: {results: []}}\n",
        encoding="utf-8",
    )
    return folder


GOLDEN_PROBLEMS: list[tuple[str, Callable[[Path], Path], str]] = [
    ("missing", lambda tmp: tmp / "does-not-exist", "golden directory does not exist"),
    ("empty", _empty, "golden directory holds no case file (*.yaml)"),
    ("unknown-op", _unknown_op, "stage/cases.yaml:1: unknown operation 'rff'"),
]


@pytest.mark.parametrize("command", [
    ["run"], ["regen", "--check"], ["bundle", "-o", "-"], ["list"],
])
@pytest.mark.parametrize(("name", "make", "message"), GOLDEN_PROBLEMS,
                         ids=[p[0] for p in GOLDEN_PROBLEMS])
def test_a_golden_folder_without_real_cases_is_an_error_everywhere(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str], name: str,
    make: Callable[[Path], Path], message: str,
) -> None:
    """PROTO-41 A missing or empty `--golden`, or a case file naming an unknown `op`, exits 2
    for `hrc run`, `hrc regen --check`, `hrc bundle` and `hrc list`."""
    line = one_error(capsys, [*command, "--golden", str(make(tmp_path))])
    assert line.startswith(f"hrc {command[0]}: error: ")
    assert message in line


def test_pytest_plugin_refuses_an_empty_golden_folder(tmp_path: Path) -> None:
    """PROTO-41 The pytest plugin stops with a usage error on an empty `--hrc-golden`."""
    empty = _empty(tmp_path)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(empty),
         "--hrc-adapter", shlex.join(fake("good")), "--hrc-golden", str(empty)],
        capture_output=True, text=True, timeout=120, check=False, cwd=tmp_path,
    )
    assert done.returncode == 4, done.stdout + done.stderr  # pytest's usage-error status
    assert "golden directory holds no case file" in done.stderr


def test_pytest_plugin_stops_once_when_the_adapter_cannot_start(
    golden: Path, tmp_path: Path
) -> None:
    """PROTO-40 Through the pytest plugin too, a missing adapter is one error and exit 2."""
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(golden),
         "--hrc-adapter", "no-such-binary", "--hrc-golden", str(golden)],
        capture_output=True, text=True, timeout=120, check=False, cwd=tmp_path,
    )
    text = done.stdout + done.stderr
    assert done.returncode == 2, text
    assert text.count("cannot start adapter 'no-such-binary'") == 1, text


def test_select_matching_nothing_is_an_error(
    golden: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """PROTO-23 PROTO-41 A `--select` that matches nothing exits 2."""
    line = one_error(capsys, run_argv(golden, fake("good"), "--select", "tiny/nope"))
    assert line == "hrc run: error: --select 'tiny/nope' matches no case"


# -- PROTO-44: bad paths, quoting and arguments are one line, exit 2, before the run ---------


def test_unbalanced_quote_in_adapter_is_one_line(
    golden: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """PROTO-44 `--adapter "'unbalanced"` cannot be split: one line, exit 2."""
    line = one_error(capsys, run_argv(golden, "'unbalanced"))
    assert "cannot split the command line: No closing quotation" in line


def test_bundle_into_a_missing_folder_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """PROTO-44 `hrc bundle -o missing/x.json` exits 2 naming the missing folder."""
    line = one_error(capsys, ["bundle", "-o", str(tmp_path / "missing" / "x.json")])
    assert line.startswith("hrc bundle: error: -o ") and "does not exist" in line


@pytest.mark.parametrize("option", ["--report-json", "--junit", "--update-expected-failures"])
@pytest.mark.parametrize("where", ["missing-folder", "a-directory"])
def test_unwritable_output_is_refused_before_the_suite_runs(
    golden: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], option: str, where: str
) -> None:
    """PROTO-44 An output that cannot be written is refused before the adapter starts."""
    marker = tmp_path / "adapter-started"
    target = tmp_path / "missing" / "out" if where == "missing-folder" else tmp_path
    adapter = f"sh -c {shlex.quote(f'touch {marker}; exit 1')}"
    line = one_error(capsys, run_argv(golden, adapter, option, str(target)))
    assert line.startswith(f"hrc run: error: {option} ")
    assert not marker.exists(), "the adapter was started before the output was checked"


def test_full_disk_is_one_line(tmp_path: Path) -> None:
    """PROTO-44 Output to a full disk (/dev/full) is one error line and exit 2, no traceback."""
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full on this system")
    with open("/dev/full", "w", encoding="utf-8") as full:
        done = subprocess.run([sys.executable, "-m", "conformance.cli", "list"], stdout=full,
                              stderr=subprocess.PIPE, text=True, timeout=60, check=False)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert lines == ["hrc list: error: cannot write the output: no space left on device "
                     "(the disk is full)"], done.stderr


@pytest.mark.parametrize(("argv", "needle"), [
    (["run", "--bogus"], "hrc run: error: unrecognized arguments: --bogus"),
    (["run", "--timeout", "x"], "hrc run: error: argument --timeout: not a number: 'x'"),
    (["run", "--maxfail", "0"], "hrc run: error: argument --maxfail: must be >= 1"),
    (["nosuch"], "hrc: error: argument COMMAND: invalid choice: 'nosuch'"),
])
def test_bad_arguments_are_one_line_without_usage(
    capsys: pytest.CaptureFixture[str], argv: list[str], needle: str
) -> None:
    """PROTO-44 argparse errors are one `hrc COMMAND: error:` line, not a usage block."""
    line = one_error(capsys, argv)
    assert line.startswith(needle), line


# -- PROTO-42: coverage can fail a run --------------------------------------------------------


def test_require_all_fails_a_run_with_not_applicable_cases(
    golden: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """PROTO-42 `--require all` fails (exit 1) a run where a case is not applicable; the footer
    counts the unmet requirement so it never says 0 failed."""
    code = cli.main(run_argv(golden, fake("missing_op"), "--require", "all"))
    out = capsys.readouterr().out
    assert code == 1
    assert "REQUIREMENT NOT MET" in out
    assert "--require all: 3 case(s) not applicable" in out
    assert out.splitlines()[-1] == "hrc: 3 passed, 1 failed, 3 skipped"


@pytest.mark.parametrize(("requirement", "met"), [
    ("op:length", True), ("op:normalise", False), ("sqlite-fts5", False),
    ("stage:lengths", True), ("stage:text", False), ("op:length,stage:lengths", True),
])
def test_require_operations_capabilities_and_stages(
    golden: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], requirement: str,
    met: bool,
) -> None:
    """PROTO-42 Each kind of requirement; the report records every verdict."""
    out_json = tmp_path / "r.json"
    code = cli.main(run_argv(golden, fake("missing_op"), "--require", requirement,
                             "--report-json", str(out_json)))
    capsys.readouterr()
    assert code == (0 if met else 1)
    document = report.load(out_json)
    assert all(v["met"] == met for v in document["require"]) or not met
    assert document["summary"]["ok"] is met


def test_require_of_an_unknown_name_is_a_usage_error(
    golden: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """PROTO-42 A requirement naming nothing known is exit 2, with a hint for op/stage names."""
    line = one_error(capsys, run_argv(golden, fake("good"), "--require", "length"))
    assert "unknown capability 'length' (for an operation or a stage write op:length" in line


# -- PROTO-45: --update-expected-failures and the placeholder the loader refuses -------------


def test_update_expected_failures_writes_a_file_the_loader_refuses_until_edited(
    golden: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """PROTO-45 A failing run writes every failing case with a placeholder reason; using that
    file is an error until a human replaces the reason; then the run is green (xfail)."""
    listed = tmp_path / "xf.yaml"
    adapter = fake("missing_op", "tiny/length/ascii")
    assert cli.main(run_argv(golden, adapter, "--update-expected-failures", str(listed))) == 1
    capsys.readouterr()
    text = listed.read_text(encoding="utf-8")
    assert "id: tiny/length/ascii" in text and "TODO: say why" in text
    line = one_error(capsys, run_argv(golden, adapter, "--expected-failures", str(listed)))
    assert "still has the placeholder reason" in line
    listed.write_text(text.replace("TODO: say why this case is expected to fail",
                                   "the port counts bytes"), encoding="utf-8")
    assert cli.main(run_argv(golden, adapter, "--expected-failures", str(listed))) == 0


# -- PROTO-40: -x / --maxfail ------------------------------------------------------------------


def test_maxfail_stops_the_run_and_counts_the_rest_as_not_run(
    golden: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """PROTO-40 `-x` stops after the first failing case; the rest are not run; exit 1."""
    code = cli.main(run_argv(golden, fake("always_wrong"), "-x"))
    out = capsys.readouterr().out
    assert code == 1
    match = re.fullmatch(r"hrc: 0 passed, 1 failed, (\d+) skipped, (\d+) not run",
                         out.splitlines()[-1])
    assert match, out
    assert 1 + int(match.group(1)) + int(match.group(2)) == len(IDS)


# -- PROTO-46: hrc diff ---------------------------------------------------------------------


def test_diff_refuses_an_incomplete_report(
    golden: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """PROTO-26 PROTO-46 `hrc diff` of a report without "complete": true exits 2."""
    path = tmp_path / "r.json"
    assert cli.main(run_argv(golden, fake("good"), "--report-json", str(path))) == 0
    capsys.readouterr()
    document = json.loads(path.read_text(encoding="utf-8"))
    del document["complete"]
    cut = tmp_path / "cut.json"
    cut.write_text(json.dumps(document), encoding="utf-8")
    line = one_error(capsys, ["diff", str(path), str(cut)])
    assert "incomplete report" in line and "PROTO-26" in line


def test_adapter_that_cannot_restart_mid_run_stops_the_run(
    golden: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """PROTO-40 PROTO-17 When the adapter crashes and every restart fails its handshake, the
    cases already run keep their outcomes (the crash shown as usual), the rest are not run, and
    the run exits 2 with one error line."""
    adapter = fake("start_once", str(tmp_path / "starts"), IDS[2])
    code = cli.main(run_argv(golden, adapter))
    captured = capsys.readouterr()
    assert code == 2
    err = captured.err.strip().splitlines()
    assert len(err) == 1 and "handshake failed after 3 attempt(s) (crashed)" in err[0]
    assert err[0].endswith("; 3 selected cases not run")
    assert f"FAILED [crashed] {IDS[2]}" in captured.out
    assert captured.out.count("fake: my build went missing") == 1
    assert captured.out.splitlines()[-1] == "hrc: 2 passed, 1 failed, 0 skipped, 3 not run"


def test_a_command_missing_a_library_says_to_install_the_test_extra(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 38: `hrc --help` said `properties (unavailable …)` without saying what to do."""
    import importlib

    from conformance import cli as cli_module

    real = importlib.import_module

    def fake(name: str, package: str | None = None) -> object:
        if name == "conformance.commands.properties":
            raise ModuleNotFoundError("No module named 'hypothesis'", name="hypothesis")
        return real(name, package)

    monkeypatch.setattr(importlib, "import_module", fake)
    parser = cli_module.build_parser()
    assert "[test]" in parser.format_help() and "hypothesis" in parser.format_help()
    assert cli_module.main(["properties"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("hrc properties: error: unavailable: needs the hypothesis library")
    assert "pip install -e '.[test]'" in err and err.count("\n") == 1
