"""Declares only the `length` operation and no capabilities; answers the case in argv[1] wrong."""

import sys

from _base import Message, hello, serve


def on_hello(request: Message) -> Message | None:
    return hello(operations=["length"], capabilities=[])


def on_run(request: Message) -> Message | None:
    if len(sys.argv) > 1 and request["case"] == sys.argv[1]:
        return {"type": "result", "seq": request["seq"], "output": {"length": -1}}
    return None


serve(on_run, on_hello)
