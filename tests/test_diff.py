"""`hrc diff`: traces, outputs and reports compared with the comparator's semantics."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fake_adapters.support import fake, write_tiny_golden

from conformance import cli


def _files(tmp_path: Path, a: Any, b: Any) -> list[str]:
    pa, pb = tmp_path / "a.json", tmp_path / "b.json"
    pa.write_text(json.dumps(a), encoding="utf-8")
    pb.write_text(json.dumps(b), encoding="utf-8")
    return ["diff", str(pa), str(pb)]


def test_traces_that_differ_only_in_timings_are_equal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`timings` are dropped at every depth before comparing (TRACE-2)."""
    a = {"trace": {"k": 60, "timings": {"totalMs": 1}}, "timings": 3}
    b = {"trace": {"k": 60, "timings": {"totalMs": 9}}}
    assert cli.main(_files(tmp_path, a, b)) == 0
    assert "no differences" in capsys.readouterr().out


def test_floats_compare_bit_exact_and_tolerance_needs_the_op(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """PROTO-33, TEXT-13 One ulp is a difference, printed in full; `--op` applies the
    tolerance of that operation's named fields and nothing else."""
    assert cli.main(_files(tmp_path, {"s": 0.1 + 0.2}, {"s": 0.30000000000000004})) == 0
    capsys.readouterr()
    assert cli.main(_files(tmp_path, {"s": 2.2 * 0.45}, {"s": 0.99})) == 1
    out = capsys.readouterr().out
    assert "/s: number differs (bit-exact; 1 ulp apart)" in out
    assert "A: 0.9900000000000001" in out and "B: 0.99" in out
    a, b = {"hits": [{"score": -2.5}]}, {"hits": [{"score": -2.5 * (1 + 1e-13)}]}
    assert cli.main(_files(tmp_path, a, b)) == 1
    assert cli.main([*_files(tmp_path, a, b), "--op", "fts_search"]) == 0
    assert cli.main([*_files(tmp_path, a, b), "--op", "vector_search"]) == 1


def test_integers_compare_exactly(tmp_path: Path) -> None:
    """PROTO-33, TEXT-13 1000000000000 and 1000000000001 differ (no float, no tolerance)."""
    pa, pb = tmp_path / "a.json", tmp_path / "b.json"
    pa.write_text('{"dot": 1000000000000, "big": 36893488147419103233}', encoding="utf-8")
    pb.write_text('{"dot": 1000000000001, "big": 36893488147419103232}', encoding="utf-8")
    assert cli.main(["diff", str(pa), str(pb)]) == 1
    assert cli.main(["diff", str(pa), str(pa)]) == 0


@pytest.mark.parametrize(
    ("text", "line", "why"),
    [
        ('{"a": 1,\n "b": NaN}', 2, "NaN is not JSON"),
        ('{"a": [1,\n\n Infinity]}', 3, "Infinity is not JSON"),
        ('{"a": -Infinity}', 1, "-Infinity is not JSON"),
        ('{"a": 1,\n "b": [2, -1e400]}', 2, "-1e400 is outside the binary64 range"),
        ('{"a": {"x": 1,\n "y": {"x": 0},\n "x": 2}}', 3, "repeated key 'x'"),
        ('{"s": "NaN, \\"x\\": 1",\n "x": 1, "t": 2,\n "t": 3}', 3, "repeated key 't'"),
        ('{"a": "ok",\n "b": "\\ud800"}', 2, "unpaired surrogate"),
        ('{"a": ' + "9" * 400 + "}", 1, "is outside the binary64 range"),
        ('{"a": ' + "[" * 70 + "]" * 70 + "}", 1, "nest deeper than 64 levels"),
    ],
    ids=[
        "nan", "infinity", "minus-infinity", "overflow", "repeated-key", "decoy-in-string",
        "surrogate", "huge-integer", "too-deep",
    ],
)
def test_non_strict_json_is_rejected_with_path_and_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, line: int, why: str
) -> None:
    """PROTO-33, PROTO-2, PROTO-36 NaN, Infinity, a repeated key, a lone surrogate, a huge
    integer or deep nesting in either file is an error at `path:line`, exit 2, exactly as the
    protocol rejects such a line (one parser, protocol.loads_strict)."""
    bad, good = tmp_path / "bad.json", tmp_path / "good.json"
    bad.write_text(text, encoding="utf-8")
    good.write_text("{}", encoding="utf-8")
    assert cli.main(["diff", str(good), str(bad)]) == 2
    err = capsys.readouterr().err
    assert f"{bad}:{line}: " in err
    assert why in err
    assert cli.main(["diff", str(bad), str(good)]) == 2


def test_every_difference_is_printed_with_its_path(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each difference is printed with its path; exit 1."""
    a = {"results": [{"id": "a"}, {"id": "b"}], "mode": "hybrid"}
    b = {"results": [{"id": "a"}, {"id": "c"}], "extra": True}
    assert cli.main(_files(tmp_path, a, b)) == 1
    out = capsys.readouterr().out
    # Items with ids are aligned by id (issue 38): `b` left, `c` came, not "id differs".
    assert '/results/1: removed (id b, A position 1): {"id": "b"}' in out
    assert '/results/1: inserted (id c, B position 1): {"id": "c"}' in out
    assert "/mode: only in A" in out
    assert "/extra: only in B" in out
    assert "4 difference(s)" in out


def test_a_moved_item_is_one_difference_not_one_per_position(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 38: one item moved from the top to the bottom of 25 results printed 25
    position-by-position differences; it is one `moved` line, plus its own field changes."""
    a = {"results": [{"id": f"d{i}", "score": 1.0 / (61 + i)} for i in range(25)]}
    moved = [*a["results"][1:], {**a["results"][0], "score": 0.001}]
    assert cli.main(_files(tmp_path, a, {"results": moved})) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "/results/24: moved (id d0, from position 0 to 24)"
    assert lines[1].startswith("/results/24/score: ")
    assert lines[-1].startswith("hrc diff: 2 difference(s)")


def test_inserted_and_removed_ids_are_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a = {"ids": ["a", "b", "c", "d"]}
    b = {"ids": ["a", "x", "c", "d"]}
    assert cli.main(_files(tmp_path, a, b)) == 1
    out = capsys.readouterr().out
    assert '/ids/1: removed ("b", A position 1): "b"' in out
    assert '/ids/1: inserted ("x", B position 1): "x"' in out
    assert ": moved" not in out


def test_a_long_value_is_shown_around_its_first_difference(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A long output is shown where it changes, not by its first 300 characters or a hash."""
    text = "word " * 400
    assert cli.main(_files(tmp_path, {"content": text + "A"}, {"content": text + "B"})) == 1
    out = capsys.readouterr().out
    assert "first difference at character 2001 of 2003 / 2003" in out
    assert 'word A"' in out and 'word B"' in out


def test_two_outputs_kept_as_digests_show_sizes_and_prefixes() -> None:
    """PROTO-39 keeps an over-long answer as {bytes, sha256, prefix}: diff shows its sizes and
    where the kept prefixes differ, never only the two hashes."""
    from conformance.commands.diff import _truncated_outputs

    def kept(size: int, digest: str, prefix: str) -> dict[str, object]:
        return {"hrc:truncated": {"bytes": size, "sha256": digest, "prefix": prefix}}

    same = _truncated_outputs("c", kept(9, "aa", "p"), kept(9, "aa", "p"))
    assert same == []
    later = _truncated_outputs("c", kept(90000, "aa", "{\"x\": 1"), kept(90001, "bb", "{\"x\": 1"))
    assert later is not None and "the change lies after them" in later[0].render()
    assert "sha256" not in later[0].render()
    early = _truncated_outputs("c", kept(90000, "aa", "{\"x\": 1"), kept(90000, "bb", "{\"x\": 2"))
    assert early is not None and "90000 / 90000 bytes" in early[0].render()


def test_reports_compare_per_case_status_and_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two run reports compare case by case: status and answer."""
    golden = write_tiny_golden(tmp_path)
    reports = []
    for name in ("good", "always_wrong"):
        path = tmp_path / f"{name}.json"
        adapter = " ".join(fake(name))
        cli.main(["run", "--golden", str(golden), "--adapter", adapter, "--quiet",
                  "--report-json", str(path)])
        reports.append(str(path))
    capsys.readouterr()
    assert cli.main(["diff", *reports]) == 1
    out = capsys.readouterr().out
    assert "tiny/length/ascii status: status differs" in out
    assert "tiny/length/ascii /output/length: integer differs (exact)" in out
    assert cli.main(["diff", reports[0], reports[0]]) == 0


def test_unreadable_file_exits_2(tmp_path: Path) -> None:
    """A missing or non-JSON file is a usage error."""
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    assert cli.main(["diff", str(bad), str(bad)]) == 2


def test_reports_apply_each_cases_op_tolerance() -> None:
    """PROTO-33, TEXT-13 In two reports a case's `op` selects its tolerance fields."""
    from conformance.commands.diff import diff_reports

    def report(score: float, op: str) -> dict[str, Any]:
        case = {"id": "c", "status": "passed", "op": op, "output": {"hits": [{"score": score}]}}
        return {"cases": [case], "summary": {}, "adapter": {}}

    near = -2.5 * (1 + 1e-13)
    assert diff_reports(report(-2.5, "fts_search"), report(near, "fts_search")) == []
    found = diff_reports(report(-2.5, "vector_search"), report(near, "vector_search"))
    assert [d.path for d in found] == ["c /output/hits/0/score"]
