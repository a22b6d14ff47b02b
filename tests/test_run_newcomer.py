"""What a new user reads from `hrc run`: which suite ran, a footer even after Ctrl-C, one line of
undeclared profiles, marked failures in the matrix, and hints for a launcher that cannot start.
"""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest
from fake_adapters.support import fake, write_tiny_golden

from conformance import cli
from reference import SPEC_VERSION
from reference.data import kit_root


@pytest.fixture
def golden(tmp_path: Path) -> Path:
    return write_tiny_golden(tmp_path)


def run_argv(golden: Path | None, adapter: list[str], *extra: str) -> list[str]:
    where = ["--golden", str(golden)] if golden is not None else []
    return ["run", *where, "--adapter", shlex.join(adapter), "--timeout", "2",
            "--handshake-timeout", "2", *extra]


# -- which suite ran -------------------------------------------------------------------------


def test_the_run_names_its_golden_folder(golden: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(run_argv(golden, fake("good"), "--select", "tiny/length/")) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == f"golden: {golden} (3 of 6 cases, spec {SPEC_VERSION})"


def test_a_golden_folder_the_run_does_not_read_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """In a folder holding its own golden/, a run without --golden warns that it reads the
    installed kit's cases instead; regen --check says the same."""
    (tmp_path / "golden").mkdir()
    monkeypatch.chdir(tmp_path)
    assert cli.main(run_argv(None, fake("good"), "--select", "portability/length/")) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].startswith(f"golden: {kit_root() / 'golden'} (")
    warning = [line for line in out.splitlines() if "./golden" in line]
    assert warning == [
        f"warning: ./golden is not the suite this run uses: the cases come from "
        f"{kit_root() / 'golden'} (the installed kit); pass --golden golden to use yours, or "
        "`pip install -e .` here"
    ]
    assert cli.main(["regen", "--check", "--select", "portability/length/"]) == 0
    assert "hrc regen: warning: ./golden is not the suite" in capsys.readouterr().err
    # With --golden, or where ./golden is the suite used, nothing is said.
    assert cli.main(run_argv(tmp_path / "golden", fake("good"))) == 2  # an empty suite
    assert "./golden is not" not in capsys.readouterr().out
