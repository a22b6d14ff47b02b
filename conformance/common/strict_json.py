"""Strict JSON as the protocol reads a line (PROTO-2): no NaN or Infinity, numbers within binary64,
no repeated key, bounded nesting (PROTO-36), no lone surrogate.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

#: For isinstance in hot loops: a tuple constant tests in half the time of `dict | list`
#: written in the call, which builds the union on every call (issue 40).
_CONTAINERS = (dict, list)

#: Deepest nesting of arrays and objects a message may have (PROTO-36); the message itself
#: is level 1.
MAX_DEPTH = 64


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
    """True when arrays/objects nest deeper than `limit` levels (iterative: no recursion).

    Walks one level at a time (issue 40: C-level list building instead of a stack entry per
    child); `level` holds the containers `depth` levels down."""
    level = [value] if isinstance(value, _CONTAINERS) else []
    depth = 1
    while level:
        if depth > limit:
            return True
        children: list[Any] = []
        for item in level:
            children.extend(item.values() if isinstance(item, dict) else item)
        level = [child for child in children if isinstance(child, _CONTAINERS)]
        depth += 1
    return False


def _unique_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ProtocolError(f"duplicate key {key!r} in a JSON object")
        out[key] = value
    return out


#: A surrogate code point: decoded JSON holds one only where the escape was unpaired.
_SURROGATE = re.compile("[\ud800-\udfff]")


def lone_surrogate(value: Any) -> str | None:
    """The first string (value or key) in `value` holding an unpaired surrogate, or None."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if _SURROGATE.search(item) is not None:
                return item
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return None


#: The same escape in decoded text, for `loads_strict`.
_SURROGATE_ESCAPE_TEXT = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


def _holds_surrogate(value: Any) -> bool:
    """Whether any string (value or key) of parsed JSON holds a surrogate code point, found in
    C: the encoder writes every string, keys included, and leaves surrogates unescaped when
    ensure_ascii is off. (A paired escape decodes to one astral character, so escapes of
    emoji and the like come out clean; issue 40.)"""
    return _SURROGATE.search(json.dumps(value, ensure_ascii=False)) is not None


def _unique_pairs_fast(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(pairs)
    return out if len(out) == len(pairs) else _unique_pairs(pairs)  # raises, naming the key


#: Text where a number could fall outside binary64: 200+ digits in a row, or an exponent of 3+
#: digits that is not negative. Without either, every number parses to a finite float or an
#: int of under 200 digits, so the number hooks could refuse none (issue 40's fast path).
_RISKY_NUMBER = re.compile(r"\d{200}|[eE]\+?\d{3}")


def _loads(text: str) -> Any:
    """json.loads with the PROTO-2 hooks; the number hooks only where a number could need them,
    and any error raised by the full hooks, so every message is the same."""
    if _RISKY_NUMBER.search(text) is None:
        try:
            return json.loads(text, parse_constant=_no_constants,
                              object_pairs_hook=_unique_pairs_fast)
        except (ValueError, RecursionError):
            pass  # the full parse below raises the error, exactly as it always did
    return json.loads(
        text,
        parse_constant=_no_constants,
        parse_float=_finite_float,
        parse_int=_bounded_int,
        object_pairs_hook=_unique_pairs,
    )


def loads_strict(text: str) -> Any:
    """JSON text read as PROTO-2 and PROTO-36 read a line (shared with `hrc diff`).

    A violation (NaN, Infinity, a number outside binary64, a repeated key, nesting deeper than
    MAX_DEPTH, an unpaired surrogate) raises ProtocolError; text that is not JSON raises
    json.JSONDecodeError, or RecursionError when it nests beyond the parser's stack.
    """
    value = _loads(text)
    # nesting cannot exceed the number of brackets, which the C count finds at once
    if text.count("[") + text.count("{") > MAX_DEPTH and too_deep(value):
        raise ProtocolError(f"arrays/objects nest deeper than {MAX_DEPTH} levels (PROTO-36)")
    if _SURROGATE_ESCAPE_TEXT.search(text) is not None and _holds_surrogate(value):
        bad = lone_surrogate(value)
        if bad is not None:
            raise ProtocolError(
                f"a string holds an unpaired surrogate (not valid Unicode): {_excerpt(bad)}"
            )
    return value


def _excerpt(text: str, limit: int = 120) -> str:
    shown = text if len(text) <= limit else text[:limit] + "…"
    return repr(shown)


def excerpt_at(text: str, pos: int, width: int = 50) -> str:
    """The text around character `pos` (up to `width` characters each side, `…` where cut)
    and the column, so a long line shows the offending spot, not only its start (issue 38)."""
    pos = max(0, min(pos, len(text)))
    start, end = max(0, pos - width), min(len(text), pos + width)
    shown = ("…" if start > 0 else "") + text[start:end] + ("…" if end < len(text) else "")
    return f"at column {pos + 1}: {shown!r}"


_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[{}\[\]:,]|[^\s{}\[\]:,"]+')


_CONSTANTS = frozenset({"NaN", "Infinity", "-Infinity"})


UNLOCATED = "not strict JSON (PROTO-2)"


def _finite_token(token: str) -> bool:
    try:
        return math.isfinite(float(token))
    except ValueError:
        return True


def locate_violation(text: str) -> tuple[int, str]:
    """Line (1-based) and description of the first NaN, Infinity, repeated key or lone
    surrogate in `text`, a JSON document that parses apart from those."""
    #: one entry per open container: the keys seen so far (objects) or None (arrays).
    stack: list[set[str] | None] = []
    expect_key = False
    for match in _TOKEN.finditer(text):
        token = match.group()
        line = text.count("\n", 0, match.start()) + 1
        if token == "{":
            stack.append(set())
            expect_key = True
        elif token == "[":
            stack.append(None)
            expect_key = False
        elif token in ("}", "]"):
            stack.pop()
            expect_key = False
        elif token == ",":
            expect_key = bool(stack) and stack[-1] is not None
        elif token == ":":
            expect_key = False
        elif token.startswith('"'):
            value = json.loads(token)
            if lone_surrogate(value) is not None:
                return line, f"string {token[:40]} holds an unpaired surrogate (not valid Unicode)"
            keys = stack[-1] if stack else None
            if expect_key and keys is not None:
                if value in keys:
                    return line, f"repeated key {value!r} in one object (PROTO-2)"
                keys.add(value)
            expect_key = False
        elif token in _CONSTANTS:
            return line, f"{token} is not JSON (non-finite numbers are not allowed; PROTO-2)"
        elif token[0] in "-0123456789" and not _finite_token(token):
            return line, f"{token} is outside the binary64 range (PROTO-2)"
    return 1, UNLOCATED
