"""Reference handlers of the text operations (spec/operations.md; spec/portability.md)."""

from __future__ import annotations

from typing import Any

from conformance.adapters.ops import JSON, operation
from reference import text
from reference.types import InvalidInput


def _string(inp: JSON, name: str) -> str:
    value: Any = inp.get(name)
    if not isinstance(value, str):
        raise InvalidInput(f"{name} must be a string")
    return value


@operation("normalise")
def op_normalise(inp: JSON) -> JSON:
    t = _string(inp, "text")
    return {"normalised": text.normalise(t), "folded": text.fold(t)}


@operation("words")
def op_words(inp: JSON) -> JSON:
    return {"words": text.words(_string(inp, "text"))}


@operation("length")
def op_length(inp: JSON) -> JSON:
    return {"length": text.length(_string(inp, "text"))}


@operation("sort_strings")
def op_sort_strings(inp: JSON) -> JSON:
    items = inp.get("strings")
    if not isinstance(items, list) or not all(isinstance(s, str) for s in items):
        raise InvalidInput("strings must be a list of strings")
    return {"sorted": text.sort_codepoint(items)}
