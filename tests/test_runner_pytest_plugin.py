"""The pytest plugin: golden cases as test items, only when --hrc-adapter is given."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest
from fake_adapters.support import fake, write_tiny_golden

from conformance.judging.authority import index_for

pytest_plugins = ["pytester"]
#: Inner runs skip unrelated heavy plugins (hypothesis imports itself at session end).
QUIET = ("-p", "no:cacheprovider", "-p", "no:hypothesispytest", "-p", "no:syrupy")


def test_without_the_option_the_plugin_adds_nothing(pytester: pytest.Pytester) -> None:
    """A normal pytest run collects only its own tests."""
    pytester.makepyfile("def test_one():\n    assert True\n")
    result = pytester.runpytest(*QUIET)
    result.assert_outcomes(passed=1)


def test_cases_become_items_with_failures_and_explicit_skips(
    pytester: pytest.Pytester, tmp_path: Path
) -> None:
    """PROTO-7 Not-applicable cases are visible skips with the reason; failures show the field."""
    golden = write_tiny_golden(tmp_path)
    adapter = shlex.join(fake("missing_op", "tiny/length/astral"))
    result = pytester.runpytest(
        *QUIET, "-rs", "--hrc-adapter", adapter, f"--hrc-golden={golden}"
    )
    # The first item is the data check: this fake reports no dataFiles, so it warns (PROTO-30).
    result.assert_outcomes(passed=3, failed=1, skipped=3, warnings=1)
    result.stdout.fnmatch_lines(
        [
            "*FAILED [[]failed[]] tiny/length/astral*",
            # PROTO-48: the clause with its authority, as in `hrc run`'s failure block
            f"*clauses:  TEXT-8 [[]{index_for()['TEXT-8']}[]]*",
            "*at /length: integer differs*",
            "*not applicable: operation 'normalise' is not declared by the adapter*",
        ]
    )


def test_expected_failures_become_strict_xfail(
    pytester: pytest.Pytester, tmp_path: Path
) -> None:
    """PROTO-22 Listed cases are strict xfail: failing is xfailed, passing fails the session."""
    golden = write_tiny_golden(tmp_path)
    listed = tmp_path / "xf.yaml"
    listed.write_text(
        "- id: tiny/length/astral\n  reason: known\n- id: tiny/length/ascii\n  reason: stale\n",
        encoding="utf-8",
    )
    adapter = shlex.join(fake("missing_op", "tiny/length/astral"))
    result = pytester.runpytest(
        *QUIET, "--hrc-adapter", adapter, "--hrc-golden", str(golden),
        "--hrc-expected-failures", str(listed), "-k", "length",
    )
    result.assert_outcomes(passed=1, failed=1, xfailed=1)


def test_failure_summary_names_the_first_differing_field(
    pytester: pytest.Pytester, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """PROTO-7 The short summary line of a failing case names its status and the field."""
    monkeypatch.setenv("COLUMNS", "300")  # pytest cuts summary lines at the terminal's width
    golden = write_tiny_golden(tmp_path)
    adapter = shlex.join(fake("missing_op", "tiny/length/astral"))
    result = pytester.runpytest(
        *QUIET, "-rf", "--hrc-adapter", adapter, "--hrc-golden", str(golden), "-k", "length"
    )
    result.assert_outcomes(passed=2, failed=1)
    result.stdout.fnmatch_lines(
        ["FAILED *tiny/length/astral - [[]failed[]] at /length: integer differs*expected 3, got *"]
    )


def test_hrc_only_runs_the_golden_cases_without_collecting_test_files(
    pytester: pytest.Pytester, tmp_path: Path
) -> None:
    """From another repository: `--hrc-only` runs the cases alone; no test module is imported."""
    golden = write_tiny_golden(tmp_path)
    pytester.makepyfile(
        test_mine="def test_mine():\n    assert True\n",
        test_broken="raise RuntimeError('this module must not be imported')\n",
    )
    adapter = shlex.join(fake("good"))
    result = pytester.runpytest(
        *QUIET, "--hrc-adapter", adapter, "--hrc-golden", str(golden), "--hrc-only"
    )
    outcomes = result.parseoutcomes()
    assert "errors" not in outcomes and outcomes.get("failed", 0) == 0
    result.stdout.no_fnmatch_line("*test_mine*")
    # Without the flag the port's own tests run beside the cases (the broken one errors).
    result = pytester.runpytest(*QUIET, "--hrc-adapter", adapter, "--hrc-golden", str(golden))
    assert result.parseoutcomes().get("errors") == 1


def test_hrc_only_without_an_adapter_is_a_usage_error(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest(*QUIET, "--hrc-only")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*hrc: --hrc-only needs --hrc-adapter CMD*"])


@pytest.mark.slow
def test_a_separate_adapter_path_that_moves_the_rootdir_is_named_with_the_fix(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 38: `--hrc-adapter ../sdk/adapter` rooted pytest at the common parent of the two
    folders (pytest reads the value as a test path before the plugin loads). The run warns
    with the fix; `--hrc-adapter=PATH` roots pytest where it runs, without the warning."""
    from conformance.commands import init_port as scaffold

    port = pytester.path / "port"
    port.mkdir()
    scaffold.init_port("python", pytester.path / "sdk")
    (port / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    adapter = str(pytester.path / "sdk" / "adapter")
    monkeypatch.chdir(port)
    moved = pytester.runpytest("-p", "no:cacheprovider", "--hrc-adapter", adapter, "--hrc-only",
                               "--collect-only", "-q")
    assert f"instead of {port}" in "\n".join(moved.outlines)
    assert "write --hrc-adapter=CMD, --hrc-golden=DIR (with '=')" in "\n".join(moved.outlines)
    kept = pytester.runpytest("-p", "no:cacheprovider", f"--hrc-adapter={adapter}", "--hrc-only",
                              "--collect-only", "-q")
    assert kept.ret == pytest.ExitCode.OK
    assert "write --hrc-adapter=CMD" not in "\n".join(kept.outlines)
    assert not any(line.startswith("..") for line in kept.outlines)
