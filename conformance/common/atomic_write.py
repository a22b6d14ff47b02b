"""Every file the kit writes is written here (PROTO-49): to a temporary file in the same
folder, then renamed over the destination, so a full disk, a kill or an error leaves the old
file whole and a reader never sees half a file.

- The temporary file is `.NAME.XXXXXXXX.hrc-tmp` beside NAME (same file system: the rename is
  atomic); it is removed whenever the write does not complete.
- The new file gets mode 0666 less the umask (0644 under the usual umask 022), as `open()` would
  give a new file; `tempfile.mkstemp`'s 0600 is not kept.
- A destination that is a symbolic link is refused (never written through, never replaced):
  the link may point anywhere, and replacing it would silently cut what the user linked. A
  destination that exists and is not a regular file (a folder, a FIFO, a device) is refused
  too. Both refusals are an OSError (ELOOP, EISDIR or EINVAL) that says why, so callers that
  turn an OSError into one error line (PROTO-44) need nothing more. Only the kit's own
  folders (the case cache) pass `replace=True`: there a link or a FIFO at an entry's name is
  replaced by the rename (the link itself, never its target), as a corrupt entry would be.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import IO

TEMP_SUFFIX = ".hrc-tmp"


class UnsafeDestination(OSError):
    """The destination is a symbolic link or not a regular file; nothing was written."""


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def check_destination(path: Path) -> None:
    """Raise UnsafeDestination when `path` is a link or exists as a non-regular file."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return
    except OSError:
        return  # the write itself will say what is wrong
    if stat.S_ISLNK(info.st_mode):
        raise UnsafeDestination(
            errno.ELOOP, "is a symbolic link; hrc never writes through a link "
            "(name the link's target, or remove the link)", os.fspath(path))
    if stat.S_ISDIR(info.st_mode):
        raise UnsafeDestination(errno.EISDIR, "is a directory", os.fspath(path))
    if not stat.S_ISREG(info.st_mode):
        raise UnsafeDestination(errno.EINVAL, "is not a regular file", os.fspath(path))


def _temp_beside(path: Path) -> tuple[int, Path]:
    folder = path.parent if str(path.parent) else Path(".")
    mode = 0o666 & ~_umask()
    for _ in range(100):
        name = folder / f".{path.name}.{os.urandom(4).hex()}{TEMP_SUFFIX}"
        try:
            fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0),
                         mode)
        except FileExistsError:
            continue
        return fd, name
    raise FileExistsError(errno.EEXIST, "no free temporary name", os.fspath(folder))


@contextlib.contextmanager
def open_binary(path: Path) -> Iterator[IO[bytes]]:
    """A binary file to write `path` through: renamed into place when the block ends without
    an exception (after fsync), removed otherwise."""
    check_destination(path)
    fd, tmp = _temp_beside(path)
    try:
        with os.fdopen(fd, "wb") as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        check_destination(path)  # a link put there meanwhile is not replaced either
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise


@contextlib.contextmanager
def open_text(path: Path, encoding: str = "utf-8", replace: bool = False) -> Iterator[IO[str]]:
    """As open_binary, as text with `\\n` line ends."""
    if not replace:
        check_destination(path)
    fd, tmp = _temp_beside(path)
    try:
        with os.fdopen(fd, "w", encoding=encoding, newline="\n") as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        if not replace:
            check_destination(path)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise


def write_text(path: Path, text: str, encoding: str = "utf-8") -> None:
    """Write `text` to `path` whole or not at all."""
    with open_text(path, encoding) as fh:
        fh.write(text)


def write_bytes(path: Path, data: bytes) -> None:
    """Write `data` to `path` whole or not at all."""
    with open_binary(path) as fh:
        fh.write(data)
