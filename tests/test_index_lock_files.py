"""`hrc index` cleans up what killed runs left and says whom it waits for (issue 29, item 9)."""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from reference.backends import index_files

pytestmark = pytest.mark.skipif(os.name != "posix", reason="flock and POSIX files")
ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "corpus" / "demo"


def _hrc(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "conformance.cli", *args],
                          capture_output=True, text=True, timeout=timeout, check=False)


def _old(path: Path, text: str = "x") -> Path:
    path.write_text(text, encoding="utf-8")
    past = time.time() - 3600
    os.utime(path, (past, past))
    return path


def test_temporaries_of_killed_first_runs_are_removed(tmp_path: Path) -> None:
    db = tmp_path / "x.db"
    dead = _old(tmp_path / ".x.db.k1ll3d.hrc-tmp")
    journal = _old(tmp_path / ".x.db.k1ll3d.hrc-tmp-journal")
    young = tmp_path / ".x.db.young.hrc-tmp"
    young.write_text("x", encoding="utf-8")
    other = _old(tmp_path / ".y.db.k1ll3d.hrc-tmp")
    not_ours = _old(tmp_path / "x.db.k1ll3d.hrc-tmp")
    linked = tmp_path / ".x.db.link.hrc-tmp"
    linked.symlink_to(_old(tmp_path / "target.txt"))
    done = _hrc("index", str(CORPUS), "--db", str(db))
    assert done.returncode == 0, done.stderr
    assert not dead.exists() and not journal.exists()
    assert f"removed {dead.name}, left by a killed run" in done.stderr
    assert young.exists() and other.exists() and not_ours.exists()
    assert linked.is_symlink() and (tmp_path / "target.txt").exists()


def test_a_temporary_a_live_run_holds_is_kept(tmp_path: Path) -> None:
    db = tmp_path / "x.db"
    live = _old(tmp_path / ".x.db.l1ve.hrc-tmp")
    fd = os.open(live, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        assert index_files.remove_stale_temps(db) == []
        assert live.exists()
    finally:
        os.close(fd)
    assert index_files.remove_stale_temps(db) == [live]


def _hold_lock(db: Path) -> int:
    fd = os.open(db, os.O_RDWR)
    fcntl.flock(fd, fcntl.LOCK_EX)
    (db.parent / f".{db.name}.hrc-lock").write_text(f"{os.getpid()}\n", encoding="ascii")
    return fd


def test_a_waiting_run_names_the_holder_and_gives_up_after_the_timeout(tmp_path: Path) -> None:
    db = tmp_path / "x.db"
    assert _hrc("index", str(CORPUS), "--db", str(db)).returncode == 0
    fd = _hold_lock(db)
    try:
        done = _hrc("index", str(CORPUS), "--db", str(db), "--lock-timeout", "0.5")
    finally:
        os.close(fd)
    assert done.returncode == 2
    assert f"hrc index: waiting for the index lock held by PID {os.getpid()}" in done.stderr
    assert f"still held by PID {os.getpid()} after 0.5 s" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_waiting_run_goes_on_once_the_lock_is_released(tmp_path: Path) -> None:
    db = tmp_path / "x.db"
    assert _hrc("index", str(CORPUS), "--db", str(db)).returncode == 0
    fd = _hold_lock(db)
    child = subprocess.Popen(
        [sys.executable, "-m", "conformance.cli", "index", str(CORPUS), "--db", str(db)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        assert child.stderr is not None
        first = child.stderr.readline()
        assert first.startswith("hrc index: waiting for the index lock held by PID")
    finally:
        os.close(fd)
    out, _ = child.communicate(timeout=120)
    assert child.returncode == 0 and "unchanged" in out
    assert not (tmp_path / ".x.db.hrc-lock").exists()


def test_a_negative_lock_timeout_is_a_usage_error(tmp_path: Path) -> None:
    done = _hrc("index", str(CORPUS), "--db", str(tmp_path / "x.db"), "--lock-timeout", "-1")
    assert done.returncode == 2 and "--lock-timeout must be at least 0" in done.stderr
