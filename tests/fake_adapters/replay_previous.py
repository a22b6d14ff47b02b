"""Answers the case named in argv[1] with its previous answer again (seq N-1) and nothing
else: a second answer to case N-1 while N is in flight (PROTO-35, issue 39 item 6)."""

import sys

from _base import Message, correct, send, serve

previous: list[Message] = []


def on_run(request: Message) -> Message | None:
    if request["case"] == sys.argv[1] and previous:
        send(previous[-1])
        return {}
    answer = correct(request)
    previous.append(answer)
    send(answer)
    return {}


serve(on_run)
