"""Answers the case named in argv[1] with one valid JSON line of about argv[2] bytes."""

import json
import sys

from _base import Message, send_raw, serve


def on_run(request: Message) -> Message | None:
    if request["case"] == sys.argv[1]:
        pad = "x" * int(sys.argv[2])
        reply = {"type": "result", "seq": request["seq"], "output": {"padding": pad}}
        send_raw(json.dumps(reply).encode() + b"\n")
        return {}
    return None


serve(on_run)
