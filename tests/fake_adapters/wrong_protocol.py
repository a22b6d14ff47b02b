"""Claims protocol version 2 in its hello."""

from _base import Message, hello, serve


def on_hello(request: Message) -> Message | None:
    return hello(protocol=2)


serve(on_hello=on_hello)
