"""Files the kit reads from outside: regular files only, bounded in size, opened without
blocking, decoded as strict UTF-8 with the line of a bad byte, JSON parsed strictly and with
bounded nesting (issue 29). `hrc index` has its own reader (reference/backends/indexer.py).

Every error is an InputFileError whose text is `path:line: message` (or `path: message` when
no line applies), one line, for the caller to print and exit 2.
"""

from __future__ import annotations

import errno
import json
import os
import stat
from pathlib import Path
from typing import Any

#: Default bound of a JSON document (a report, a trace) read from a file.
MAX_JSON_BYTES = 256 * 1024 * 1024


class InputFileError(ValueError):
    """A file that cannot be used; str() is `path:line: message` or `path: message`."""

    def __init__(
        self, path: Path | str, message: str, line: int | None = None, size: int | None = None
    ) -> None:
        where = f"{path}:{line}" if line is not None else f"{path}"
        super().__init__(f"{where}: {message}")
        self.line = line
        self.message = message
        #: The size in bytes, when the file is larger than the bound.
        self.size = size


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _open_error(path: Path | str, exc: OSError) -> InputFileError:
    if exc.errno == errno.ENOENT:
        return InputFileError(path, "no such file")
    if exc.errno in (errno.EACCES, errno.EPERM):
        return InputFileError(path, "permission denied")
    return InputFileError(path, f"cannot read: {exc.strerror or exc}")


def read_bytes(path: Path | str, limit: int) -> bytes:
    """The bytes of the regular file `path`, at most `limit` of them (checked on the open
    handle and while reading, so a file that grows is caught too)."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise _open_error(path, exc) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise InputFileError(path, f"{_kind(info.st_mode)}, not a regular file")
        if info.st_size > limit:
            raise InputFileError(path, f"larger than {limit} bytes", size=info.st_size)
        chunks: list[bytes] = []
        size = 0
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                return b"".join(chunks)
            size += len(chunk)
            if size > limit:
                raise InputFileError(path, f"larger than {limit} bytes", size=size)
            chunks.append(chunk)
    except OSError as exc:
        raise _open_error(path, exc) from None
    finally:
        os.close(fd)


def decode(path: Path | str, data: bytes) -> str:
    """`data` as strict UTF-8; a bad byte is reported at its line and column."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise InputFileError(
            path, f"not UTF-8: byte 0x{data[exc.start]:02x} at column {column}", line
        ) from None


def read_text(path: Path | str, limit: int) -> str:
    """A bounded regular file decoded as strict UTF-8 (read_bytes, decode)."""
    return decode(path, read_bytes(path, limit))


def split_lines(text: str) -> list[str]:
    """Lines end at LF only (a CR before it is dropped): `str.splitlines` also splits at VT,
    FF, FS, GS, RS, NEL, LS and PS, which would report later errors at the wrong line."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def load_json(path: Path | str, limit: int = MAX_JSON_BYTES) -> Any:
    """A bounded JSON file read as PROTO-2 reads a line: no NaN or Infinity, numbers within
    binary64, no repeated key, nesting at most 64 levels (PROTO-36), no lone surrogate."""
    from conformance.common import strict_json

    text = read_text(path, limit)
    try:
        return strict_json.loads_strict(text)
    except json.JSONDecodeError as exc:
        raise InputFileError(path, f"not JSON: {exc.msg}", exc.lineno) from None
    except (ValueError, RecursionError) as exc:  # ProtocolError is a ValueError
        if isinstance(exc, RecursionError):
            raise InputFileError(
                path, f"arrays/objects nest deeper than {strict_json.MAX_DEPTH} levels (PROTO-36)"
            ) from None
        line, why = strict_json.locate_violation(text)
        if why == strict_json.UNLOCATED:
            why = f"{exc} (PROTO-2, PROTO-36)"
        raise InputFileError(path, why, line) from None
