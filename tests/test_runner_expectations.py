"""Expected failures: strict xfail with reasons, and a file that cannot rot."""

from __future__ import annotations

from pathlib import Path

import pytest
from fake_adapters.support import FAST, IDS, fake, write_tiny_golden

from conformance.judging import expectations
from conformance.judging.cases import Case, case_files, load_all
from conformance.judging.expectations import ExpectationsError
from conformance.running.runner import run_suite


@pytest.fixture
def cases(tmp_path: Path) -> list[Case]:
    return load_all(case_files(write_tiny_golden(tmp_path)))


def _load(tmp_path: Path, text: str) -> dict[str, expectations.ExpectedFailure]:
    path = tmp_path / "expected-failures.yaml"
    path.write_text(text, encoding="utf-8")
    return expectations.load(path, IDS)


def test_listed_failure_is_xfail_and_keeps_the_run_green(
    cases: list[Case], tmp_path: Path
) -> None:
    """PROTO-22 A listed case that fails is `xfail`, with the underlying outcome kept."""
    listed = _load(tmp_path, "- id: tiny/length/ascii\n  reason: we count bytes\n")
    run = run_suite(cases, fake("always_wrong"), FAST, listed)
    first = run.results[0]
    assert (first.status, first.underlying) == ("xfail", "failed")
    assert first.expected_failure is not None and first.expected_failure.reason == "we count bytes"


def test_listed_case_that_passes_is_xpass_and_fails_the_run(
    cases: list[Case], tmp_path: Path
) -> None:
    """PROTO-22 A listed case that passes is `xpass`, which fails the run."""
    listed = _load(tmp_path, "- id: tiny/length/ascii\n  reason: fixed since\n")
    run = run_suite(cases, fake("good"), FAST, listed)
    assert run.results[0].status == "xpass"
    assert not run.ok


def test_listed_case_that_is_not_applicable_stays_not_applicable(
    cases: list[Case], tmp_path: Path
) -> None:
    """PROTO-22 Listing a not-applicable case does not turn it into xfail or xpass."""
    listed = _load(tmp_path, "- id: tiny/normalise/upper\n  reason: no folding yet\n")
    run = run_suite(cases, fake("missing_op"), FAST, listed)
    assert run.results[4].status == "not_applicable"


def test_crash_of_a_listed_case_is_xfail(cases: list[Case], tmp_path: Path) -> None:
    """PROTO-22 Any non-passing outcome of a listed case, a crash included, is `xfail`."""
    listed = _load(tmp_path, "- id: tiny/length/astral\n  reason: crashes on astral\n")
    run = run_suite(cases, fake("crash_on", "tiny/length/astral"), FAST, listed)
    assert (run.results[1].status, run.results[1].underlying) == ("xfail", "crashed")
    assert run.ok


def test_link_is_optional_and_kept(tmp_path: Path) -> None:
    """PROTO-21 Entries are {id, reason, link?}."""
    listed = _load(
        tmp_path,
        "- id: tiny/length/ascii\n  reason: r\n  link: https://example.invalid/1\n"
        "- id: tiny/length/astral\n  reason: r\n",
    )
    assert listed["tiny/length/ascii"].link == "https://example.invalid/1"
    assert listed["tiny/length/astral"].link is None


@pytest.mark.parametrize(
    ("text", "line", "needle"),
    [
        ("- id: tiny/length/ascii\n  reason: ok\n- id: no/such/case\n  reason: r\n", 3,
         "is not a case of this suite"),
        ("- id: tiny/length/ascii\n  reason: ok\n- id: tiny/length/astral\n", 3, "has no reason"),
        ("- id: tiny/length/ascii\n  reason: ''\n", 2, "non-empty"),
        ("- id: tiny/length/ascii\n  reason: a\n  why: b\n", 3, "unknown key"),
        ("- id: tiny/length/ascii\n  reason: a\n- id: tiny/length/ascii\n  reason: b\n", 3,
         "listed twice"),
        ("id: tiny/length/ascii\n", 1, "expected a list"),
        ("- [unclosed\n", 2, "invalid YAML"),
    ],
    ids=["unknown-id", "no-reason", "empty-reason", "unknown-key", "duplicate", "not-a-list",
         "bad-yaml"],
)
def test_malformed_expected_failures_file_is_an_error_with_file_and_line(
    tmp_path: Path, text: str, line: int, needle: str
) -> None:
    """PROTO-21 Unknown ids, missing reasons and other mistakes are errors with file:line."""
    with pytest.raises(ExpectationsError) as info:
        _load(tmp_path, text)
    message = str(info.value)
    assert message.startswith(f"{tmp_path / 'expected-failures.yaml'}:{line}:")
    assert needle in message
