"""Answers correctly but writes a lot to stderr, including binary junk and very long lines."""

import sys

from _base import Message, serve


def on_run(request: Message) -> Message | None:
    err = sys.stderr.buffer
    for i in range(300):
        err.write(f"debug {request['case']} line {i}: ".encode() + b"\xff\xfe junk " * 20 + b"\n")
    err.write(b"y" * 200_000 + b"\n")
    err.flush()
    return None


serve(on_run)
