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
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Mapping, Sequence
from typing import IO, Any

from conformance import protocol
from conformance.protocol import Hello, Message, ProtocolError

STDERR_TAIL_LINES = 20
_STDERR_LINE_CHARS = 2000


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
        self._stderr: collections.deque[str] = collections.deque(maxlen=STDERR_TAIL_LINES)
        self._stderr_lock = threading.Lock()
        self._stderr_count = 0
        self._stdout_closed = False
        self._threads: list[threading.Thread] = []

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
                "crashed", f"cannot start adapter {self.argv[0]!r}: {exc}", retryable=False
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
            return list(self._stderr)

    def stderr_mark(self) -> int:
        """How many stderr lines have been read so far (for `stderr_since`)."""
        with self._stderr_lock:
            return self._stderr_count

    def stderr_since(self, mark: int) -> list[str]:
        """The kept lines read after `mark`; the whole tail when none arrived since."""
        with self._stderr_lock:
            fresh = self._stderr_count - mark
            lines = list(self._stderr)
        if fresh <= 0:
            return lines
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

    def kill(self) -> None:
        """Kill the adapter and its process group; idempotent."""
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
        self._outbox.put(None)
        for thread in self._threads:
            thread.join(timeout=1)
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            if stream is not None:
                with contextlib.suppress(OSError, ValueError):
                    stream.close()

    # -- threads ---------------------------------------------------------------------------

    def _read_stdout(self, stream: IO[bytes]) -> None:
        cap = self.max_line_bytes
        while True:
            try:
                line = stream.readline(cap + 2)
            except (OSError, ValueError):
                line = b""
            if not line:
                self._events.put(("eof", b""))
                return
            if not line.endswith(b"\n"):
                if len(line) > cap:
                    self._events.put(("oversize", b""))
                    return  # stop reading; the caller kills the process
                self._events.put(("partial", line))
                continue
            content = line[:-1]
            if content.endswith(b"\r"):
                content = content[:-1]
            if len(content) > cap:
                self._events.put(("oversize", b""))
                return
            self._events.put(("line", content))

    def _read_stderr(self, stream: IO[bytes]) -> None:
        while True:
            try:
                chunk = stream.readline(64 * 1024)
            except (OSError, ValueError):
                return
            if not chunk:
                return
            text = chunk.decode("utf-8", errors="replace").rstrip("\r\n")
            if len(text) > _STDERR_LINE_CHARS:
                text = text[:_STDERR_LINE_CHARS] + "…"
            with self._stderr_lock:
                self._stderr.append(text)
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
                return  # the adapter went away; the stdout reader reports it

    # -- messages --------------------------------------------------------------------------

    def send(self, message: Message) -> None:
        self._outbox.put(protocol.encode(message))

    def receive(self, timeout: float, what: str) -> Message:
        """The next message from the adapter, validated; raises AdapterFault."""
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            try:
                kind, data = self._events.get(timeout=max(remaining, 0.0))
            except queue.Empty:
                raise AdapterFault(
                    "timed_out",
                    f"no answer to {what} within {timeout:g} s",
                    self.stderr_tail(),
                ) from None
            if kind == "line":
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
        message = self.receive(timeout, f"run seq {seq}")
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
