"""Messages of the runner <-> adapter protocol, version 1 (spec/adapter-protocol.md).

Framing (PROTO-2): one JSON object per line, UTF-8, LF-terminated. Decoding is strict: no
NaN/Infinity (nor a number like 1e400 that overflows to it), no duplicate keys, no unpaired
surrogate escape, a JSON object with a string `type`, and every message must validate against
its schema in schemas/protocol/ (PROTO-4).
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from typing import Any

from conformance.cases import schema_validator

PROTOCOL_VERSION = 1
#: OP-2 kinds plus the adapter's own bug report (PROTO-10, PROTO-11).
ERROR_KINDS: tuple[str, ...] = ("invalid_input", "index_error", "unsupported", "internal_error")
DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024
#: Deepest nesting of arrays and objects a message may have (PROTO-36); the message itself
#: is level 1.
MAX_DEPTH = 64

#: message type -> schema file, per sender.
ADAPTER_SCHEMAS = {
    "hello": "protocol/adapter-hello.schema.json",
    "result": "protocol/result.schema.json",
    "error": "protocol/error.schema.json",
}
RUNNER_SCHEMAS = {
    "hello": "protocol/runner-hello.schema.json",
    "run": "protocol/run.schema.json",
    "bye": "protocol/bye.schema.json",
}

Message = dict[str, Any]


class ProtocolError(ValueError):
    """A line or message breaks the protocol; the text says how."""


def _no_constants(name: str) -> Any:
    raise ProtocolError(f"{name} is not JSON (non-finite numbers are not allowed)")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ProtocolError(f"{text} is outside the binary64 range (it would parse to Infinity)")
    return value


def _bounded_int(text: str) -> int:
    """An integer literal, refused when its magnitude is outside binary64 (PROTO-2, PROTO-36):
    310+ digits are, and are not even converted (that is quadratic in the digit count)."""
    digits = len(text) - text.startswith("-")
    if digits > 309:
        raise ProtocolError(
            f"an integer of {digits} digits is outside the binary64 range (PROTO-36)"
        )
    value = int(text)
    if digits == 309:
        try:
            float(value)
        except OverflowError:
            raise ProtocolError(
                "an integer of 309 digits is outside the binary64 range (PROTO-36)"
            ) from None
    return value


def too_deep(value: Any, limit: int = MAX_DEPTH) -> bool:
    """True when arrays/objects nest deeper than `limit` levels (iterative: no recursion)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))
    return False


def _unique_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ProtocolError(f"duplicate key {key!r} in a JSON object")
        out[key] = value
    return out



def lone_surrogate(value: Any) -> str | None:
    """The first string (value or key) in `value` holding an unpaired surrogate, or None."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if any("\ud800" <= ch <= "\udfff" for ch in item):
                return item
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return None


def encode(message: Message) -> bytes:
    """One message as a protocol line (UTF-8 JSON + LF); raises ValueError on NaN/Infinity."""
    text = json.dumps(message, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    return text.encode("utf-8") + b"\n"


#: The same escape in decoded text, for `loads_strict`.
_SURROGATE_ESCAPE_TEXT = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


def loads_strict(text: str) -> Any:
    """JSON text read as PROTO-2 and PROTO-36 read a line (shared with `hrc diff`).

    A violation (NaN, Infinity, a number outside binary64, a repeated key, nesting deeper than
    MAX_DEPTH, an unpaired surrogate) raises ProtocolError; text that is not JSON raises
    json.JSONDecodeError, or RecursionError when it nests beyond the parser's stack.
    """
    value = json.loads(
        text,
        parse_constant=_no_constants,
        parse_float=_finite_float,
        parse_int=_bounded_int,
        object_pairs_hook=_unique_pairs,
    )
    if too_deep(value):
        raise ProtocolError(f"arrays/objects nest deeper than {MAX_DEPTH} levels (PROTO-36)")
    if _SURROGATE_ESCAPE_TEXT.search(text) is not None:
        bad = lone_surrogate(value)
        if bad is not None:
            raise ProtocolError(
                f"a string holds an unpaired surrogate (not valid Unicode): {_excerpt(bad)}"
            )
    return value


def decode(line: bytes) -> Message:
    """Parse one line (without its terminator) into a message object with a string `type`."""
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ProtocolError(f"line is not valid UTF-8: {exc}") from exc
    try:
        value = loads_strict(text)
    except ProtocolError:
        raise
    except (ValueError, RecursionError) as exc:
        raise ProtocolError(f"line is not JSON: {exc}: {_excerpt(text)}") from exc
    if not isinstance(value, dict):
        raise ProtocolError(f"a message must be a JSON object, got: {_excerpt(text)}")
    if not isinstance(value.get("type"), str):
        raise ProtocolError(f"a message needs a string `type`, got: {_excerpt(text)}")
    return value


def _excerpt(text: str, limit: int = 120) -> str:
    shown = text if len(text) <= limit else text[:limit] + "…"
    return repr(shown)


def validate(message: Message, schemas: dict[str, str]) -> None:
    """Check `message` against the schema of its type (PROTO-4); raises ProtocolError."""
    kind = message.get("type")
    name = schemas.get(kind) if isinstance(kind, str) else None
    if name is None:
        allowed = ", ".join(sorted(schemas))
        raise ProtocolError(f"unexpected message type {kind!r} (expected one of: {allowed})")
    error = next(iter(schema_validator(name).iter_errors(message)), None)
    if error is not None:
        where = "/".join(str(p) for p in error.absolute_path) or "(message)"
        raise ProtocolError(f"{kind} message fails {name} at {where}: {error.message}")


def decode_from_adapter(line: bytes) -> Message:
    """Decode and validate a line the adapter wrote."""
    message = decode(line)
    validate(message, ADAPTER_SCHEMAS)
    return message


def decode_from_runner(line: bytes) -> Message:
    """Decode and validate a line the runner wrote (used by adapters written in Python)."""
    message = decode(line)
    validate(message, RUNNER_SCHEMAS)
    return message


def hello_request() -> Message:
    return {"type": "hello", "protocol": PROTOCOL_VERSION}


def run_request(seq: int, case: str, op: str, input: dict[str, Any]) -> Message:
    return {"type": "run", "seq": seq, "case": case, "op": op, "input": input}


def bye() -> Message:
    return {"type": "bye"}


@dataclass(frozen=True)
class Hello:
    """What an adapter declared in its hello (PROTO-6)."""

    name: str
    version: str
    spec_version: str
    protocol: int
    operations: frozenset[str]
    capabilities: frozenset[str]
    raw: Message = field(default_factory=dict, compare=False)
    #: `dataFiles`: spec/data file name -> SHA-256 hex of the bytes loaded; None when absent.
    data_files: dict[str, str] | None = field(default=None, compare=False)
    #: `profiles`: profile name -> the profile version the port implements (PROTO-31).
    profiles: dict[str, str] = field(default_factory=dict, compare=False)

    @classmethod
    def from_message(cls, message: Message) -> Hello:
        """Build from a validated adapter hello."""
        return cls(
            name=message["name"],
            version=message["version"],
            spec_version=message["specVersion"],
            protocol=message["protocol"],
            operations=frozenset(message["operations"]),
            capabilities=frozenset(message["capabilities"]),
            raw=dict(message),
            data_files=dict(message["dataFiles"]) if "dataFiles" in message else None,
            profiles=dict(message.get("profiles", {})),
        )

    def to_json(self) -> dict[str, Any]:
        """The hello fields for reports (camelCase, lists sorted)."""
        out: dict[str, Any] = {
            "name": self.name,
            "version": self.version,
            "specVersion": self.spec_version,
            "protocol": self.protocol,
            "operations": sorted(self.operations),
            "capabilities": sorted(self.capabilities),
        }
        if self.data_files is not None:
            out["dataFiles"] = dict(sorted(self.data_files.items()))
        if self.profiles:
            out["profiles"] = dict(sorted(self.profiles.items()))
        return out

    def not_applicable_reason(self, op: str, requires: tuple[str, ...]) -> str | None:
        """Why a case cannot run on this adapter (PROTO-7), or None when it can.

        A missing profile is named first: it explains a missing `NAME.op` too (PROFILE-3).
        """
        profile = [c for c in requires if c.startswith("profile:") and c not in self.capabilities]
        if profile:
            return "capability " + ", ".join(repr(c) for c in profile) + " is not declared"
        if op not in self.operations:
            return f"operation {op!r} is not declared by the adapter"
        missing = [c for c in requires if c not in self.capabilities]
        if missing:
            return "capability " + ", ".join(repr(c) for c in missing) + " is not declared"
        return None
