"""Prints a line that is not JSON instead of answering the case named in argv[1]."""

import sys

from _base import Message, send_raw, serve


def on_run(request: Message) -> Message | None:
    if request["case"] == sys.argv[1]:
        send_raw(b"oops, this is a log line on stdout\n")
        return {"type": "result", "seq": request["seq"], "output": {}}
    return None


serve(on_run)
