"""`hrc init-port --force` never writes through a symbolic link in the target folder, and
prints the folder's name escaped (issue 29, items 4 and 7)."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from conformance import cli

POSIX = pytest.mark.skipif(os.name != "posix", reason="POSIX links and modes")


def _outside(tmp_path: Path) -> Path:
    victim = tmp_path / "outside" / "precious.txt"
    victim.parent.mkdir()
    victim.write_text("keep me\n", encoding="utf-8")
    victim.chmod(0o600)
    return victim


@POSIX
def test_a_linked_file_is_replaced_not_written_through(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    victim = _outside(tmp_path)
    target = tmp_path / "port"
    target.mkdir()
    (target / "adapter").symlink_to(victim)
    assert cli.main(["init-port", "python", str(target), "--force"]) == 0
    assert victim.read_text(encoding="utf-8") == "keep me\n"
    assert stat.S_IMODE(victim.stat().st_mode) == 0o600  # not chmod-ed 755
    launcher = target / "adapter"
    assert not launcher.is_symlink() and launcher.is_file() and os.access(launcher, os.X_OK)
    out = capsys.readouterr().out
    assert f"wrote {launcher.as_posix()} (replaced a symbolic link" in out


@POSIX
def test_a_linked_folder_is_refused_before_anything_is_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    target = tmp_path / "port"
    target.mkdir()
    (target / "README.md").write_text("mine\n", encoding="utf-8")
    from conformance.commands import init_port as scaffold

    folders = {rel.split("/")[0] for _, rel in scaffold.planned_files(scaffold.LANGUAGES["rust"])
               if "/" in rel}
    assert folders, "the rust scaffold has a sub-folder to link"
    linked = sorted(folders)[0]
    (target / linked).symlink_to(outside, target_is_directory=True)
    assert cli.main(["init-port", "rust", str(target), "--force"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "symbolic link" in err and linked in err
    assert list(outside.iterdir()) == []
    assert (target / "README.md").read_text(encoding="utf-8") == "mine\n"


@POSIX
def test_a_fifo_where_a_file_goes_is_refused(tmp_path: Path) -> None:
    target = tmp_path / "port"
    target.mkdir()
    os.mkfifo(target / "README.md")
    done = subprocess.run(  # a child with a deadline: writing into the FIFO would block
        [sys.executable, "-m", "conformance.cli", "init-port", "python", str(target), "--force"],
        capture_output=True, text=True, timeout=60, check=False,
    )
    assert done.returncode == 2 and "not a regular file" in done.stderr


def test_the_folder_name_is_printed_escaped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "evil\x1b]0;pwned\x07\x1b[2J"
    assert cli.main(["init-port", "python", str(target)]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out
    assert "\\u001b]0;pwned\\u0007" in out
