"""Answers hello, then dies on every run request."""

import os

from _base import Message, serve


def on_run(request: Message) -> Message | None:
    os._exit(1)


serve(on_run)
