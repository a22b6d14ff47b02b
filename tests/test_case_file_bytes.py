"""A bad byte, a NUL or a control character in a case file is reported at its own line, and a
case file is read only as a bounded regular file (issue 29, item 11)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conformance.judging.cases import CaseFileError, load_file

HEAD = b"op: length\ncases:\n"
CASE = b"  - id: bytes/x\n    description: d\n    clauses: [TEXT-8]\n"


def _write(tmp_path: Path, data: bytes) -> Path:
    path = tmp_path / "length" / "bad.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


def test_a_bad_byte_is_reported_at_its_line(tmp_path: Path) -> None:
    path = _write(tmp_path, HEAD + CASE + b"    input: {text: \"a\xffb\"}\n")
    with pytest.raises(CaseFileError, match=r"bad\.yaml:6: not UTF-8: byte 0xff at column 21"):
        load_file(path, tmp_path)


@pytest.mark.parametrize(("char", "code"), [(b"\x00", "0000"), (b"\x01", "0001"),
                                            (b"\x7f", "007F")])
def test_a_refused_character_is_reported_at_its_line(
    tmp_path: Path, char: bytes, code: str
) -> None:
    path = _write(tmp_path, HEAD + CASE + b"    input: {text: \"a" + char + b"b\"}\n")
    with pytest.raises(CaseFileError, match=rf"bad\.yaml:6: invalid YAML: character U\+{code}"):
        load_file(path, tmp_path)


@pytest.mark.skipif(os.name != "posix", reason="FIFOs")
def test_a_fifo_case_file_is_refused_without_blocking(tmp_path: Path) -> None:
    path = tmp_path / "length" / "pipe.yaml"
    path.parent.mkdir()
    os.mkfifo(path)
    code = ("import sys; from pathlib import Path; from conformance.judging.cases import load_file\n"  # noqa: E501
            "try:\n    load_file(Path(sys.argv[1]), Path(sys.argv[2]))\n"
            "except Exception as exc:\n    print(exc)\n")
    done = subprocess.run([sys.executable, "-c", code, str(path), str(tmp_path)],
                          capture_output=True, text=True, timeout=60, check=False)
    assert "pipe.yaml:1: cannot read: a FIFO, not a regular file" in done.stdout
