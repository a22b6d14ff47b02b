"""PROTO-50: the build step is bounded like the adapter (issue 39, item 4): a daemon the build
leaves holding its output cannot hold the run, a line without an end is kept to a bound, output
is relayed a chunk at a time, a NUL or a huge hrc-adapter.yaml is one error line."""

from __future__ import annotations

import io
import os
import time
from pathlib import Path

import pytest

from conformance.running import build_step
from conformance.running.build_step import BuildError, BuildStep

POSIX = pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="needs Linux /proc")


class Counting(io.StringIO):
    """A stream that counts its writes (work, not time)."""

    def __init__(self) -> None:
        super().__init__()
        self.writes = 0

    def write(self, s: str) -> int:
        self.writes += 1
        return super().write(s)


def _build(command: str, tmp_path: Path, timeout: float = 60.0) -> tuple[float, Counting]:
    out = Counting()
    took = build_step.run(BuildStep(command, tmp_path, timeout, "--build"), out, "run")
    return took, out


def _running(marker: str) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as fh:
                if marker.encode() in fh.read():
                    found.append(int(entry))
        except OSError:
            continue
    return found


@POSIX
def test_a_daemon_holding_the_build_output_neither_holds_the_run_nor_survives(
    tmp_path: Path,
) -> None:
    """Before: `hrc` waited for the daemon's 40 s (and it kept running after)."""
    took, out = _build("setsid sleep 41.37 & echo built", tmp_path)
    assert took < 20  # a bound far below the daemon's 41 s, not a timing of the relay
    assert "built" in out.getvalue()
    deadline = time.monotonic() + 5
    while _running("41.37") and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _running("41.37") == []


@POSIX
def test_a_daemon_that_keeps_writing_is_cut_after_a_bound_and_killed(tmp_path: Path) -> None:
    """A daemon writing for ever to the build's pipe does not hold the run to the timeout."""
    took, out = _build("setsid yes hrc-daemon-4711 & echo built", tmp_path)
    assert took < 30
    assert "built" in out.getvalue()
    deadline = time.monotonic() + 5
    while _running("hrc-daemon-4711") and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _running("hrc-daemon-4711") == []


@pytest.mark.parametrize("unit", [256 * 1024])
def test_a_line_without_an_end_is_kept_to_a_bound(tmp_path: Path, unit: int) -> None:
    """What is relayed of one endless line is the same size for 1 and 16 units of output
    (before: it grew with the output, 80 MB took 878 MB of memory)."""
    sizes = []
    for factor in (1, 16):
        n = unit * factor
        _, out = _build(f"head -c {n} /dev/zero | tr '\\0' a", tmp_path)
        text = out.getvalue()
        assert f"({n - build_step.MAX_LINE_BYTES} more bytes)" in text
        sizes.append(len(text))
    assert sizes[1] - sizes[0] < 16  # only the digits of the count differ


def test_short_lines_are_relayed_a_chunk_at_a_time(tmp_path: Path) -> None:
    """200,000 lines take a few dozen writes, not one write and flush per line."""
    _, out = _build("i=0; seq 200000", tmp_path)
    assert out.getvalue().count("\n  | ") >= 199_999
    assert out.writes < 200_000 / 100


def test_a_nul_in_the_build_command_is_one_error(tmp_path: Path) -> None:
    with pytest.raises(BuildError, match="NUL"):
        build_step.plan(["x"], "echo a\x00b", False, None)
    port = tmp_path / "adapter"
    port.write_text("#!/bin/sh\n", encoding="utf-8")
    (tmp_path / "hrc-adapter.yaml").write_text('build: "make\\0all"\n', encoding="utf-8")
    with pytest.raises(BuildError, match="NUL"):
        build_step.plan([str(port)], None, False, None)
    with pytest.raises(BuildError, match="cannot start"):  # and never a traceback
        build_step.run(BuildStep("a\x00b", tmp_path, 5, "--build"), io.StringIO(), "run")


def test_a_huge_declaration_is_not_read(tmp_path: Path) -> None:
    port = tmp_path / "adapter"
    port.write_text("#!/bin/sh\n", encoding="utf-8")
    (tmp_path / "hrc-adapter.yaml").write_text(
        "build: make\n" + "# pad\n" * (build_step.MAX_DECLARATION_BYTES // 6 + 10),
        encoding="utf-8")
    with pytest.raises(BuildError, match="larger than 64 KiB"):
        build_step.plan([str(port)], None, False, None)
