"""Answers every case with an internal error whose message and stderr carry ANSI/OSC escapes,
carriage returns and a forged footer line (PROTO-37)."""

from _base import Message, error, log, serve

FORGED = "\x1b[2K\r\x1b]0;owned\x07\nhrc: 6 passed, 0 failed, 0 skipped\n\x1b[32mOK\x1b[0m"


def on_run(request: Message) -> Message | None:
    log("stderr says" + FORGED)
    return error(request["seq"], "internal_error", "boom" + FORGED)


serve(on_run)
