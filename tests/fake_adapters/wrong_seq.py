"""Answers the case named in argv[1] with a seq one higher than asked."""

import sys

from _base import Message, correct, serve


def on_run(request: Message) -> Message | None:
    if request["case"] == sys.argv[1]:
        reply = correct(request)
        reply["seq"] = request["seq"] + 1
        return reply
    return None


serve(on_run)
