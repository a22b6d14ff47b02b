"""Shared protocol loop for the fake adapters: correct answers unless a script overrides them.

Only the `length` and `normalise` operations are implemented (enough for the tiny suite).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

# Fakes run with `python -S` for a fast start, so find the kit's packages by path.
sys.path.insert(1, str(Path(__file__).resolve().parents[2]))

from reference import SPEC_VERSION, text

Message = dict[str, Any]
OPERATIONS = ["length", "normalise"]
CAPABILITIES = ["sqlite-fts5"]


def hello(**fields: Any) -> Message:
    base: Message = {
        "type": "hello",
        "protocol": 1,
        "name": "fake",
        "version": "0.0.1",
        "specVersion": SPEC_VERSION,
        "operations": OPERATIONS,
        "capabilities": CAPABILITIES,
    }
    base.update(fields)
    return base


def correct(request: Message) -> Message:
    """The right answer to a run request on the tiny suite."""
    seq, op, inp = request["seq"], request["op"], request["input"]
    value = inp.get("text")
    if not isinstance(value, str):
        return error(seq, "invalid_input", "text must be a string")
    if op == "length":
        return {"type": "result", "seq": seq, "output": {"length": text.length(value)}}
    if op == "normalise":
        output = {"normalised": text.normalise(value), "folded": text.fold(value)}
        return {"type": "result", "seq": seq, "output": output}
    return error(seq, "unsupported", f"no op {op}")


def error(seq: int, kind: str, message: str) -> Message:
    return {"type": "error", "seq": seq, "error": {"kind": kind, "message": message}}


def send(message: Message) -> None:
    send_raw(json.dumps(message, ensure_ascii=False).encode("utf-8") + b"\n")


def send_raw(data: bytes) -> None:
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()


def log(line: str) -> None:
    sys.stderr.write(line + "\n")
    sys.stderr.flush()


def messages() -> Iterator[Message]:
    for raw in sys.stdin.buffer:
        yield json.loads(raw)


def serve(
    on_run: Callable[[Message], Message | None] | None = None,
    on_hello: Callable[[Message], Message | None] | None = None,
) -> None:
    """Answer until bye or EOF.

    A hook returning None means "answer correctly"; returning {} means "already answered".
    """
    for message in messages():
        kind = message["type"]
        if kind == "hello":
            reply = on_hello(message) if on_hello else None
            send(reply if reply is not None else hello())
        elif kind == "run":
            reply = on_run(message) if on_run else None
            if reply == {}:
                continue
            send(reply if reply is not None else correct(message))
        elif kind == "bye":
            sys.exit(0)
    sys.exit(0)
