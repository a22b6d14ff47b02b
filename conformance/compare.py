"""Compare a port's output with a case's expectation (golden/README.md; TEXT-12, TEXT-13).

Returns the first difference as a JSON-pointer-like path with expected and actual values, so a
failure names the field to look at; `differences` lists them all (for `hrc diff`).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterator
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
        where = self.path or "/"
        return f"at {where}: {self.reason}: expected {self.expected!r}, got {self.actual!r}"


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


def differences(
    expected: Any, actual: Any, mode: str = "exact", path: str = ""
) -> Iterator[Mismatch]:
    """Every difference between expected and actual under `mode`, in document order.

    The first one is what `compare` returns; `hrc diff` prints them all.
    """
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            yield Mismatch(path, expected, actual, "expected an object")
            return
        for key, value in expected.items():
            if key not in actual:
                yield Mismatch(f"{path}/{key}", value, None, "missing field")
                continue
            yield from differences(value, actual[key], mode, f"{path}/{key}")
        if mode != "partial":
            for key in sorted(set(actual) - set(expected)):
                yield Mismatch(f"{path}/{key}", None, actual[key], "unexpected field")
        return
    if isinstance(expected, list):
        if not isinstance(actual, list):
            yield Mismatch(path, expected, actual, "expected a list")
            return
        if mode == "set":
            if Counter(map(_canon, expected)) != Counter(map(_canon, actual)):
                yield Mismatch(path, expected, actual, "different multiset")
            return
        for i, (e, a) in enumerate(zip(expected, actual, strict=False)):
            yield from differences(e, a, mode, f"{path}/{i}")
        if len(expected) != len(actual):
            yield Mismatch(path, len(expected), len(actual), "list length differs")
        return
    if _is_number(expected):
        if not _is_number(actual) or not numbers_equal(float(expected), float(actual)):
            yield Mismatch(path, expected, actual, "number differs")
        elif isinstance(expected, int) and isinstance(actual, float) and not actual.is_integer():
            yield Mismatch(path, expected, actual, "expected an integer")
        return
    if expected != actual or type(expected) is not type(actual):
        yield Mismatch(path, expected, actual, "value differs")


def compare(expected: Any, actual: Any, mode: str = "exact", path: str = "") -> Mismatch | None:
    """First difference between expected and actual under `mode` (exact | partial | set)."""
    return next(differences(expected, actual, mode, path), None)


def drop_timings(value: Any) -> Any:
    """A copy of `value` without any `timings` key at any depth (TRACE-2: never compared)."""
    if isinstance(value, dict):
        return {k: drop_timings(v) for k, v in value.items() if k != "timings"}
    if isinstance(value, list):
        return [drop_timings(v) for v in value]
    return value


def check(expect: dict[str, Any], output: Any) -> Mismatch | None:
    """Apply a case's `expect` (output+compare or one_of) to a successful output.

    `timings` keys are dropped from both sides first (TRACE-2).
    """
    output = drop_timings(output)
    if "error" in expect:
        return Mismatch("", {"error": expect["error"]}, output, "expected an error, got an output")
    meaning = expect.get("fts5")  # DSL-23: FTS5 fields compare by meaning (set by cases.py)
    if meaning is not None and "output" in expect:
        from conformance import fts5_meaning

        wrong, output = fts5_meaning.reconcile(
            expect["output"], output, meaning["fields"], meaning.get("fixture", ())
        )
        if wrong is not None:
            return Mismatch(wrong.path, wrong.expected, wrong.actual, wrong.reason)
    if "one_of" in expect:
        options: list[Any] = expect["one_of"]
        best: tuple[int, int, Mismatch] | None = None
        for i, option in enumerate(options):
            found = list(differences(drop_timings(option), output, "exact"))
            if not found:
                return None
            if best is None or len(found) < best[0]:
                best = (len(found), i, found[0])
        assert best is not None
        _, index, first = best
        return Mismatch(
            first.path,
            first.expected,
            first.actual,
            f"output matches none of the {len(options)} acceptable outputs; "
            f"closest is option {index}: {first.reason}",
        )
    return compare(drop_timings(expect["output"]), output, expect.get("compare", "exact"))
