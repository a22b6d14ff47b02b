"""Messages of the runner <-> adapter protocol, version 1 (spec/adapter-protocol.md).

Framing (PROTO-2): one JSON object per line, UTF-8, LF-terminated. Decoding is strict: no
NaN/Infinity (nor a number like 1e400 that overflows to it), no duplicate keys, no unpaired
surrogate escape, a JSON object with a string `type`, and every message must validate against
its schema in schemas/protocol/ (PROTO-4).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from conformance.common.strict_json import ProtocolError, _excerpt, excerpt_at, loads_strict
from conformance.common.version import PROTOCOL_VERSION as PROTOCOL_VERSION  # re-exported
from conformance.judging import profiles

#: OP-2 kinds plus the adapter's own bug report (PROTO-10, PROTO-11).
ERROR_KINDS: tuple[str, ...] = ("invalid_input", "index_error", "unsupported", "internal_error")


DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024


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


def encode(message: Message) -> bytes:
    """One message as a protocol line (UTF-8 JSON + LF); raises ValueError on NaN/Infinity."""
    text = json.dumps(message, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    return text.encode("utf-8") + b"\n"


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
    except json.JSONDecodeError as exc:
        raise ProtocolError(f"line is not JSON: {exc.msg} {excerpt_at(text, exc.pos)}") from exc
    except (ValueError, RecursionError) as exc:
        raise ProtocolError(f"line is not JSON: {exc}: {_excerpt(text)}") from exc
    if not isinstance(value, dict):
        raise ProtocolError(f"a message must be a JSON object, got: {_excerpt(text)}")
    if not isinstance(value.get("type"), str):
        raise ProtocolError(f"a message needs a string `type`, got: {_excerpt(text)}")
    return value


def validate(message: Message, schemas: dict[str, str]) -> None:
    """Check `message` against the schema of its type (PROTO-4); raises ProtocolError."""
    kind = message.get("type")
    name = schemas.get(kind) if isinstance(kind, str) else None
    if name is None:
        allowed = ", ".join(sorted(schemas))
        raise ProtocolError(f"unexpected message type {kind!r} (expected one of: {allowed})")
    from conformance.judging.schemas import fast_valid, schema_validator  # lazy: `--version`

    if fast_valid(name, message):  # the compiled check; a failure's text is jsonschema's
        return
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


def unknown_operations(hello: Hello, known: frozenset[str] | None) -> list[str]:
    """Core operation names in the hello that the spec does not define (PROTO-41), sorted.

    A profile operation is not judged here: a port may implement a profile the kit it runs
    against does not ship, and its cases are then simply absent.
    """
    if known is None:
        return []
    return sorted(
        op for op in hello.operations if profiles.op_profile(op) is None and op not in known
    )


def non_finite_at(value: Any, pointer: str = "") -> str | None:
    """The JSON pointer of the first non-finite float in an output, or None (TEXT-11)."""
    if isinstance(value, float):
        return pointer or "/" if value != value or value in (float("inf"), float("-inf")) else None
    if isinstance(value, dict):
        items: Any = value.items()
    elif isinstance(value, (list, tuple)):
        items = enumerate(value)
    else:
        return None
    for key, sub in items:
        found = non_finite_at(sub, f"{pointer}/{key}")
        if found is not None:
            return found
    return None
