"""The README's first screen: three commands take a porter from zero to passing cases.

The commands are read from README.md and run as written (install aside: this test runs inside
the installed kit), so the README cannot drift from what `hrc` does.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
from pathlib import Path

import pytest

from conformance import cli
from conformance.judging.cases import load_all

ROOT = Path(__file__).resolve().parent.parent
SECTION = "## A new port in three commands"


def _commands() -> list[tuple[list[str], str]]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert SECTION in text, "the README's first section for porters is missing"
    block = text.split(SECTION, 1)[1].split("```bash\n", 1)[1].split("```", 1)[0]
    out = []
    for line in block.strip().splitlines():
        command, _, comment = line.partition("#")
        out.append((shlex.split(command), comment.strip()))
    return out


def test_the_first_section_is_near_the_top() -> None:
    """It is the first screen: the first `##` section of the README."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert re.findall(r"^## .*$", text, re.MULTILINE)[0] == SECTION


def test_three_commands_install_init_port_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """TEXT-8 install, init-port, run: the run passes every `length` case, as the README says."""
    commands = _commands()
    assert [argv[:2] for argv, _ in commands] == [
        ["pip", "install"], ["hrc", "init-port"], ["hrc", "run"]
    ]
    init, run = commands[1][0], commands[2][0]
    language = init[2]
    tool = {"go": "go", "rust": "cargo", "java": "javac", "python": "python3"}.get(language, "node")
    if shutil.which(tool) is None:
        if os.environ.get("CI"):
            pytest.fail(f"{tool} missing: CI must run the README's commands")
        pytest.skip(f"{tool} is not on PATH")
    monkeypatch.chdir(tmp_path)
    assert cli.main(init[1:]) == 0
    assert cli.main([*run[1:], "--quiet"]) == 0
    footer = capsys.readouterr().out.rstrip().splitlines()[-1]
    lengths = sum(1 for c in load_all() if c.op == "length")
    assert footer == f"hrc: {lengths} passed, 0 failed, 0 skipped"
    promised = re.match(r"(\d+) passed", commands[2][1])
    assert promised and int(promised.group(1)) == lengths, "the README's count is stale"
