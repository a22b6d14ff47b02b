"""Answers hello with a line that is not JSON."""

from _base import Message, send_raw, serve


def on_hello(request: Message) -> Message | None:
    send_raw(b"Welcome to my adapter!\n")
    return None


serve(on_hello=on_hello)
