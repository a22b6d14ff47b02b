"""Answers every `normalise` case with a legal but wrong output of about argv[1] MiB."""

import sys

from _base import Message, serve

SIZE = int(float(sys.argv[1]) * 1024 * 1024)


def on_run(request: Message) -> Message | None:
    if request["op"] == "normalise":
        big = "x" * SIZE
        return {"type": "result", "seq": request["seq"],
                "output": {"normalised": big, "folded": big[:10]}}
    return None


serve(on_run)
