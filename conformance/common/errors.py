"""One shape for every `hrc` error (PROTO-44): `hrc COMMAND: error: MESSAGE` on one line, exit 2.

A usage error, a bad path, an argument that cannot be split, an output that cannot be written
or a full disk all end the same way, whatever module found them; the message is escaped so
that it stays on one line (PROTO-37).
"""

from __future__ import annotations

import argparse
import errno
import os
import sys
import tempfile
from pathlib import Path
from typing import NoReturn, TextIO

from conformance.common.atomic_write import check_destination
from conformance.common.printable import printable

#: Exit status of a usage, input or environment error (PROTO-25).
USAGE = 2


class HrcError(Exception):
    """An error the user can fix (a path, an argument, a file); `hrc` exits 2 with one line."""


def line(command: str | None, message: str) -> str:
    """The one error line: `hrc COMMAND: error: MESSAGE` (PROTO-44)."""
    where = f"hrc {command}" if command else "hrc"
    return f"{where}: error: {printable(message)}"


def emit(command: str | None, message: str, stream: TextIO | None = None) -> int:
    """Print the error line to stderr and return the exit status 2."""
    print(line(command, message), file=stream if stream is not None else sys.stderr)
    return USAGE


def warn(command: str | None, message: str, stream: TextIO | None = None) -> None:
    """`hrc COMMAND: warning: MESSAGE` on stderr."""
    where = f"hrc {command}" if command else "hrc"
    print(f"{where}: warning: {printable(message)}", file=stream or sys.stderr)


def os_message(exc: OSError, path: Path | str | None = None) -> str:
    """An OSError as `PATH: reason`, naming a full disk plainly."""
    name = path if path is not None else exc.filename
    reason = exc.strerror or str(exc)
    if exc.errno == errno.ENOSPC:
        reason = "no space left on device (the disk is full)"
    return f"{name}: {reason}" if name is not None else f"cannot write the output: {reason}"


def check_writable(path: Path, what: str) -> None:
    """Raise HrcError unless `path` can be written: its folder exists, is a folder and takes a
    new file, and `path` is not a folder. Checked before a run starts (PROTO-44)."""
    folder = path.parent if str(path.parent) else Path(".")
    try:  # PROTO-49: never a link, never a folder, FIFO or device
        check_destination(path)
    except OSError as exc:
        raise HrcError(f"{what} {path}: {exc.strerror}") from None
    if not folder.exists():
        raise HrcError(f"{what} {path}: folder {folder} does not exist")
    if not folder.is_dir():
        raise HrcError(f"{what} {path}: {folder} is not a folder")
    if path.exists() and not os.access(path, os.W_OK):
        raise HrcError(f"{what} {path}: not writable")
    try:
        fd, probe = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".probe", dir=folder)
    except OSError as exc:
        raise HrcError(f"{what} {path}: cannot write in {folder}: "
                       f"{os_message(exc, None)}") from exc
    os.close(fd)
    Path(probe).unlink(missing_ok=True)


class OneLineParser(argparse.ArgumentParser):
    """argparse with its usage errors as one `hrc COMMAND: error: ...` line, exit 2."""

    def error(self, message: str) -> NoReturn:
        command = self.prog.split(" ", 1)[1] if " " in self.prog else None
        emit(command, f"{message} (see `{self.prog} --help`)")
        sys.exit(USAGE)
