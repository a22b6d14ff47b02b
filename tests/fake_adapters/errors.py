"""Answers every run with an error of kind argv[1]."""

import sys

from _base import Message, error, serve


def on_run(request: Message) -> Message | None:
    return error(request["seq"], sys.argv[1], "fake: refusing")


serve(on_run)
