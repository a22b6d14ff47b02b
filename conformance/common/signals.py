"""SIGTERM and SIGHUP end a command as Ctrl-C does (PROTO-51).

`install()` (called once by `hrc`'s main) makes both raise `Terminated`, a KeyboardInterrupt, in
the main thread, so every `except KeyboardInterrupt` and every `finally` that Ctrl-C runs runs
for them too: `hrc run` writes its partial report and kills the adapter's process group, a
build step kills the build's group, `hrc index` rolls back and removes its temporary files.
`cause()` names what interrupted the command and `exit_status()` is 128 plus its number
(130 for Ctrl-C, 143 for SIGTERM, 129 for SIGHUP), as a shell reports a killed command.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable
from types import FrameType
from typing import Any

#: The signals handled like Ctrl-C, where the platform has them.
HANDLED = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))

_received: list[int] = []


class Terminated(KeyboardInterrupt):
    """A SIGTERM or SIGHUP, raised where the main thread was."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def _handler(signum: int, _frame: FrameType | None) -> None:
    _received.append(signum)
    raise Terminated(signum)


def install() -> Callable[[], None]:
    """Handle SIGTERM and SIGHUP like SIGINT; returns what puts the previous handlers back
    (`hrc`'s main calls it on return, so an in-process caller such as pytest keeps its own).
    A no-op outside the main thread."""
    if threading.current_thread() is not threading.main_thread():
        return lambda: None
    _received.clear()
    previous: dict[int, Any] = {}
    for signum in HANDLED:
        old = signal.getsignal(signum)
        if old is signal.SIG_IGN:
            continue  # `nohup hrc ...` keeps SIGHUP ignored
        previous[signum] = old
        signal.signal(signum, _handler)

    def restore() -> None:
        for signum, old in previous.items():
            signal.signal(signum, old if old is not None else signal.SIG_DFL)

    return restore


def cause() -> str:
    """`Ctrl-C`, or the name of the first signal handled (`SIGTERM`, `SIGHUP`)."""
    return signal.Signals(_received[0]).name if _received else "Ctrl-C"


def exit_status() -> int:
    """128 plus the number of the signal that interrupted the command (130 for Ctrl-C)."""
    return 128 + (_received[0] if _received else int(signal.SIGINT))
