"""Adds wall-clock `timings` (never compared, TRACE-2) to every output."""

from _base import Message, correct, serve


def on_run(request: Message) -> Message | None:
    reply = correct(request)
    if reply["type"] == "result":
        reply["output"]["timings"] = {"totalMs": 12.5}
    return reply


serve(on_run)
