"""Framing, schemas and the reference adapter of the runner <-> adapter protocol."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from conformance.adapters import protocol
from conformance.adapters.adapter_reference import (
    CAPABILITIES,
    answer,
    hello_message,
    reference_profiles,
    serve,
)
from conformance.adapters.ops import registry
from conformance.common.strict_json import ProtocolError
from conformance.judging.schemas import schemas_dir
from conformance.running.runner import adapter_argv

EXAMPLE_SESSION: list[tuple[dict[str, str], dict[str, Any]]] = [
    (protocol.RUNNER_SCHEMAS, {"type": "hello", "protocol": 1}),
    (
        protocol.ADAPTER_SCHEMAS,
        {
            "type": "hello",
            "protocol": 1,
            "name": "hrc-go",
            "version": "0.3.0",
            "specVersion": "2.0.0",
            "operations": ["length"],
            "capabilities": [],
        },
    ),
    (
        protocol.RUNNER_SCHEMAS,
        {"type": "run", "seq": 1, "case": "a/b/c", "op": "length", "input": {"text": "x"}},
    ),
    (protocol.ADAPTER_SCHEMAS, {"type": "result", "seq": 1, "output": {"length": 1}}),
    (
        protocol.ADAPTER_SCHEMAS,
        {"type": "error", "seq": 2, "error": {"kind": "invalid_input", "message": "k"}},
    ),
    (protocol.RUNNER_SCHEMAS, {"type": "bye"}),
]


def test_adapter_command_is_split_like_a_shell_without_a_shell() -> None:
    """PROTO-1 The adapter command line is split by POSIX shell rules, no shell involved."""
    assert adapter_argv("node 'my adapter.js' --flag=\"a b\"") == [
        "node",
        "my adapter.js",
        "--flag=a b",
    ]


def test_encoded_message_is_one_utf8_line() -> None:
    """PROTO-2 A message is one line of UTF-8 JSON ending in LF, non-ASCII written as is."""
    data = protocol.encode({"type": "run", "text": "été\nnext"})
    assert data.endswith(b"\n") and data.count(b"\n") == 1
    assert "été".encode() in data


@pytest.mark.parametrize(
    "line",
    [b'{"type": "result", "x": NaN}', b'{"type": "a", "type": "b"}', b"\xff\xfe", b"[1]", b"{}"],
    ids=["nan", "duplicate-key", "not-utf8", "not-object", "no-type"],
)
def test_decoder_rejects_lines_that_are_not_strict_messages(line: bytes) -> None:
    """PROTO-2 NaN, repeated keys, invalid UTF-8 and non-objects are not messages."""
    with pytest.raises(ProtocolError):
        protocol.decode(line)


def test_encoder_refuses_non_finite_numbers() -> None:
    """PROTO-2 A message cannot carry NaN or Infinity."""
    with pytest.raises(ValueError):
        protocol.encode({"type": "result", "seq": 1, "output": {"score": float("inf")}})


def test_every_protocol_schema_is_a_valid_draft_2020_12_schema() -> None:
    """PROTO-4 One schema per message type, each a valid JSON Schema."""
    names = {p.name for p in (schemas_dir() / "protocol").glob("*.schema.json")}
    expected = {Path(n).name for n in [*protocol.RUNNER_SCHEMAS.values(),
                                       *protocol.ADAPTER_SCHEMAS.values()]}
    assert names == expected
    for name in names:
        schema = json.loads((schemas_dir() / "protocol" / name).read_text(encoding="utf-8"))
        jsonschema.Draft202012Validator.check_schema(schema)


def test_the_example_session_validates() -> None:
    """PROTO-4 The messages of the example session in spec/adapter-protocol.md are valid."""
    for schemas, message in EXAMPLE_SESSION:
        protocol.validate(message, schemas)


def test_only_the_adapter_hello_may_carry_unknown_fields() -> None:
    """PROTO-4 Extra hello fields are ignored; extra fields elsewhere are violations."""
    hello = dict(EXAMPLE_SESSION[1][1], homepage="https://example.invalid")
    protocol.validate(hello, protocol.ADAPTER_SCHEMAS)
    with pytest.raises(ProtocolError):
        protocol.validate({"type": "bye", "why": "done"}, protocol.RUNNER_SCHEMAS)


def test_result_needs_an_output_object() -> None:
    """PROTO-9 A result carries its request's seq and an output object."""
    with pytest.raises(ProtocolError):
        protocol.validate({"type": "result", "seq": 1, "output": []}, protocol.ADAPTER_SCHEMAS)
    with pytest.raises(ProtocolError):
        protocol.validate({"type": "result", "output": {}}, protocol.ADAPTER_SCHEMAS)


def test_error_kinds_are_the_op2_kinds_plus_internal_error() -> None:
    """PROTO-10 Error kinds are invalid_input, index_error, unsupported and internal_error."""
    for kind in ("invalid_input", "index_error", "unsupported", "internal_error"):
        message = {"type": "error", "seq": 1, "error": {"kind": kind, "message": ""}}
        protocol.validate(message, protocol.ADAPTER_SCHEMAS)
    with pytest.raises(ProtocolError):
        bad = {"type": "error", "seq": 1, "error": {"kind": "oops", "message": ""}}
        protocol.validate(bad, protocol.ADAPTER_SCHEMAS)


def test_reference_hello_declares_every_operation_and_capability() -> None:
    """PROTO-6 The reference adapter's hello lists all registered operations and capabilities."""
    message = hello_message(registry())
    protocol.validate(message, protocol.ADAPTER_SCHEMAS)
    assert message["operations"] == sorted(registry())
    profiles = [f"profile:{name}" for name in sorted(reference_profiles())]
    assert message["capabilities"] == [*CAPABILITIES, *profiles]


class _Kinded(Exception):
    kind = "index_error"


def _boom(_: dict[str, Any]) -> dict[str, Any]:
    raise ZeroDivisionError("division by zero")


def _kinded(_: dict[str, Any]) -> dict[str, Any]:
    raise _Kinded("index is gone")


def _run(op: str) -> dict[str, Any]:
    return {"type": "run", "seq": 7, "case": "a/b/c", "op": op, "input": {}}


def test_reference_adapter_turns_an_unexpected_exception_into_internal_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """PROTO-11 A bug becomes `internal_error` with the traceback on stderr, never a crash."""
    reply = answer({"boom": _boom}, _run("boom"))
    assert reply["error"]["kind"] == "internal_error"
    assert "ZeroDivisionError" in capsys.readouterr().err


def test_reference_adapter_keeps_the_kind_of_a_spec_error() -> None:
    """PROTO-11 An exception with an OP-2 `kind` becomes an error answer of that kind."""
    assert answer({"k": _kinded}, _run("k"))["error"] == {
        "kind": "index_error",
        "message": "index is gone",
    }


@pytest.mark.parametrize("bad", [float("inf"), float("-inf"), float("nan")])
def test_reference_adapter_answers_a_non_finite_output_with_invalid_input(bad: float) -> None:
    """TEXT-11 An overflow the input asked for is `invalid_input`, naming where it is."""
    reply = answer({"x": lambda _inp: {"results": [{"id": "a", "score": bad}]}}, _run("x"))
    assert reply["error"]["kind"] == "invalid_input"
    assert "/results/0/score" in reply["error"]["message"]


def test_reference_adapter_passes_the_largest_finite_number() -> None:
    reply = answer({"x": lambda _inp: {"score": 1.7976931348623157e308}}, _run("x"))
    assert reply == {"type": "result", "seq": 7, "output": {"score": 1.7976931348623157e308}}


def test_reference_adapter_serves_a_session_and_exits_on_bye() -> None:
    """PROTO-11 The reference adapter answers every request, even after a failing one."""
    lines = [
        protocol.hello_request(),
        _run("boom"),
        {"type": "run", "seq": 8, "case": "a/b/c", "op": "length", "input": {"text": "abc"}},
        protocol.bye(),
    ]
    stdin = io.BytesIO(b"".join(protocol.encode(m) for m in lines))
    stdout = io.BytesIO()
    handlers = {"boom": _boom, "length": registry()["length"]}
    assert serve(stdin, stdout, handlers) == 0
    replies = [json.loads(x) for x in stdout.getvalue().splitlines()]
    assert [r["type"] for r in replies] == ["hello", "error", "result"]
    assert replies[2] == {"type": "result", "seq": 8, "output": {"length": 3}}


def test_a_non_json_line_shows_the_text_around_the_offending_column() -> None:
    """Issue 38: the excerpt was the line's first 120 characters, cut before a late `inf`."""
    from conformance.adapters.protocol import decode
    from conformance.common.strict_json import ProtocolError

    padding = ", ".join(f'"k{i}": {i}' for i in range(40))
    line = '{"type": "result", "seq": 1, "output": {' + padding + ', "score": inf}}'
    assert line.index("inf") > 200
    with pytest.raises(ProtocolError) as caught:
        decode(line.encode())
    message = str(caught.value)
    assert f"at column {line.index('inf') + 1}:" in message
    assert '"score": inf}}' in message and message.count("…") == 1
