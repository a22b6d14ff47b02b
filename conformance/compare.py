"""Compare a port's output with a case's expectation (golden/README.md; TEXT-12, TEXT-13).

Returns the first difference as a JSON-pointer-like path with expected and actual values, so a
failure names the field to look at.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from typing import Any

REL_TOL = 1e-12


@dataclass(frozen=True)
class Mismatch:
    """Where the output first differs from the expectation."""

    path: str
    expected: Any
    actual: Any
    reason: str

    def __str__(self) -> str:
        return f"at {self.path or '/'}: {self.reason}: expected {self.expected!r}, got {self.actual!r}"


def numbers_equal(a: float, b: float) -> bool:
    """TEXT-13: equal, or within a relative 1e-12."""
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if not (math.isfinite(a) and math.isfinite(b)):
        return False
    if a == b:
        return True
    return abs(a - b) <= REL_TOL * max(abs(a), abs(b))


def _is_number(x: Any) -> bool:
    return isinstance(x, int | float) and not isinstance(x, bool)


def _canon(x: Any) -> Any:
    """Hashable form for multiset comparison (numbers kept as float)."""
    if isinstance(x, dict):
        return ("o", tuple(sorted((k, _canon(v)) for k, v in x.items())))
    if isinstance(x, list):
        return ("l", tuple(sorted((_canon(v) for v in x), key=repr)))
    if _is_number(x):
        return ("n", float(x))
    return ("v", x)


def compare(expected: Any, actual: Any, mode: str = "exact", path: str = "") -> Mismatch | None:
    """First difference between expected and actual under `mode` (exact | partial | set)."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return Mismatch(path, expected, actual, "expected an object")
        for key, value in expected.items():
            if key not in actual:
                return Mismatch(f"{path}/{key}", value, None, "missing field")
            found = compare(value, actual[key], mode, f"{path}/{key}")
            if found:
                return found
        if mode != "partial":
            extra = sorted(set(actual) - set(expected))
            if extra:
                return Mismatch(f"{path}/{extra[0]}", None, actual[extra[0]], "unexpected field")
        return None
    if isinstance(expected, list):
        if not isinstance(actual, list):
            return Mismatch(path, expected, actual, "expected a list")
        if mode == "set":
            if Counter(map(_canon, expected)) != Counter(map(_canon, actual)):
                return Mismatch(path, expected, actual, "different multiset")
            return None
        for i, (e, a) in enumerate(zip(expected, actual, strict=False)):
            found = compare(e, a, mode, f"{path}/{i}")
            if found:
                return found
        if len(expected) != len(actual):
            return Mismatch(path, len(expected), len(actual), "list length differs")
        return None
    if _is_number(expected):
        if not _is_number(actual) or not numbers_equal(float(expected), float(actual)):
            return Mismatch(path, expected, actual, "number differs")
        if isinstance(expected, int) and isinstance(actual, float) and not actual.is_integer():
            return Mismatch(path, expected, actual, "expected an integer")
        return None
    if expected != actual or type(expected) is not type(actual):
        return Mismatch(path, expected, actual, "value differs")
    return None


def check(expect: dict[str, Any], output: Any) -> Mismatch | None:
    """Apply a case's `expect` (output+compare or one_of) to a successful output."""
    if "error" in expect:
        return Mismatch("", {"error": expect["error"]}, output, "expected an error, got an output")
    if "one_of" in expect:
        options: list[Any] = expect["one_of"]
        for option in options:
            if compare(option, output, "exact") is None:
                return None
        return Mismatch("", options, output, "output matches none of the acceptable outputs")
    return compare(expect["output"], output, expect.get("compare", "exact"))
