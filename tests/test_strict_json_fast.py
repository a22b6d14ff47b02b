"""loads_strict's fast path (issue 40) reads every text as the full PROTO-2 hooks read it:
the same value, or the same error with the same message."""

from __future__ import annotations

import json
from typing import Any

import pytest

from conformance.common import strict_json
from conformance.common.strict_json import ProtocolError, loads_strict


def _full_hooks(text: str) -> Any:
    """The parse before issue 40: every number through its hook."""
    value = json.loads(
        text,
        parse_constant=strict_json._no_constants,
        parse_float=strict_json._finite_float,
        parse_int=strict_json._bounded_int,
        object_pairs_hook=strict_json._unique_pairs,
    )
    if strict_json.too_deep(value):
        raise ProtocolError(f"arrays/objects nest deeper than {strict_json.MAX_DEPTH} levels "
                            "(PROTO-36)")
    bad = strict_json.lone_surrogate(value)
    if bad is not None:
        raise ProtocolError("a string holds an unpaired surrogate (not valid Unicode): "
                            f"{strict_json._excerpt(bad)}")
    return value


def _outcome(read: Any, text: str) -> tuple[str, Any]:
    try:
        value = read(text)
    except (ValueError, RecursionError) as exc:
        return type(exc).__name__, str(exc)
    return "value", json.dumps(value, sort_keys=False)


TEXTS = [
    '{"a": 1, "b": [1.5, -2, 3e10, 1E-400, 0.1]}',
    '{"a": 1, "a": 2}',
    '[{"x": {"y": 1, "y": 2}}]',
    '{"n": NaN}', '[Infinity]', '[-Infinity]',
    "[1e308]", "[1.8e308]", "[1e309]", "[1E+400]", "[1e0400]", "[-1e309]",
    "[" + "9" * 199 + "e99]", "[" + "9" * 199 + "]", "[" + "9" * 309 + "]",
    "[" + "1" * 310 + "]", "[" + "9" * 5000 + "]", "[0." + "9" * 400 + "]",
    '{"s": "\\ud83d\\ude00"}', '{"s": "\\ud83d"}', '{"\\udc00": 1}',
    "[" * 64 + "]" * 64, "[" * 65 + "]" * 65, '{"a": [' * 40 + "]}" * 40,
    "[1,]", '{"a" 1}', "", "[1] x", '"x"', "true", "[true, false, null]",
]


@pytest.mark.parametrize("text", TEXTS)
def test_fast_path_reads_as_the_full_hooks(text: str) -> None:
    assert _outcome(loads_strict, text) == _outcome(_full_hooks, text)


def test_duplicate_key_message_names_the_key() -> None:
    with pytest.raises(ProtocolError, match="duplicate key 'b'"):
        loads_strict('{"a": {"b": 1, "b": 2}}')
