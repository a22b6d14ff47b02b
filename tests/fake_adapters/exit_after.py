"""Answers the case named in argv[1] correctly, then exits 0 while idle."""

import sys

from _base import Message, correct, send, serve


def on_run(request: Message) -> Message | None:
    if request["case"] == sys.argv[1]:
        send(correct(request))
        sys.exit(0)
    return None


serve(on_run)
