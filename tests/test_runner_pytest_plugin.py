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
        *QUIET, "-rs", "--hrc-adapter", adapter, "--hrc-golden", str(golden)
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
