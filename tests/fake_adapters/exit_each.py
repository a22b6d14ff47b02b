"""Answers every case correctly and exits at once after each answer (no idle wait)."""

import os

from _base import Message, correct, send, serve


def on_run(request: Message) -> Message | None:
    send(correct(request))
    os._exit(0)


serve(on_run)
