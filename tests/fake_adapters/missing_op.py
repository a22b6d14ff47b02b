"""Declares only the `length` operation and no capabilities."""

from _base import Message, hello, serve


def on_hello(request: Message) -> Message | None:
    return hello(operations=["length"], capabilities=[])


serve(on_hello=on_hello)
