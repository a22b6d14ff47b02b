"""One adapter process: start, handshake, one request at a time, stop (spec/adapter-protocol.md).

Three daemon threads per process keep the runner in control whatever the adapter does: one
reads stdout line by line (with a length cap), one drains stderr into a short tail (PROTO-3)
and one writes requests, so a blocked pipe can never stall the runner past its timeout. Every
fault surfaces as AdapterFault carrying the outcome it implies (crashed, timed_out or
protocol_violation); the caller decides what to do next.
"""

from __future__ import annotations

import collections
import contextlib
import hashlib
import os
import queue
import select
import shlex
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import IO, Any

from conformance.adapters import protocol
from conformance.adapters.protocol import Hello, Message
from conformance.common.strict_json import ProtocolError

STDERR_TAIL_LINES = 20
#: Longest answer line whose decoded form a report keeps in full (PROTO-39).
KEEP_LINE_BYTES = 64 * 1024
_STDERR_LINE_CHARS = 2000
#: Bytes kept of a stderr line: enough for _STDERR_LINE_CHARS characters of up to 4 bytes.
_STDERR_LINE_BYTES = 4 * _STDERR_LINE_CHARS


def _stderr_text(raw: bytes) -> str:
    """A kept stderr line as shown: decoded (bad bytes replaced), cut to _STDERR_LINE_CHARS."""
    text = raw.decode("utf-8", errors="replace").rstrip("\r\n")
    if len(raw) > _STDERR_LINE_BYTES or len(text) > _STDERR_LINE_CHARS:
        text = text[:_STDERR_LINE_CHARS] + "…"
    return text
#: How often a reader thread wakes to see whether it was told to stop (seconds).
_POLL = 0.1
#: After the adapter process exits, how long its stdout may stay open before the case is
#: `crashed` anyway (a detached descendant holds it; PROTO-34).
_EXIT_SETTLE = 0.3


class AdapterFault(Exception):
    """The adapter crashed, hung or broke the protocol; `outcome` is the case status it implies."""

    def __init__(
        self, outcome: str, message: str, stderr: Sequence[str] = (), *, retryable: bool = True
    ) -> None:
        super().__init__(message)
        self.outcome = outcome
        self.message = message
        self.stderr = list(stderr)
        #: False when starting again cannot help (no such program, wrong protocol version).
        self.retryable = retryable
        #: True when the adapter died without reading the request in flight (PROTO-14): it
        #: exited between cases, and the case is run again on a new adapter.
        self.unread = False


def start_hint(program: str, exc: OSError) -> str:
    """What to do about a program that cannot start: `./adapter` for a file in the current
    folder that PATH lookup missed, `chmod +x` for a file without the execute bit."""
    path = Path(program)
    if isinstance(exc, FileNotFoundError) and os.sep not in program and path.is_file():
        return f" (a file {program!r} is in this folder: run it as './{program}')"
    if isinstance(exc, PermissionError) and path.is_file() and not os.access(path, os.X_OK):
        return f" (it is not executable: chmod +x {shlex.quote(program)})"
    return ""


class AdapterProcess:
    """A running adapter. Not thread-safe: one caller, one request in flight (PROTO-8)."""

    def __init__(
        self,
        argv: Sequence[str],
        *,
        max_line_bytes: int = protocol.DEFAULT_MAX_LINE_BYTES,
        env: Mapping[str, str] | None = None,
        cwd: str | None = None,
    ) -> None:
        self.argv = list(argv)
        self.max_line_bytes = max_line_bytes
        self._env = dict(env) if env is not None else None
        self._cwd = cwd
        self._proc: subprocess.Popen[bytes] | None = None
        self._events: queue.Queue[tuple[str, bytes]] = queue.Queue()
        self._outbox: queue.Queue[bytes | None] = queue.Queue()
        #: Raw lines, each cut to _STDERR_LINE_BYTES; decoded only when shown.
        self._stderr: collections.deque[bytes] = collections.deque(maxlen=STDERR_TAIL_LINES)
        self._stderr_lock = threading.Lock()
        self._stderr_count = 0
        self._stdout_closed = False
        self._threads: list[threading.Thread] = []
        self._stop = threading.Event()
        self._sent = 0
        self._written = 0
        self._write_failed = False
        #: seqs of answers that arrived for a request no longer in flight (PROTO-35).
        self.extra_answers: list[int] = []
        #: size and SHA-256 of the last line read (PROTO-39: a long answer is kept as these).
        self.last_line: bytes | None = None
        self.last_line_bytes = 0
        self.last_line_sha256 = ""

    # -- lifecycle -------------------------------------------------------------------------

    def start(self) -> None:
        """Spawn the process in its own process group; raises AdapterFault(crashed) on OSError."""
        kwargs: dict[str, Any] = {}
        if os.name == "posix":
            kwargs["start_new_session"] = True
        else:  # pragma: no cover - exercised on Windows only
            kwargs["creationflags"] = getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0)
        try:
            self._proc = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env=self._env,
                cwd=self._cwd,
                **kwargs,
            )
        except OSError as exc:
            raise AdapterFault(
                "crashed",
                f"cannot start adapter {self.argv[0]!r}: {exc}{start_hint(self.argv[0], exc)}",
                retryable=False
            ) from exc
        proc = self._proc
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        self._spawn(self._read_stdout, proc.stdout, "stdout")
        self._spawn(self._read_stderr, proc.stderr, "stderr")
        self._spawn(self._write_stdin, proc.stdin, "stdin")

    def _spawn(self, target: Any, stream: IO[bytes], label: str) -> None:
        thread = threading.Thread(target=target, args=(stream,), name=f"hrc-{label}", daemon=True)
        thread.start()
        self._threads.append(thread)

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc is not None else None

    def alive(self) -> bool:
        """Running, and its stdout is still open."""
        return self._proc is not None and self._proc.poll() is None and not self._stdout_closed

    def exit_code(self) -> int | None:
        return self._proc.poll() if self._proc is not None else None

    def wait(self, timeout: float) -> int | None:
        """Wait up to `timeout` seconds for the process to exit; its status, or None."""
        if self._proc is None:
            return None
        try:
            return self._proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return None

    def stderr_tail(self) -> list[str]:
        with self._stderr_lock:
            return [_stderr_text(raw) for raw in self._stderr]

    def stderr_mark(self) -> int:
        """How many stderr lines have been read so far (for `stderr_since`)."""
        with self._stderr_lock:
            return self._stderr_count

    def stderr_since(self, mark: int, fresh_only: bool = False) -> list[str]:
        """The kept lines read after `mark`; when none arrived since, the whole tail, or
        nothing with `fresh_only` (a case never shows an earlier case's stderr, PROTO-3)."""
        with self._stderr_lock:
            fresh = self._stderr_count - mark
            lines = [_stderr_text(raw) for raw in self._stderr]
        if fresh <= 0:
            return [] if fresh_only else lines
        return lines[-fresh:]

    def close(self, grace: float = 1.0) -> None:
        """Say bye, let the adapter exit for `grace` seconds, then kill it (PROTO-12)."""
        proc = self._proc
        if proc is None:
            return
        if proc.poll() is None:
            self._outbox.put(protocol.encode(protocol.bye()))
            self._outbox.put(None)
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=grace)
        self.kill()
        for thread in self._threads[:1]:
            thread.join(timeout=grace)
        self.drain_answers()

    def kill(self) -> None:
        """Kill the adapter, its process group and every process still holding one of its
        pipes (a detached descendant, PROTO-34); idempotent, never blocks on a pipe."""
        proc = self._proc
        if proc is None:
            return
        if proc.poll() is None:
            try:
                if os.name == "posix":
                    os.killpg(proc.pid, signal.SIGKILL)
                else:  # pragma: no cover
                    proc.kill()
            except (ProcessLookupError, PermissionError):
                with contextlib.suppress(OSError):
                    proc.kill()
        elif os.name == "posix":
            # The leader is gone; children it left in its group still hold our pipes.
            with contextlib.suppress(OSError):
                os.killpg(proc.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=5)
        kill_pipe_holders(proc)
        self._stop.set()
        self._outbox.put(None)
        for thread in self._threads:
            thread.join(timeout=1)
        threads: dict[str, threading.Thread] = {t.name: t for t in self._threads}
        pipes = ((proc.stdout, "stdout"), (proc.stderr, "stderr"), (proc.stdin, "stdin"))
        for stream, label in pipes:
            # A stream whose thread is still blocked in it is left alone: closing it from
            # here would block on the reader's lock (the issue-16 hang).
            holder = threads.get(f"hrc-{label}")
            if stream is not None and (holder is None or not holder.is_alive()):
                with contextlib.suppress(OSError, ValueError):
                    stream.close()

    # -- threads ---------------------------------------------------------------------------

    def _chunks(self, stream: IO[bytes]) -> Any:
        """Raw chunks from `stream` until EOF or until told to stop (never a blocking read
        that another thread must interrupt: on POSIX it waits with select and a short poll)."""
        if os.name != "posix":  # pragma: no cover - Windows pipes cannot be selected
            while True:
                try:
                    chunk = stream.read1(64 * 1024)  # type: ignore[attr-defined]
                except (OSError, ValueError):
                    return
                if not chunk:
                    return
                yield chunk
        fd = stream.fileno()
        while not self._stop.is_set():
            try:
                ready, _, _ = select.select([fd], [], [], _POLL)
                if not ready:
                    continue
                chunk = os.read(fd, 64 * 1024)
            except (OSError, ValueError):
                return
            if not chunk:
                return
            yield chunk

    def _read_stdout(self, stream: IO[bytes]) -> None:
        cap = self.max_line_bytes
        pending = bytearray()
        for chunk in self._chunks(stream):
            scan = len(pending)  # the bytes before it hold no newline: search only the chunk
            pending += chunk
            while True:
                end = pending.find(b"\n", scan)
                scan = 0
                if end < 0:
                    break
                content = bytes(pending[:end])
                del pending[: end + 1]
                if content.endswith(b"\r"):
                    content = content[:-1]
                if len(content) > cap:
                    self._events.put(("oversize", b""))
                    return
                self._events.put(("line", content))
            if len(pending) > cap + 1:
                self._events.put(("oversize", b""))
                return  # stop reading; the caller kills the process
        if pending:
            self._events.put(("partial", bytes(pending)))
        self._events.put(("eof", b""))

    def _read_stderr(self, stream: IO[bytes]) -> None:
        pending = bytearray()
        for chunk in self._chunks(stream):
            pending += chunk
            while True:
                end = pending.find(b"\n")
                if end < 0:
                    break
                self._keep_stderr(bytes(pending[:end]))
                del pending[: end + 1]
            if len(pending) > 64 * 1024:
                self._keep_stderr(bytes(pending))
                pending.clear()
        if pending:
            self._keep_stderr(bytes(pending))

    def _keep_stderr(self, raw: bytes) -> None:
        """Keep a line's first _STDERR_LINE_BYTES bytes, undecoded: decoding every 64 KiB
        piece of a flood before cutting it starved the stdout reader (issue 29)."""
        with self._stderr_lock:
            self._stderr.append(raw[: _STDERR_LINE_BYTES + 1])
            self._stderr_count += 1

    def _write_stdin(self, stream: IO[bytes]) -> None:
        while True:
            data = self._outbox.get()
            if data is None:
                with contextlib.suppress(OSError, ValueError):
                    stream.close()
                return
            try:
                stream.write(data)
                stream.flush()
            except (OSError, ValueError):
                self._write_failed = True
                self._written += 1
                return  # the adapter went away; the stdout reader reports it
            self._written += 1

    # -- messages --------------------------------------------------------------------------

    def send(self, message: Message) -> None:
        self._sent += 1
        self._outbox.put(protocol.encode(message))

    def request_unread(self) -> bool:
        """The adapter is gone and never read the last request (PROTO-14): the write failed
        (EPIPE) or its bytes still sit in the pipe. False when unknown."""
        deadline = time.monotonic() + 0.5
        while self._written < self._sent and time.monotonic() < deadline:
            time.sleep(0.01)
        if self._write_failed:
            return True
        proc = self._proc
        if proc is None or proc.stdin is None or os.name != "posix":
            return False
        try:
            import array
            import fcntl
            import termios

            pending = array.array("i", [0])
            fcntl.ioctl(proc.stdin.fileno(), termios.FIONREAD, pending)
        except (OSError, ValueError, ImportError):
            return False
        return pending[0] > 0

    def receive(self, timeout: float, what: str) -> Message:
        """The next message from the adapter, validated; raises AdapterFault.

        The process exiting counts like EOF once `_EXIT_SETTLE` passes without one: a
        descendant still holding stdout must not turn a crash into a timeout (PROTO-34).
        """
        deadline = time.monotonic() + timeout
        exited_at: float | None = None
        while True:
            now = time.monotonic()
            remaining = deadline - now
            if exited_at is None and self._proc is not None and self._proc.poll() is not None:
                exited_at = now
            if exited_at is not None and now - exited_at >= _EXIT_SETTLE:
                self._stdout_closed = True
                fault = AdapterFault(
                    "crashed",
                    self._exit_description(what)
                    + " (a descendant still held its stdout and was killed)",
                    self.stderr_tail(),
                )
                raise fault
            try:
                kind, data = self._events.get(timeout=max(min(remaining, _POLL), 0.0))
            except queue.Empty:
                if time.monotonic() < deadline:
                    continue
                raise AdapterFault(
                    "timed_out",
                    f"no answer to {what} within {timeout:g} s",
                    self.stderr_tail(),
                ) from None
            if kind == "line":
                self.last_line = data if len(data) <= KEEP_LINE_BYTES else None
                self.last_line_bytes = len(data)
                self.last_line_sha256 = hashlib.sha256(data).hexdigest()
                try:
                    return protocol.decode_from_adapter(data)
                except ProtocolError as exc:
                    raise AdapterFault(
                        "protocol_violation", f"in answer to {what}: {exc}", self.stderr_tail()
                    ) from exc
            if kind == "oversize":
                self._stdout_closed = True
                raise AdapterFault(
                    "protocol_violation",
                    f"in answer to {what}: a line longer than {self.max_line_bytes} bytes",
                    self.stderr_tail(),
                )
            if kind == "partial":
                continue  # an unterminated last line: EOF follows and is reported as a crash
            self._stdout_closed = True
            raise AdapterFault("crashed", self._exit_description(what), self._settled_tail())

    def drain_answers(self) -> None:
        """Record answers still queued (after the last case or at bye) as extra (PROTO-35)."""
        while True:
            try:
                kind, data = self._events.get_nowait()
            except queue.Empty:
                return
            if kind != "line":
                continue
            try:
                message = protocol.decode_from_adapter(data)
            except ProtocolError:
                continue
            if message["type"] in ("result", "error"):
                self.extra_answers.append(message["seq"])

    def _exit_description(self, what: str) -> str:
        proc = self._proc
        code: int | None = None
        if proc is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                code = proc.wait(timeout=1.0)
        if code is None:
            return f"adapter closed its stdout during {what} (process still running)"
        if code < 0 and os.name == "posix":
            try:
                name = signal.Signals(-code).name
            except ValueError:
                name = str(-code)
            return f"adapter was killed by signal {name} during {what}"
        return f"adapter exited with status {code} during {what}"

    def _settled_tail(self) -> list[str]:
        """stderr tail after the process has gone (its last words arrive with EOF)."""
        for thread in self._threads:
            if thread.name == "hrc-stderr":
                thread.join(timeout=0.5)
        return self.stderr_tail()

    def handshake(self, timeout: float) -> Hello:
        """Send hello and read the adapter's hello (PROTO-5, PROTO-6); raises AdapterFault."""
        self.send(protocol.hello_request())
        message = self.receive(timeout, "hello")
        if message["type"] != "hello":
            raise AdapterFault(
                "protocol_violation",
                f"expected a hello answer, got a {message['type']!r} message",
                self.stderr_tail(),
            )
        hello = Hello.from_message(message)
        if hello.protocol != protocol.PROTOCOL_VERSION:
            raise AdapterFault(
                "protocol_violation",
                f"adapter speaks protocol {hello.protocol}, "
                f"this runner speaks {protocol.PROTOCOL_VERSION}",
                self.stderr_tail(),
                retryable=False,
            )
        return hello

    def request(
        self, seq: int, case: str, op: str, input: dict[str, Any], timeout: float
    ) -> Message:
        """Run one case; the answer is a validated result or error with the same seq."""
        self.send(protocol.run_request(seq, case, op, input))
        deadline = time.monotonic() + timeout
        while True:
            message = self.receive(max(deadline - time.monotonic(), 0.0), f"run seq {seq}")
            stale = message["type"] in ("result", "error") and message["seq"] < seq
            if not stale:
                break
            self.extra_answers.append(message["seq"])  # a second answer to an earlier case
        if message["type"] not in ("result", "error"):
            raise AdapterFault(
                "protocol_violation",
                f"expected a result or error for seq {seq}, got a {message['type']!r} message",
                self.stderr_tail(),
            )
        if message["seq"] != seq:
            raise AdapterFault(
                "protocol_violation",
                f"answer carries seq {message['seq']}, the request in flight is seq {seq}",
                self.stderr_tail(),
            )
        return message


def python_command(module: str) -> list[str]:
    """argv that runs `python -m module` with this interpreter."""
    return [sys.executable, "-m", module]


def _pipe_inodes(proc: subprocess.Popen[bytes]) -> set[str]:
    inodes = set()
    for stream in (proc.stdin, proc.stdout, proc.stderr):
        if stream is None:
            continue
        with contextlib.suppress(OSError, ValueError):
            inodes.add(f"pipe:[{os.fstat(stream.fileno()).st_ino}]")
    return inodes


def kill_pipe_holders(proc: subprocess.Popen[bytes]) -> list[int]:
    """SIGKILL every process (ours to signal) holding one of `proc`'s pipes: a descendant
    that left the process group (setsid, a daemon) (PROTO-34). Linux /proc only; a no-op
    elsewhere. Returns the pids killed."""
    if not os.path.isdir("/proc/self/fd"):
        return []
    wanted = _pipe_inodes(proc)
    if not wanted:
        return []
    me = os.getpid()
    killed = []
    try:
        entries = os.listdir("/proc")
    except OSError:
        return []
    for entry in entries:
        if not entry.isdigit() or int(entry) == me:
            continue
        try:
            fds = os.listdir(f"/proc/{entry}/fd")
        except OSError:
            continue  # gone, or not ours to look at
        for fd in fds:
            try:
                target = os.readlink(f"/proc/{entry}/fd/{fd}")
            except OSError:
                continue
            if target in wanted:
                with contextlib.suppress(OSError):
                    os.kill(int(entry), signal.SIGKILL)
                    killed.append(int(entry))
                break
    return killed
