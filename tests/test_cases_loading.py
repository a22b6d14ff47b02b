"""Golden case files load strictly, and every mistake is reported as path:line."""

from __future__ import annotations

from pathlib import Path

import pytest
from fake_adapters.support import IDS, write_tiny_golden

from conformance.judging.cases import CaseFileError, case_files, load_all, load_file

GOOD_CASE = """\
op: length
cases:
  - id: a/b/c
    description: A well-formed case for the loader tests.
    clauses: [TEXT-8]
    input: {text: abc}
    expect:
      output: {length: 3}
"""


def _write(tmp_path: Path, text: str, name: str = "cases.yaml") -> Path:
    path = tmp_path / "stage" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def _error(path: Path) -> str:
    with pytest.raises(CaseFileError) as info:
        load_file(path)
    return str(info.value)


def test_cases_load_in_file_order_with_their_source_line(tmp_path: Path) -> None:
    """Cases keep file order, their stage (folder) and the line of their `- id:`."""
    cases = load_all(case_files(write_tiny_golden(tmp_path)))
    assert [c.id for c in cases] == IDS
    assert (cases[3].stage, cases[3].line) == ("text", 3)


def test_schema_violation_names_the_file_and_line(tmp_path: Path) -> None:
    """A case breaking the schema is reported at the offending line."""
    path = _write(tmp_path, GOOD_CASE.replace("clauses: [TEXT-8]", "clauses: []"))
    assert _error(path).startswith(f"{path}:5: schema violation at cases/0/clauses")


def test_invalid_yaml_names_the_file_and_line(tmp_path: Path) -> None:
    """A YAML syntax error is reported with its line."""
    path = _write(tmp_path, GOOD_CASE.replace("input: {text: abc}", "input: {text: abc"))
    assert _error(path).startswith(f"{path}:7: invalid YAML")


def test_duplicate_ids_across_files_are_rejected(tmp_path: Path) -> None:
    """An id defined in two files is an error naming both places."""
    first = _write(tmp_path, GOOD_CASE, "one.yaml")
    second = _write(tmp_path, GOOD_CASE, "two.yaml")
    with pytest.raises(CaseFileError) as info:
        load_all([first, second])
    assert str(info.value).startswith(f"{second}:3: duplicate case id 'a/b/c'")
    assert f"{first}:3" in str(info.value)


def test_duplicate_mapping_keys_are_rejected(tmp_path: Path) -> None:
    """YAML loaders silently keep one of two equal keys; the loader refuses the file."""
    path = _write(tmp_path, GOOD_CASE.replace("    input:", "    input: {text: x}\n    input:"))
    assert _error(path).startswith(f"{path}:7: duplicate key 'input'")


@pytest.mark.parametrize(
    ("scalar", "needle"),
    [("yes", "boolean"), ("1e-7", "signed exponent"), ("0x1F", "JSON form"),
     ("2024-01-01", "date")],
    ids=["yes", "exponent-without-dot", "hex", "date"],
)
def test_scalars_that_loaders_read_differently_are_rejected(
    tmp_path: Path, scalar: str, needle: str
) -> None:
    """Plain scalars YAML 1.1 and 1.2 loaders disagree on are errors; quoting fixes them."""
    path = _write(tmp_path, GOOD_CASE.replace("{text: abc}", f"{{text: abc, extra: {scalar}}}"))
    message = _error(path)
    assert message.startswith(f"{path}:6: ambiguous YAML scalar")
    assert needle in message
    _write(tmp_path, GOOD_CASE.replace("{text: abc}", f'{{text: abc, extra: "{scalar}"}}'))
    assert load_file(path)[0].input["extra"] == scalar


def test_the_real_golden_suite_loads() -> None:
    """The shipped golden files pass every loader check."""
    assert len(load_all()) > 0


def test_an_absent_pointer_its_own_output_holds_is_rejected_with_its_line(
    tmp_path: Path,
) -> None:
    """PROTO-47: `absent` may not contradict the case's own expected output."""
    text = GOOD_CASE.replace(
        "      output: {length: 3}\n", "      output: {length: 3}\n      absent: [/length]\n"
    )
    message = _error(_write(tmp_path, text))
    assert "stage/cases.yaml:3:" in message and "expect.absent lists '/length'" in message


def test_absent_goes_only_with_an_output_expectation(tmp_path: Path) -> None:
    """PROTO-47: an `error` or `one_of` expectation has no output to hold members."""
    text = GOOD_CASE.replace(
        "      output: {length: 3}\n", "      error: invalid_input\n      absent: [/length]\n"
    )
    assert "schema violation" in _error(_write(tmp_path, text))
