"""A flood of newline-less, non-UTF-8 stderr costs the reader no more than plain text of the
same size (issue 29, item 8): pieces are cut before anything is decoded, so the stdout reader
is never starved and a correct answer behind the flood is not `timed_out`."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest
from fake_adapters.support import fake, write_tiny_golden

from conformance import cli
from conformance.adapters.adapter_process import AdapterProcess

POSIX = pytest.mark.skipif(os.name != "posix", reason="select on pipes")
FLOOD = 64 * 1024 * 1024


def _reader_cpu(payload: bytes) -> float:
    """CPU seconds of this process while one adapter's stderr reader drains `payload`."""
    proc = AdapterProcess(["unused"])
    read_fd, write_fd = os.pipe()

    def write() -> None:
        with os.fdopen(write_fd, "wb") as out:
            for _ in range(FLOOD // len(payload)):
                out.write(payload)

    writer = threading.Thread(target=write)
    start = time.process_time()
    writer.start()
    with os.fdopen(read_fd, "rb") as stream:
        proc._read_stderr(stream)
    writer.join()
    return time.process_time() - start


@POSIX
def test_undecodable_stderr_costs_what_text_costs() -> None:
    text = min(_reader_cpu(b"x" * (1 << 20)) for _ in range(2))
    junk = min(_reader_cpu(b"\xff\xfe" * (1 << 19)) for _ in range(2))
    assert junk < 3 * text + 0.05, f"junk {junk:.2f} s against text {text:.2f} s of CPU"


def test_the_tail_keeps_a_bounded_piece_of_each_line() -> None:
    proc = AdapterProcess(["unused"])
    proc._keep_stderr(b"\xff" * (1 << 20))
    proc._keep_stderr("é".encode() * 10)
    first, second = proc.stderr_tail()
    assert first == "\ufffd" * 2000 + "…"
    assert second == "é" * 10


@POSIX
def test_a_correct_answer_behind_a_stderr_flood_passes(tmp_path: Path) -> None:
    golden = write_tiny_golden(tmp_path)
    code = cli.main(["run", "--golden", str(golden), "--adapter",
                     " ".join(fake("stderr_spam", "--flood", str(16 * 1024 * 1024))),
                     "--quiet", "--timeout", "30"])
    assert code == 0
