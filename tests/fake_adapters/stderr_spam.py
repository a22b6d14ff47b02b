"""Answers correctly but writes a lot to stderr, including binary junk and very long lines.

With `--flood N`, it first writes N bytes of newline-less non-UTF-8 junk (issue 29)."""

import sys

from _base import Message, serve

FLOOD = int(sys.argv[sys.argv.index("--flood") + 1]) if "--flood" in sys.argv else 0


def on_run(request: Message) -> Message | None:
    err = sys.stderr.buffer
    for i in range(300):
        err.write(f"debug {request['case']} line {i}: ".encode() + b"\xff\xfe junk " * 20 + b"\n")
    err.write(b"y" * 200_000 + b"\n")
    piece = b"\xff\xfe" * (1 << 19)
    if FLOOD:
        for _ in range(FLOOD // len(piece)):
            err.write(piece)
        err.write(b"\n")
    err.flush()
    return None


serve(on_run)
