"""Build a port before its handshake, with its own progress line and time limit.

A compiled adapter that builds itself inside the handshake looks hung (a cold `go build` takes
a minute or more) and fails once the build outlasts the handshake timeout. So `hrc run` (and
`hrc properties`) first run the port's build step, if it has one, and only then start it:

- `--build CMD` runs CMD (through `sh -c`, in the current folder);
- otherwise `hrc-adapter.yaml` beside the adapter program (the first word of `--adapter`)
  may declare `build: CMD`, run in that folder; `init-port` writes one for every compiled
  scaffold (`build: ./adapter --build`). `--no-build` skips it.

The build's output is relayed to stderr (stdout carries nothing), a line says what is being
built and how long it took, and a build that fails or outlasts `--build-timeout` (default
600 s, or the file's `buildTimeout`) stops the run with one error line, exit 2.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import queue
import signal
import subprocess
import threading
import time
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

import yaml

from conformance.adapters.adapter_process import kill_pipe_holders
from conformance.common import yaml_loader
from conformance.common.errors import HrcError
from conformance.common.printable import printable

#: The file beside an adapter program that declares its build step.
DECLARATION = "hrc-adapter.yaml"
DEFAULT_TIMEOUT = 600.0
#: Seconds between two "still building" lines while the build prints nothing.
TICK = 15.0
#: Lines of build output shown again when the build fails.
TAIL_LINES = 20
#: PROTO-50: a relayed build line keeps this many bytes (the rest is counted, not kept).
MAX_LINE_BYTES = 4096
#: Build output is read and relayed this many bytes at a time.
CHUNK_BYTES = 64 * 1024
#: Chunks read ahead of the terminal at most (memory stays under a few MiB).
QUEUED_BATCHES = 16
#: After the build's shell exits, its output must end within this many seconds of quiet.
EXIT_GRACE_S = 0.3
#: ... and within this many more bytes (a pipe's worth and what was queued, with room).
POST_EXIT_BYTES = 4 * 1024 * 1024
#: The largest hrc-adapter.yaml read.
MAX_DECLARATION_BYTES = 64 * 1024


@dataclass(frozen=True)
class BuildStep:
    """A command to run before the handshake, where, and for how long at most."""

    command: str
    cwd: Path
    timeout: float
    source: str  # where it was declared: `--build` or the declaration file


class BuildError(HrcError):
    """The build step is malformed, failed or timed out; the message is one line."""


def declaration_for(argv: list[str]) -> Path | None:
    """`hrc-adapter.yaml` beside the adapter program (argv[0]) when that is a file."""
    if not argv:
        return None
    program = Path(argv[0])
    if not program.is_file():
        return None
    candidate = program.parent / DECLARATION
    return candidate if candidate.is_file() else None


def read_declaration(path: Path) -> tuple[str | None, float | None]:
    """(build command, buildTimeout) from a declaration file; `path:line: message` if bad."""
    try:
        with path.open("rb") as fh:
            data = fh.read(MAX_DECLARATION_BYTES + 1)
        if len(data) > MAX_DECLARATION_BYTES:
            raise BuildError(f"{path}:1: larger than {MAX_DECLARATION_BYTES // 1024} KiB "
                             "(PROTO-50); not read")
        document = yaml_loader.load(data.decode("utf-8"))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else 1
        raise BuildError(f"{path}:{line}: not valid YAML") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise BuildError(f"{path}:1: cannot read: {exc}") from None
    if document is None:
        return None, None
    if not isinstance(document, dict):
        raise BuildError(f"{path}:1: expected a mapping with `build`")
    unknown = sorted(set(document) - {"build", "buildTimeout"})
    if unknown:
        raise BuildError(f"{path}:1: unknown key(s) {', '.join(map(str, unknown))} "
                         "(known: build, buildTimeout)")
    command = document.get("build")
    if command is not None and (not isinstance(command, str) or not command.strip()):
        raise BuildError(f"{path}:1: `build` must be a non-empty command line")
    if command is not None and "\x00" in command:
        raise BuildError(f"{path}:1: `build` holds a NUL character")
    limit = document.get("buildTimeout")
    if limit is not None and (
        isinstance(limit, bool) or not isinstance(limit, int | float) or not limit > 0
    ):
        raise BuildError(f"{path}:1: `buildTimeout` must be a positive number of seconds")
    return command, (float(limit) if limit is not None else None)


def plan(
    argv: list[str], build: str | None, no_build: bool, timeout: float | None
) -> BuildStep | None:
    """The build step a run performs, or None: `--build`, else the adapter's declaration."""
    if build is not None:
        if not build.strip():
            raise BuildError("--build is empty")
        if "\x00" in build:
            raise BuildError("--build holds a NUL character")
        return BuildStep(build, Path.cwd(), timeout or DEFAULT_TIMEOUT, "--build")
    if no_build:
        return None
    path = declaration_for(argv)
    if path is None:
        return None
    command, declared = read_declaration(path)
    if command is None:
        return None
    return BuildStep(command, path.parent, timeout or declared or DEFAULT_TIMEOUT, str(path))


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    """Kill the build's process group and every process still holding its output pipe (a
    `setsid` daemon the build left, PROTO-34), then reap the build."""
    with contextlib.suppress(OSError):
        os.killpg(proc.pid, signal.SIGKILL)
    with contextlib.suppress(OSError):
        proc.kill()
    kill_pipe_holders(proc)
    proc.wait()


Batch = list[tuple[bytes, int]]


def _pump(proc: subprocess.Popen[bytes], batches: queue.Queue[Batch | None]) -> None:
    """Read the build's output in chunks and queue it as lines, one batch per chunk; a line
    keeps its first MAX_LINE_BYTES bytes and counts the rest (PROTO-50). The queue is bounded,
    so a build that prints faster than the terminal takes waits for it."""
    assert proc.stdout is not None
    fd = proc.stdout.fileno()
    partial = bytearray()
    dropped = 0
    try:
        while True:
            try:
                data = os.read(fd, CHUNK_BYTES)
            except OSError:
                data = b""
            if not data:
                break
            batch: Batch = []
            start = 0
            while True:
                nl = data.find(b"\n", start)
                piece = data[start:] if nl < 0 else data[start:nl]
                room = MAX_LINE_BYTES - len(partial)
                if room > 0:
                    partial += piece[:room]
                dropped += max(0, len(piece) - max(room, 0))
                if nl < 0:
                    break
                batch.append((bytes(partial), dropped))
                partial.clear()
                dropped = 0
                start = nl + 1
            if batch:
                batches.put(batch)
        if partial or dropped:
            batches.put([(bytes(partial), dropped)])
    finally:
        batches.put(None)


def _shown(raw: bytes, dropped: int) -> str:
    text = printable(raw.decode("utf-8", "replace").rstrip("\r"))
    return text + (f" \u2026 ({dropped} more bytes)" if dropped else "")


def run(step: BuildStep, stream: TextIO, command: str, quiet: bool = False) -> float:
    """Run the build step, relaying its output to `stream`; seconds taken. Raises BuildError.

    Bounded like the adapter (PROTO-50): a line is relayed up to MAX_LINE_BYTES, output is
    relayed a chunk at a time, and once the build's shell has exited the run waits at most
    EXIT_GRACE_S for its output to end: a process it left holding the pipe is killed."""
    where = step.cwd.as_posix()
    stream.write(f"hrc {command}: building the adapter: {printable(step.command)} (in {where}, "
                 f"from {printable(step.source)}; limit {step.timeout:g} s, --build-timeout)\n")
    stream.flush()
    clock = time.monotonic()
    try:
        proc = subprocess.Popen(
            ["/bin/sh", "-c", step.command], cwd=step.cwd, stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True,
        )
    except (OSError, ValueError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise BuildError(f"build {printable(step.command)}: cannot start: {reason}") from None
    batches: queue.Queue[Batch | None] = queue.Queue(maxsize=QUEUED_BATCHES)
    threading.Thread(target=_pump, args=(proc, batches), daemon=True).start()
    tail: deque[str] = deque(maxlen=TAIL_LINES)
    last_said = last_data = clock
    exited_at: float | None = None
    killed_at: float | None = None
    after_exit = 0  # bytes read once the build's shell had exited
    try:
        while True:
            now = time.monotonic()
            if now - clock > step.timeout:
                _kill_group(proc)
                raise BuildError(
                    f"build {step.command!r} did not finish within {step.timeout:g} s "
                    "(raise the limit with --build-timeout)"
                )
            if exited_at is None and proc.poll() is not None:
                exited_at = now
            if exited_at is not None and killed_at is None and (
                now - max(exited_at, last_data) > EXIT_GRACE_S or after_exit > POST_EXIT_BYTES
            ):
                # What the build wrote before it exited has been read (the pipe went quiet, or
                # more than a pipe's worth came after): a process still holding the pipe is
                # not the build. Killing it ends the pipe; what is queued is still relayed.
                _kill_group(proc)
                killed_at = now
            wait = min(1.0, max(0.05, step.timeout - (now - clock)))
            if exited_at is not None:
                wait = min(wait, 0.05)
            try:
                batch = batches.get(timeout=wait)
            except queue.Empty:
                if killed_at is not None and time.monotonic() - killed_at > EXIT_GRACE_S:
                    break  # the pipe is not ending: stop reading it
                if not quiet and time.monotonic() - last_said >= TICK:
                    last_said = time.monotonic()
                    stream.write(f"hrc {command}: still building ({last_said - clock:.0f} s)\n")
                    stream.flush()
                continue
            if batch is None:
                break
            last_data = time.monotonic()
            if exited_at is not None:
                after_exit += sum(len(raw) + dropped + 1 for raw, dropped in batch)
            texts = [_shown(raw, dropped) for raw, dropped in batch]
            tail.extend(texts)
            if not quiet:
                stream.write("".join(f"  | {text}\n" for text in texts))
                stream.flush()
                last_said = time.monotonic()
        remaining = max(0.05, step.timeout - (time.monotonic() - clock))
        try:
            status = proc.wait(timeout=remaining)
        except subprocess.TimeoutExpired:
            _kill_group(proc)
            raise BuildError(
                f"build {step.command!r} did not finish within {step.timeout:g} s "
                "(raise the limit with --build-timeout)"
            ) from None
    except BaseException:
        if proc.poll() is None:
            _kill_group(proc)
        else:
            kill_pipe_holders(proc)
        raise
    took = time.monotonic() - clock
    if status != 0:
        if quiet:
            stream.writelines(f"  | {text}\n" for text in tail)
        raise BuildError(f"build {step.command!r} failed (exit {status}) after {took:.1f} s; "
                         "its output is above")
    stream.write(f"hrc {command}: adapter built in {took:.1f} s\n")
    stream.flush()
    return took


def add_arguments(p: argparse.ArgumentParser) -> None:
    """`--build`, `--no-build` and `--build-timeout` for a command that starts an adapter."""
    p.add_argument(
        "--build", metavar="CMD",
        help=f"run CMD (sh -c) before starting the adapter; default: the `build` of "
        f"{DECLARATION} beside the adapter program, if any",
    )
    p.add_argument("--no-build", action="store_true", help=f"skip the {DECLARATION} build step")
    p.add_argument(
        "--build-timeout", type=positive_seconds, metavar="S",
        help=f"limit of the build step ({DEFAULT_TIMEOUT:g}, or the file's buildTimeout)",
    )


def positive_seconds(text: str) -> float:
    """An argparse type: a positive number of seconds (`--build-timeout`, `--timeout`, ...)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError("must be a positive number of seconds")
    return value


def prepare(args: Any, argv: list[str], command: str, stream: TextIO) -> None:
    """Plan and run the build step of `args` (from `add_arguments`); raises BuildError."""
    step = plan(argv, args.build, args.no_build, args.build_timeout)
    if step is not None:
        run(step, stream, command, quiet=bool(getattr(args, "quiet", False)))
