"""The pytest plugin: golden cases as test items, only when --hrc-adapter is given."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest
from fake_adapters.support import fake, write_tiny_golden

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
