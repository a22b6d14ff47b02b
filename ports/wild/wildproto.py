"""The protocol loop shared by the gallery's adapters (ports/wild/README.md): standard library
only, so it runs in each library's own virtualenv. It is ports/python-wrapper/adapter.py's loop
with the operations, names and error mapping passed in; it translates nothing itself.
"""

from __future__ import annotations

import json
import re
import sys
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

Operation = Callable[[dict[str, Any]], dict[str, Any]]

#: The spec version the hello declares: the kit's own (reference/__init__.py), read as text
#: because the library's virtualenv does not hold the kit. A literal here went stale (issue 38).
SPEC_VERSION = re.findall(
    r'(?m)^SPEC_VERSION = "([^"]+)"$',
    (Path(__file__).resolve().parents[2] / "reference" / "__init__.py").read_text("utf-8"),
)[0]


class Unsupported(Exception):
    """The library has no way to express this input (OP-2 `unsupported`)."""


#: Exceptions to OP-2 kinds, first match wins (ports/README.md, "Exceptions to error kinds").
ERROR_KINDS: list[tuple[type[BaseException], str]] = [
    (Unsupported, "unsupported"),
    (NotImplementedError, "unsupported"),
    (OSError, "index_error"),
    (TypeError, "invalid_input"),
    (ValueError, "invalid_input"),
]


def answer(operations: dict[str, Operation], message: dict[str, Any]) -> dict[str, Any]:
    seq = message["seq"]
    try:
        output = operations[message["op"]](message["input"])
    except KeyError as exc:
        traceback.print_exc(file=sys.stderr)
        return error(seq, "invalid_input", f"missing field {exc}")
    except Exception as exc:
        for cls, kind in ERROR_KINDS:
            if isinstance(exc, cls):
                return error(seq, kind, f"{type(exc).__name__}: {exc}")
        traceback.print_exc(file=sys.stderr)
        return error(seq, "internal_error", f"{type(exc).__name__}: {exc}")
    return {"type": "result", "seq": seq, "output": output}


def error(seq: int, kind: str, text: str) -> dict[str, Any]:
    return {"type": "error", "seq": seq, "error": {"kind": kind, "message": text}}


def write(message: dict[str, Any]) -> None:
    try:  # NaN and Infinity are not JSON (PROTO-2): a library that emits one is reported
        line = json.dumps(message, ensure_ascii=False, allow_nan=False).encode("utf-8")
    except (ValueError, UnicodeEncodeError) as exc:
        line = json.dumps(error(message.get("seq", 1), "internal_error", str(exc))).encode()
    sys.stdout.buffer.write(line + b"\n")
    sys.stdout.buffer.flush()


def serve(name: str, version: str, operations: dict[str, Operation],
          capabilities: list[str]) -> int:
    """Answer hello, run and bye on stdin/stdout until bye or end of file."""
    for raw in sys.stdin.buffer:
        if not raw.strip():
            continue
        message = json.loads(raw)
        if message["type"] == "hello":
            write({"type": "hello", "protocol": 1, "name": name, "version": version,
                   "specVersion": SPEC_VERSION, "operations": sorted(operations),
                   "capabilities": sorted(capabilities),
                   "dataFiles": {}})  # PROTO-28: no spec/data file is read (rrf, metrics)
        elif message["type"] == "run":
            write(answer(operations, message))
        elif message["type"] == "bye":
            break
    return 0


def lists_of(inp: dict[str, Any]) -> list[dict[str, Any]]:
    """The `rrf` input's lists with `null` read as absent (OP-5); nothing else is checked."""
    return [{"name": lst.get("name") or "", "weight": 1 if lst.get("weight") is None
             else lst["weight"], "items": lst["items"]} for lst in inp["lists"]]


def fused(candidate: dict[str, Any], score: float) -> dict[str, Any]:
    """A `fused` result from the candidate fields the library handed back (RRF-9 shape)."""
    return {"id": candidate["id"], "path": candidate.get("path") or "",
            "title": candidate.get("title") or "", "summary": candidate.get("summary") or "",
            "content": candidate.get("content") or "",
            "metadata": dict(candidate.get("metadata") or {}), "score": score}


def unweighted(lists: list[dict[str, Any]], library: str) -> None:
    """Raise `Unsupported` when a list has a weight other than 1 and the library has none."""
    for lst in lists:
        if lst["weight"] != 1 or isinstance(lst["weight"], bool):
            raise Unsupported(f"{library} has no list weights (weight {lst['weight']!r})")


def no_repeats(ids: list[str], library: str) -> None:
    """Raise `Unsupported` when one list repeats an id its data structure cannot hold twice."""
    if len(set(ids)) != len(ids):
        raise Unsupported(f"{library} holds one score per id: a list cannot repeat an id")
