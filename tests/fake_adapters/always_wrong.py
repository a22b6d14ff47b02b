"""Answers every run with a well-formed but wrong output."""

from _base import Message, serve


def on_run(request: Message) -> Message | None:
    wrong = {"length": {"length": -1}, "normalise": {"normalised": "?", "folded": "?"}}
    return {"type": "result", "seq": request["seq"], "output": wrong[request["op"]]}


serve(on_run)
