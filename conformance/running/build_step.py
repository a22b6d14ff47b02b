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

from conformance.common.errors import HrcError
from conformance.common.printable import printable

#: The file beside an adapter program that declares its build step.
DECLARATION = "hrc-adapter.yaml"
DEFAULT_TIMEOUT = 600.0
#: Seconds between two "still building" lines while the build prints nothing.
TICK = 15.0
#: Lines of build output shown again when the build fails.
TAIL_LINES = 20


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
        document = yaml.safe_load(path.read_text(encoding="utf-8"))
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
    with contextlib.suppress(OSError):
        os.killpg(proc.pid, signal.SIGKILL)
    with contextlib.suppress(OSError):
        proc.kill()
    proc.wait()


def run(step: BuildStep, stream: TextIO, command: str, quiet: bool = False) -> float:
    """Run the build step, relaying its output to `stream`; seconds taken. Raises BuildError."""
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
    except OSError as exc:
        raise BuildError(f"build {step.command!r}: cannot start: {exc.strerror or exc}") from None
    lines: queue.Queue[bytes | None] = queue.Queue()

    def pump() -> None:
        assert proc.stdout is not None
        for raw in proc.stdout:
            lines.put(raw)
        lines.put(None)

    threading.Thread(target=pump, daemon=True).start()
    tail: deque[str] = deque(maxlen=TAIL_LINES)
    last_said = clock
    done = False
    try:
        while not done:
            now = time.monotonic()
            if now - clock > step.timeout:
                _kill_group(proc)
                raise BuildError(
                    f"build {step.command!r} did not finish within {step.timeout:g} s "
                    "(raise the limit with --build-timeout)"
                )
            try:
                raw = lines.get(timeout=min(1.0, max(0.05, step.timeout - (now - clock))))
            except queue.Empty:
                if not quiet and time.monotonic() - last_said >= TICK:
                    last_said = time.monotonic()
                    stream.write(f"hrc {command}: still building ({last_said - clock:.0f} s)\n")
                    stream.flush()
                continue
            if raw is None:
                done = True
                continue
            text = printable(raw.decode("utf-8", "replace").rstrip("\r\n"))
            tail.append(text)
            if not quiet:
                stream.write(f"  | {text}\n")
                stream.flush()
                last_said = time.monotonic()
        status = proc.wait()
    except BaseException:
        if proc.poll() is None:
            _kill_group(proc)
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
