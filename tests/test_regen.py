"""`hrc regen`: expectations rewritten from the reference with minimal, verified edits."""

from __future__ import annotations

from pathlib import Path

import pytest
from fake_adapters.support import write_tiny_golden

from conformance import cli
from conformance.commands.regen import flow, rewrite_text, scalar

STALE = "output: {length: 3}\n  - id: tiny/length/astral"


def _golden(tmp_path: Path) -> Path:
    golden = write_tiny_golden(tmp_path)
    path = golden / "lengths" / "length.yaml"
    text = path.read_text(encoding="utf-8").replace(
        STALE, "output: {length: 4}  # keep me\n  - id: tiny/length/astral"
    )
    path.write_text("# header comment\n" + text, encoding="utf-8")
    return golden


def test_check_reports_a_stale_expectation_and_changes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--check prints the diff, exits 1, and leaves the file alone."""
    golden = _golden(tmp_path)
    path = golden / "lengths" / "length.yaml"
    before = path.read_text(encoding="utf-8")
    assert cli.main(["regen", "--check", "--golden", str(golden)]) == 1
    out = capsys.readouterr().out
    assert "-      output: {length: 4}  # keep me" in out
    assert "+      output: {length: 3}  # keep me" in out
    assert path.read_text(encoding="utf-8") == before


def test_regen_rewrites_only_the_stale_value(tmp_path: Path) -> None:
    """The rewrite touches the differing scalar only: comments and layout stay."""
    golden = _golden(tmp_path)
    path = golden / "lengths" / "length.yaml"
    before = path.read_text(encoding="utf-8")
    assert cli.main(["regen", "--golden", str(golden)]) == 0
    after = path.read_text(encoding="utf-8")
    assert after == before.replace("output: {length: 4}", "output: {length: 3}")
    assert cli.main(["regen", "--check", "--golden", str(golden)]) == 0


def test_error_and_one_of_expectations_are_reported_never_rewritten(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A disagreeing `error` or `one_of` case is reported and left as written."""
    golden = write_tiny_golden(tmp_path)
    path = golden / "lengths" / "length.yaml"
    text = path.read_text(encoding="utf-8")
    text = text.replace("error: invalid_input", "error: index_error")
    text = text.replace(
        "expect:\n      output: {length: 3}\n  - id: tiny/length/astral",
        "expect:\n      one_of: [{length: 1}, {length: 2}]\n  - id: tiny/length/astral",
    )
    path.write_text(text, encoding="utf-8")
    assert cli.main(["regen", "--golden", str(golden)]) == 1
    err = capsys.readouterr().err
    assert "tiny/length/not-a-string: expects error 'index_error'" in err
    assert "tiny/length/ascii: reference disagrees with one_of" in err
    assert path.read_text(encoding="utf-8") == text


def test_partial_expectations_keep_only_their_fields() -> None:
    """For `compare: partial` only fields the case lists are rewritten."""
    text = (
        "op: x\ncases:\n  - id: a/b/c\n    expect:\n      compare: partial\n"
        "      output:\n        results:\n          - {id: a, score: 0.5}\n"
        "          - {id: b}\n"
    )
    old = {"results": [{"id": "a", "score": 0.5}, {"id": "b"}]}
    new = {"results": [{"id": "a", "score": 0.25}, {"id": "b"}]}
    assert rewrite_text(text, [("a/b/c", old, new)]) == text.replace("0.5", "0.25")


def test_block_lists_that_change_length_are_rewritten_as_blocks() -> None:
    """A block node is re-emitted in block style at its own indentation."""
    text = "cases:\n  - id: a/b/c\n    expect:\n      output:\n        ids:\n          - a\n"
    new = {"ids": ["a", "b"]}
    out = rewrite_text(text, [("a/b/c", {"ids": ["a"]}, new)])
    assert out == text + "          - b\n"


def test_invisible_characters_are_written_as_escapes() -> None:
    """Zero-width and combining characters are escaped so reviewers can see them."""
    assert scalar("e\u200b\u0301") == '"e\\u200B\\u0301"'
    assert scalar("été") == '"été"'
    assert scalar("plain text") == "plain text"
    assert scalar("yes") == '"yes"'


def test_floats_are_written_in_a_form_every_loader_reads_as_float() -> None:
    """1e-07 would be a string for PyYAML; it is written 1.0e-07."""
    written = flow({"a": 1e-07, "b": 1e16, "c": 0.5, "d": 3})
    assert written == "{a: 1.0e-07, b: 1.0e+16, c: 0.5, d: 3}"


def test_a_reference_output_breaking_expect_absent_is_reported_never_rewritten(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """PROTO-47: regen cannot fix a member the case says is absent; it reports the case."""
    golden = write_tiny_golden(tmp_path)
    path = golden / "lengths" / "length.yaml"
    text = path.read_text(encoding="utf-8").replace(
        "expect:\n      output: {length: 3}\n  - id: tiny/length/astral",
        "expect:\n      output: {}\n      compare: partial\n      absent: [/length]\n"
        "  - id: tiny/length/astral",
    )
    path.write_text(text, encoding="utf-8")
    assert cli.main(["regen", "--golden", str(golden)]) == 1
    assert "tiny/length/ascii: reference output breaks expect.absent" in capsys.readouterr().err
    assert path.read_text(encoding="utf-8") == text


def test_a_partial_case_is_never_rewritten_to_drop_what_it_asserts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A member the reference no longer gives is reported by pointer, the file left alone."""
    golden = write_tiny_golden(tmp_path)
    path = golden / "lengths" / "length.yaml"
    text = path.read_text(encoding="utf-8").replace(
        "expect:\n      output: {length: 3}\n  - id: tiny/length/astral",
        "expect:\n      output: {length: 4, gone: [1]}\n      compare: partial\n"
        "  - id: tiny/length/astral",
    )
    path.write_text(text, encoding="utf-8")
    assert cli.main(["regen", "--golden", str(golden)]) == 1
    err = capsys.readouterr().err
    assert "tiny/length/ascii: the reference no longer gives" in err and "/gone" in err
    assert path.read_text(encoding="utf-8") == text


def test_lost_pointers_name_members_and_list_entries_past_the_end() -> None:
    from conformance.commands.regen import lost_pointers

    template = {"a": [{"x": 1}, {"x": 2}, {"x": 3}], "b/c": 1, "d": {"e": 1}}
    value = {"a": [{"x": 1}, {"y": 2}], "d": {"e": 2}}
    assert lost_pointers(template, value) == ["/a/2", "/a/1/x", "/b~1c"]


def test_a_rewrite_keeps_the_nodes_quoting_style() -> None:
    """Issue 38: a rewrite mixed quoted and plain ids on one line; the new values follow the
    quotes the old node used (single, double) or stay plain."""
    import yaml

    text = "cases:\n  - id: a/b/c\n    expect:\n      output: {ids: ['a', 'b']}\n"
    out = rewrite_text(text, [("a/b/c", {"ids": ["a", "b"]}, {"ids": ["a", "b", "it's"]})])
    assert out.endswith("output: {ids: ['a', 'b', 'it''s']}\n")
    double = text.replace("'", '"')
    out = rewrite_text(double, [("a/b/c", {"ids": ["a", "b"]}, {"ids": ["a", "c"]})])
    assert out.endswith('output: {ids: ["a", "c"]}\n')
    plain = text.replace("'", "")
    out = rewrite_text(plain, [("a/b/c", {"ids": ["a", "b"]}, {"ids": ["a", "c"]})])
    assert out.endswith("output: {ids: [a, c]}\n")
    assert yaml.safe_load(out)["cases"][0]["expect"]["output"] == {"ids": ["a", "c"]}


def test_a_big_flow_expectation_is_rewritten_in_block_style() -> None:
    """Issue 38: changing one default rewrote a ~2 KB case as one flow line. A flow value of a
    block mapping that no longer fits the line becomes a block at the key's indentation."""
    import yaml

    old = {"results": [{"id": f"d{i}", "score": 0.5} for i in range(3)]}
    new = {"results": [{"id": f"d{i}", "score": 0.25, "path": f"docs/n{i}.md"} for i in range(9)]}
    text = ("cases:\n  - id: a/b/c\n    expect:\n      output: "
            + "{results: [" + ", ".join(f"{{id: d{i}, score: 0.5}}" for i in range(3)) + "]}\n")
    out = rewrite_text(text, [("a/b/c", old, new)])
    assert yaml.safe_load(out)["cases"][0]["expect"]["output"] == new
    lines = out.splitlines()
    assert lines[3] == "      output:" and lines[4] == "        results:"
    assert all(len(line) <= 100 for line in lines), out
