"""The files `hrc index` keeps beside a database (BACKEND-19): the lock every incremental run
holds, the temporary database a first run builds, and the clean-up of what a killed run left.

A first run builds `.NAME.XXXX.hrc-tmp` next to NAME and holds an exclusive flock on it while
it works, so a temporary file whose lock can be taken belongs to a dead run. An incremental run
holds an exclusive flock on NAME itself and writes its PID to `.NAME.hrc-lock`, so a second
run can say whom it waits for (issue 29).
"""

from __future__ import annotations

import contextlib
import glob
import os
import stat
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

TEMP_SUFFIX = ".hrc-tmp"
#: A temporary file younger than this is never removed (a first run may be creating it).
STALE_AFTER_S = 60.0
_POLL_S = 0.1

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX
    fcntl = None  # type: ignore[assignment]


class LockTimeout(Exception):
    """The index lock was not released within --lock-timeout; the message is one line."""


def _pid_file(db: Path) -> Path:
    return db.parent / f".{db.name}.hrc-lock"


def _holder(db: Path) -> str:
    try:
        text = _pid_file(db).read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return "another process"
    return f"PID {text}" if text.isdigit() else "another process"


@contextlib.contextmanager
def locked(
    db: Path, timeout: float | None = None, say: Callable[[str], None] | None = None
) -> Iterator[None]:
    """Hold the exclusive lock on `db` for the block. When another run holds it, `say` is told
    once whom we wait for; after `timeout` seconds (None: for ever) LockTimeout is raised."""
    if fcntl is None:  # pragma: no cover - not POSIX
        yield
        return
    fd = os.open(db, os.O_RDWR)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _holder(db)
            if say is not None:
                limit = "" if timeout is None else f" (at most {timeout:g} s, --lock-timeout)"
                say(f"waiting for the index lock held by {holder}{limit}")
            deadline = None if timeout is None else time.monotonic() + timeout
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if deadline is not None and time.monotonic() >= deadline:
                        raise LockTimeout(
                            f"the index lock on {db} is still held by {holder} after "
                            f"{timeout:g} s"
                        ) from None
                    time.sleep(_POLL_S)
        pid_file = _pid_file(db)
        with contextlib.suppress(OSError):
            pid_file.write_text(f"{os.getpid()}\n", encoding="ascii")
        try:
            yield
        finally:
            with contextlib.suppress(OSError):
                pid_file.unlink()
    finally:
        os.close(fd)


@contextlib.contextmanager
def first_run_temp(db: Path) -> Iterator[Path]:
    """A new temporary database beside `db`, locked while the block runs, removed after it
    (with its journal) unless the block moved it into place."""
    fd, name = tempfile.mkstemp(prefix=f".{db.name}.", suffix=TEMP_SUFFIX, dir=db.parent)
    tmp = Path(name)
    try:
        if fcntl is not None:
            fcntl.flock(fd, fcntl.LOCK_EX)
        umask = os.umask(0o022)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # as SQLite would have created it
        yield tmp
    finally:
        for path in (tmp, *companions(tmp)):
            with contextlib.suppress(OSError):
                path.unlink()
        os.close(fd)


#: What SQLite keeps beside a database: the rollback journal, and in WAL mode (BACKEND-19)
#: the write-ahead log and its shared-memory index.
COMPANION_SUFFIXES = ("-journal", "-wal", "-shm")


def companions(db: Path) -> list[Path]:
    """The files SQLite may keep beside `db`."""
    return [Path(f"{db}{suffix}") for suffix in COMPANION_SUFFIXES]


def remove_stale_temps(db: Path, now: float | None = None) -> list[Path]:
    """Remove the temporary databases of `db` that killed first runs left: by name
    (`.NAME.*.hrc-tmp` and its `-journal`, `-wal`, `-shm`), regular files of ours, older
    than STALE_AFTER_S, and not locked by a live run. Returns what was removed."""
    if fcntl is None or not db.parent.is_dir():  # pragma: no cover - not POSIX
        return []
    now = time.time() if now is None else now
    removed: list[Path] = []
    pattern = f".{glob.escape(db.name)}.*{TEMP_SUFFIX}"
    for tmp in sorted(db.parent.glob(pattern)):
        if not _stale(tmp, now) or not _unlocked(tmp):
            continue
        for path in (tmp, *companions(tmp)):
            if path == tmp or _stale(path, now):
                with contextlib.suppress(OSError):
                    path.unlink()
                    removed.append(path)
    return removed


def _stale(path: Path, now: float) -> bool:
    try:
        info = path.lstat()
    except OSError:
        return False
    mine = not hasattr(os, "getuid") or info.st_uid == os.getuid()
    return stat.S_ISREG(info.st_mode) and mine and now - info.st_mtime > STALE_AFTER_S


def _unlocked(path: Path) -> bool:
    """True when no live first run holds `path` (its lock can be taken, and is let go)."""
    assert fcntl is not None
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | os.O_NONBLOCK)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except OSError:
        return False
    finally:
        os.close(fd)


def say_on_stderr(message: str) -> None:
    print(f"hrc index: {message}", file=sys.stderr, flush=True)
