"""Hostile case files (issue 16): depth, size, alias bombs and non-JSON scalars are refused at
load with `path:line` and exit 2, quickly, in `hrc run`, `bundle`, `regen` and the plugin."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from conformance.cases import MAX_YAML_DEPTH, CaseFileError, load_file

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


HOSTILE = {
    "deep-flow": ("op: length\nx: " + "[" * 100_000 + "]" * 100_000 + "\ncases: []\n", 2,
                  "deeper than"),
    "deep-block": (HEAD + "    extra:\n" + "".join(
        " " * (6 + 2 * i) + f"k{i}:\n" for i in range(MAX_YAML_DEPTH + 5)), 71, "deeper than"),
    "alias-bomb": (bomb(), 8, "more than"),
    "huge-int": (HEAD.replace("{text: cat}", "{text: " + "7" * 100_000 + "}"), 6,
                 "outside the binary64"),
    "float-overflow": (HEAD.replace("{length: 3}", "{length: 1.0e+400}"), 8, "finite"),
    "binary": (HEAD.replace("{text: cat}", "{text: !!binary aGk=}"), 6, "no JSON form"),
    "set": (HEAD.replace("{text: cat}", "{text: !!set {a, b}}"), 6, "no JSON form"),
    "timestamp": (HEAD.replace("{text: cat}", '{text: !!timestamp "2024-01-01"}'), 6,
                  "no JSON form"),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_case_file_is_refused_with_path_and_line(tmp_path: Path, name: str) -> None:
    """PROTO-38 Every bound is a CaseFileError `path:line: …` raised in well under a second."""
    text, line, words = HOSTILE[name]
    path = tmp_path / "golden" / "text" / "hostile.yaml"
    path.parent.mkdir(parents=True)
    path.write_text(text, encoding="utf-8")
    started = time.monotonic()
    with pytest.raises(CaseFileError) as info:
        load_file(path, root=tmp_path / "golden")
    assert time.monotonic() - started < 3
    assert f"hostile.yaml:{line}:" in str(info.value)
    assert words in str(info.value)


def test_oversized_case_file_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """PROTO-38 A file above the size bound is refused before it is parsed."""
    from conformance import cases

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


@pytest.mark.parametrize("command", ["run", "bundle", "regen", "plugin"])
@pytest.mark.parametrize("name", ["deep-flow", "alias-bomb", "huge-int"])
def test_every_entry_point_exits_2_on_a_hostile_file(
    tmp_path: Path, command: str, name: str
) -> None:
    """PROTO-25, PROTO-38 `hrc run`, `hrc bundle`, `hrc regen` and the pytest plugin stop with
    the `path:line` error and exit 2 (no segfault, no traceback)."""
    text, line, _ = HOSTILE[name]
    golden = tmp_path / "golden"
    (golden / "text").mkdir(parents=True)
    (golden / "text" / "hostile.yaml").write_text(text, encoding="utf-8")
    if command == "plugin":
        argv = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                "-p", "no:hypothesispytest", f"--hrc-golden={golden}",
                "--hrc-adapter=true", str(tmp_path)]
    else:
        args = {"run": ["run", "--golden", str(golden), "--quiet"],
                "bundle": ["bundle", "--golden", str(golden), "-o", str(tmp_path / "b")],
                "regen": ["regen", "--golden", str(golden), "--check"]}[command]
        argv = [sys.executable, "-m", "conformance.cli", *args]
    started = time.monotonic()
    done = subprocess.run(argv, capture_output=True, text=True, timeout=120, check=False,
                          cwd=tmp_path)
    assert time.monotonic() - started < 30
    output = done.stdout + done.stderr
    assert f"hostile.yaml:{line}:" in output, output[-2000:]
    assert "Traceback" not in output
    assert done.returncode == (4 if command == "plugin" else 2), output[-2000:]
