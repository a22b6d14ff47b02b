"""Hostile case files (issue 16): depth, size, alias bombs and non-JSON scalars are refused at
load with `path:line` and exit 2, quickly, in `hrc run`, `bundle`, `regen` and the plugin."""

from __future__ import annotations

import re
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from conformance.judging.cases import MAX_YAML_DEPTH, CaseFileError, load_file

HEAD = """\
op: length
cases:
  - id: hostile/x/one
    description: A hostile file.
    clauses: [TEXT-8]
    input: {text: cat}
    expect:
      output: {length: 3}
"""


def bomb(levels: int = 9) -> str:
    lines = ["op: length", "x0: &a0 [lol]"]
    for i in range(1, levels + 1):
        refs = ", ".join([f"*a{i - 1}"] * 9)
        lines.append(f"x{i}: &a{i} [{refs}]")
    lines.append("cases: []")
    return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class Hostile:
    """A hostile file, the kit's own refusal (its line and words), and the lines a parser's
    refusal may name instead: whichever bound fires first, the kit's or the parser's."""

    text: str
    line: int
    words: str
    lines: tuple[int, int]


HOSTILE = {
    # libyaml (PyYAML >= 6.0.4) refuses deep flow nesting itself, before the kit's event walk.
    "deep-flow": Hostile("op: length\nx: " + "[" * 100_000 + "]" * 100_000 + "\ncases: []\n",
                         2, "deeper than", (2, 2)),
    "deep-block": Hostile(HEAD + "    extra:\n" + "".join(
        " " * (6 + 2 * i) + f"k{i}:\n" for i in range(MAX_YAML_DEPTH + 5)), 71, "deeper than",
        (9, 9 + MAX_YAML_DEPTH + 5)),
    "alias-bomb": Hostile(bomb(), 8, "more than", (2, 11)),
    "huge-int": Hostile(HEAD.replace("{text: cat}", "{text: " + "7" * 100_000 + "}"), 6,
                        "outside the binary64", (6, 6)),
    "float-overflow": Hostile(HEAD.replace("{length: 3}", "{length: 1.0e+400}"), 8, "finite",
                              (8, 8)),
    "binary": Hostile(HEAD.replace("{text: cat}", "{text: !!binary aGk=}"), 6, "no JSON form",
                      (6, 6)),
    "set": Hostile(HEAD.replace("{text: cat}", "{text: !!set {a, b}}"), 6, "no JSON form",
                   (6, 6)),
    "timestamp": Hostile(HEAD.replace("{text: cat}", '{text: !!timestamp "2024-01-01"}'), 6,
                         "no JSON form", (6, 6)),
}

_WHERE = re.compile(r"hostile\.yaml:([0-9]+): ")


def assert_refused(message: str, hostile: Hostile) -> None:
    """The kit's contract for a refused file (PROTO-38): one printable line `path:line: …`,
    at the kit's line with the kit's words, or, when the YAML parser's own bound fired first,
    an `invalid YAML` refusal at a line of the hostile construct. The parser's words are never
    asserted: they change between PyYAML/libyaml releases (issue 22)."""
    assert "\n" not in message.strip(), message[:2000]
    assert message.isprintable(), message[:2000]
    where = _WHERE.search(message)
    assert where is not None, message[:2000]
    line = int(where.group(1))
    if hostile.words in message:
        assert line == hostile.line, message[:2000]
    else:
        assert "invalid YAML" in message, message[:2000]
        low, high = hostile.lines
        assert low <= line <= high, message[:2000]


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_case_file_is_refused_with_path_and_line(tmp_path: Path, name: str) -> None:
    """PROTO-38 Every bound is a CaseFileError `path:line: …` on one line, raised in well
    under a second."""
    hostile = HOSTILE[name]
    path = tmp_path / "golden" / "text" / "hostile.yaml"
    path.parent.mkdir(parents=True)
    path.write_text(hostile.text, encoding="utf-8")
    started = time.monotonic()
    with pytest.raises(CaseFileError) as info:
        load_file(path, root=tmp_path / "golden")
    assert time.monotonic() - started < 3
    assert_refused(str(info.value), hostile)


def test_the_kits_depth_bound_holds_below_any_parser_limit(tmp_path: Path) -> None:
    """PROTO-38 Flow nesting just past MAX_YAML_DEPTH (far below libyaml's own limit) is the
    kit's refusal, with the kit's words: the bound does not depend on the parser's."""
    depth = MAX_YAML_DEPTH + 1
    text = "op: length\nx: " + "[" * depth + "]" * depth + "\ncases: []\n"
    path = tmp_path / "deep.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CaseFileError, match=rf"deep\.yaml:2: YAML nests deeper than "
                                            rf"{MAX_YAML_DEPTH} levels$"):
        load_file(path)


def test_a_parser_error_is_one_line(tmp_path: Path) -> None:
    """PROTO-38 The YAML parser's multi-line message is folded onto the `path:line:` line."""
    path = tmp_path / "bad.yaml"
    path.write_text(HEAD + "  - [unclosed\n", encoding="utf-8")
    with pytest.raises(CaseFileError) as info:
        load_file(path)
    message = str(info.value)
    assert "\n" not in message and message.isprintable()
    assert re.match(rf"{re.escape(str(path))}:[0-9]+: invalid YAML: \S", message)


def test_oversized_case_file_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """PROTO-38 A file above the size bound is refused before it is parsed."""
    from conformance.judging import cases

    monkeypatch.setattr(cases, "MAX_CASE_FILE_BYTES", 1000)
    path = tmp_path / "big.yaml"
    path.write_text(HEAD + "# " + "x" * 2000 + "\n", encoding="utf-8")
    with pytest.raises(CaseFileError, match=r"big\.yaml:1: file of \d+ bytes exceeds 1000"):
        load_file(path)


def test_aliases_within_bounds_still_load(tmp_path: Path) -> None:
    """PROTO-38 Anchors and aliases used as the golden files use them still load."""
    path = tmp_path / "ok.yaml"
    path.write_text(HEAD.replace("clauses: [TEXT-8]", "clauses: &c [TEXT-8]")
                    + HEAD.split("cases:\n")[1].replace("hostile/x/one", "hostile/x/two")
                    .replace("clauses: [TEXT-8]", "clauses: *c"), encoding="utf-8")
    assert [c.clauses for c in load_file(path)] == [("TEXT-8",), ("TEXT-8",)]


@pytest.mark.slow
@pytest.mark.parametrize("command", ["run", "bundle", "regen", "plugin"])
@pytest.mark.parametrize("name", ["deep-flow", "alias-bomb", "huge-int"])
def test_every_entry_point_exits_2_on_a_hostile_file(
    tmp_path: Path, command: str, name: str
) -> None:
    """PROTO-25, PROTO-38 `hrc run`, `hrc bundle`, `hrc regen` and the pytest plugin stop with
    one `path:line` line and exit 2 (no segfault, no traceback, nothing run or written)."""
    hostile = HOSTILE[name]
    golden = tmp_path / "golden"
    (golden / "text").mkdir(parents=True)
    (golden / "text" / "hostile.yaml").write_text(hostile.text, encoding="utf-8")
    bundle = tmp_path / "b"
    if command == "plugin":
        argv = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                "-p", "no:hypothesispytest", f"--hrc-golden={golden}",
                "--hrc-adapter=true", str(tmp_path)]
    else:
        args = {"run": ["run", "--golden", str(golden), "--quiet"],
                "bundle": ["bundle", "--golden", str(golden), "-o", str(bundle)],
                "regen": ["regen", "--golden", str(golden), "--check"]}[command]
        argv = [sys.executable, "-m", "conformance.cli", *args]
    started = time.monotonic()
    done = subprocess.run(argv, capture_output=True, text=True, timeout=120, check=False,
                          cwd=tmp_path)
    assert time.monotonic() - started < 30
    output = done.stdout + done.stderr
    assert "Traceback" not in output
    assert done.returncode == (4 if command == "plugin" else 2), output[-2000:]
    refusals = [line for line in output.splitlines() if "hostile.yaml:" in line]
    assert len(refusals) == 1, output[-2000:]
    assert_refused(refusals[0], hostile)
    assert (golden / "text" / "hostile.yaml").read_text(encoding="utf-8") == hostile.text
    if command != "plugin":
        assert done.stdout == "", done.stdout[-2000:]
        assert done.stderr.count("\n") == 1, done.stderr[-2000:]
        assert not bundle.exists()
