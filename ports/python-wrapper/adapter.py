"""A minimal hrc adapter around a library you did not write (ports/README.md).

Run it with `hrc run --adapter "python ports/python-wrapper/adapter.py"`. It declares two
operations; every other case is reported `not_applicable`, never `errored`.
"""

from __future__ import annotations

import json
import sys
import traceback
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import toylib  # the wrapped library

# The library's exceptions, mapped onto OP-2 error kinds. Order matters: first match wins.
ERROR_KINDS: list[tuple[type[BaseException], str]] = [
    (NotImplementedError, "unsupported"),  # the op exists, this input needs a missing feature
    (OSError, "index_error"),  # a backend (file, socket, database) failed
    (TypeError, "invalid_input"),  # the input broke the spec's types
    (ValueError, "invalid_input"),  # the input broke a MUST of the spec
]


def op_length(inp: dict[str, Any]) -> dict[str, Any]:
    return {"length": toylib.code_points(inp["text"])}


def op_unanimity(inp: dict[str, Any]) -> dict[str, Any]:
    bm25, vector = inp["bm25"], inp["vector"]
    agreements = toylib.head_agreements(bm25, vector)
    # Derived in the adapter from the library's answer: UNAN-3 is a pure function of it.
    fired = len(bm25) >= 3 and len(vector) >= 3 and agreements >= 2
    return {"agreements": agreements, "fired": fired}


OPERATIONS = {"length": op_length, "unanimity": op_unanimity}


def answer(message: dict[str, Any]) -> dict[str, Any]:
    seq = message["seq"]
    try:
        output = OPERATIONS[message["op"]](message["input"])
    except KeyError as exc:  # a missing input field is the caller's fault, not ours
        return error(seq, "invalid_input", f"missing field {exc}")
    except Exception as exc:
        for cls, kind in ERROR_KINDS:
            if isinstance(exc, cls):
                return error(seq, kind, f"{type(exc).__name__}: {exc}")
        traceback.print_exc(file=sys.stderr)  # our bug or the library's: details on stderr
        return error(seq, "internal_error", f"{type(exc).__name__}: {exc}")
    return {"type": "result", "seq": seq, "output": output}


def error(seq: int, kind: str, text: str) -> dict[str, Any]:
    return {"type": "error", "seq": seq, "error": {"kind": kind, "message": text}}


def write(message: dict[str, Any]) -> None:
    try:  # allow_nan=False: NaN and Infinity are not JSON (PROTO-2); never send them
        line = json.dumps(message, ensure_ascii=False, allow_nan=False).encode("utf-8")
    except (ValueError, UnicodeEncodeError) as exc:  # NaN, or a lone surrogate in a string
        line = json.dumps(error(message.get("seq", 1), "internal_error", str(exc))).encode()
    sys.stdout.buffer.write(line + b"\n")
    sys.stdout.buffer.flush()


def main() -> int:
    for raw in sys.stdin.buffer:
        if not raw.strip():
            continue
        message = json.loads(raw)
        if message["type"] == "hello":
            write(
                {
                    "type": "hello",
                    "protocol": 1,
                    "name": "toylib-wrapper",
                    "version": "0.0.1",
                    "specVersion": "5.0.0",
                    "operations": sorted(OPERATIONS),
                    "capabilities": [],
                }
            )
        elif message["type"] == "run":
            write(answer(message))
        elif message["type"] == "bye":
            break
    return 0


if __name__ == "__main__":
    sys.exit(main())
