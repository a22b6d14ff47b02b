"""Answers the case named in argv[1] twice (the second answer unasked for, PROTO-8)."""

import sys

from _base import Message, correct, send, serve


def on_run(request: Message) -> Message | None:
    if request["case"] == sys.argv[1]:
        send(correct(request))
        send(correct(request))
        return {}
    return None


serve(on_run)
