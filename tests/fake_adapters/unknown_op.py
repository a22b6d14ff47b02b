"""Declares an operation the spec does not define (`rff`, a typo of `rrf`) besides its own."""

from _base import OPERATIONS, Message, hello, serve


def on_hello(request: Message) -> Message | None:
    return hello(operations=[*OPERATIONS, "rff"])


serve(None, on_hello)
