"""Sleeps argv[1] seconds before answering hello (a slow runtime start), then behaves."""

import sys
import time

from _base import Message, serve


def on_hello(request: Message) -> Message | None:
    time.sleep(float(sys.argv[1]))
    return None


serve(on_hello=on_hello)
