"""The reference adapter: `python -m conformance.adapter_reference` (spec/adapter-protocol.md).

Speaks protocol 1 on stdin/stdout and dispatches every `run` to conformance.adapters.ops.registry().
Its hello reports the SHA-256 of every spec/data file the reference loaded (PROTO-28): it loads
them all through reference.data before answering, so a missing or malformed file fails at
start-up and the hashes are of the bytes the reference parsed. It never dies on a bad input
(PROTO-11): an exception with a `kind` attribute becomes an error
answer of that kind; anything else is a bug in the reference, answered as `internal_error`
with the traceback written to stderr.
"""

from __future__ import annotations

import sys
import traceback
from collections.abc import Callable, Mapping, Sequence
from typing import Any, BinaryIO

from conformance.adapters import protocol
from conformance.adapters.protocol import Message
from conformance.common.strict_json import ProtocolError

NAME = "hrc-reference"
CAPABILITIES = (
    "sqlite-fts5",
    "embedder:hrc-hash-v1",
    "reranker:hrc-lexical-v1",
    "rrf-weights",
    "intent-table:hrc-1.0",
    "stopwords:hrc-1.0",
    "canonical-fts5",
    "graph-leg",
    "bm25-fanout",
)

Handler = Callable[[dict[str, Any]], dict[str, Any]]


def _log(text: str) -> None:
    sys.stderr.write(text.rstrip("\n") + "\n")
    sys.stderr.flush()


def loaded_data_files() -> dict[str, str]:
    """Load every spec/data file through reference.data; name -> SHA-256 of the bytes read."""
    from reference import data

    for name in data.data_file_names():
        data.load_json(name)
    return data.loaded_files()


def reference_profiles() -> dict[str, str]:
    """Profile name -> version for every profile the reference implements (PROTO-31)."""
    from reference.profiles import discover

    return {name: profile.version for name, profile in discover().items()}


def hello_message(
    handlers: dict[str, Handler],
    capabilities: Sequence[str] | None = None,
    profiles: Mapping[str, str] | None = None,
) -> Message:
    """The adapter hello (PROTO-6): operations, capabilities, dataFiles, profile versions.

    By default the capabilities are CAPABILITIES plus `profile:NAME` for every reference
    profile, and `profiles` gives their versions.
    """
    from conformance.common.version import kit_version
    from reference import SPEC_VERSION

    if profiles is None:
        profiles = reference_profiles()
    if capabilities is None:
        capabilities = [*CAPABILITIES, *(f"profile:{name}" for name in sorted(profiles))]

    message: Message = {
        "type": "hello",
        "protocol": protocol.PROTOCOL_VERSION,
        "name": NAME,
        "version": kit_version(),
        "specVersion": SPEC_VERSION,
        "operations": sorted(handlers),
        "capabilities": list(capabilities),
        "dataFiles": loaded_data_files(),
    }
    if profiles:
        message["profiles"] = dict(profiles)
    return message


def answer(handlers: dict[str, Handler], request: Message) -> Message:
    """The answer to one validated `run` request; never raises."""
    seq = request["seq"]
    handler = handlers.get(request["op"])
    if handler is None:
        return _error(seq, "unsupported", f"operation {request['op']!r} is not implemented")
    try:
        output = handler(request["input"])
    except Exception as exc:
        kind = getattr(exc, "kind", None)
        if isinstance(kind, str) and kind in protocol.ERROR_KINDS:
            return _error(seq, kind, str(exc))
        _log(f"internal error in op {request['op']!r} (case {request['case']}):")
        _log(traceback.format_exc())
        return _error(seq, "internal_error", f"{type(exc).__name__}: {exc}")
    if not isinstance(output, dict):
        found = type(output).__name__
        return _error(seq, "internal_error", f"handler returned {found}, not an object")
    where = protocol.non_finite_at(output)
    if where is not None:  # TEXT-11: an overflow the input asked for, which JSON cannot carry
        return _error(seq, "invalid_input", f"the output would hold a non-finite number at {where}")
    return {"type": "result", "seq": seq, "output": output}



def _error(seq: int, kind: str, message: str) -> Message:
    return {"type": "error", "seq": seq, "error": {"kind": kind, "message": message}}


def _write(out: BinaryIO, message: Message) -> None:
    try:
        data = protocol.encode(message)
    except ValueError as exc:  # a non-finite number in an output (TEXT-11)
        _log(f"cannot encode answer: {exc}")
        data = protocol.encode(
            _error(int(message.get("seq", 0)) or 1, "internal_error", f"unencodable output: {exc}")
        )
    out.write(data)
    out.flush()


def serve(
    stdin: BinaryIO,
    stdout: BinaryIO,
    handlers: dict[str, Handler] | None = None,
    capabilities: Sequence[str] | None = None,
    profiles: Mapping[str, str] | None = None,
) -> int:
    """The adapter loop; returns the exit status. Profile ports pass their own handlers,
    capabilities (with `profile:NAME`) and profile versions (PROTO-31)."""
    if handlers is None:
        from conformance.adapters.ops import registry

        handlers = registry()
    for raw in stdin:
        line = raw.rstrip(b"\r\n")
        if not line.strip():
            continue
        try:
            message = protocol.decode_from_runner(line)
        except ProtocolError as exc:
            _log(f"ignoring a line that is not a runner message: {exc}")
            continue
        kind = message["type"]
        if kind == "hello":
            if message["protocol"] != protocol.PROTOCOL_VERSION:
                _log(f"runner speaks protocol {message['protocol']}; answering with ours")
            _write(stdout, hello_message(handlers, capabilities, profiles))
        elif kind == "run":
            _write(stdout, answer(handlers, message))
        elif kind == "bye":
            return 0
    return 0


def main() -> int:
    return serve(sys.stdin.buffer, sys.stdout.buffer)


if __name__ == "__main__":
    sys.exit(main())
