"""Compare a port's output with a case's expectation (golden/README.md; TEXT-12, TEXT-13).

Floats compare bit-exact after parsing to binary64, except the fields
conformance/judging/tolerances.py
names; integers compare exactly at any size. A mismatch shows both values in full (repr).

Returns the first difference as a JSON-pointer-like path with expected and actual values, so a
failure names the field to look at; `differences` lists them all (for `hrc diff`).
"""

from __future__ import annotations

import math
import struct
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from conformance.judging import rung_plan, trace_optional
from conformance.judging.pointer import resolve_pointer
from conformance.judging.tolerances import Tolerance, tolerance_for

#: For isinstance in hot loops: a tuple constant tests in half the time of `dict | list`
#: written in the call, which builds the union on every call (issue 40).
_CONTAINERS = (dict, list)

#: The same for `int | float`.
_NUMBERS = (int, float)

#: Integers up to this magnitude are exact in binary64, so `3.0` may stand for `3` (OP-4).
EXACT_FLOAT_INTEGERS = 2**53


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


def _ordered(x: float) -> int:
    """The binary64 bit pattern as an integer that orders like the value (for ulp distance)."""
    bits = int.from_bytes(struct.pack("<d", x), "little", signed=True)
    return bits if bits >= 0 else -(bits & 0x7FFF_FFFF_FFFF_FFFF)


def ulps_apart(a: float, b: float) -> int:
    """Steps between a and b on the binary64 grid: 1 for neighbours, 0 when equal (-0 == 0)."""
    return abs(_ordered(a) - _ordered(b))


def numbers_equal(a: float, b: float, tolerance: Tolerance | None = None) -> bool:
    """TEXT-13: the same binary64 value (`-0.0` equals `0.0`), or within a named tolerance."""
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if not (math.isfinite(a) and math.isfinite(b)):
        return False
    if a == b:
        return True
    if tolerance is None:
        return False
    return abs(a - b) <= tolerance.relative * max(abs(a), abs(b))


def number_difference(expected: Any, actual: Any, op: str | None, path: str) -> str | None:
    """Why `actual` is not the number `expected` at `path` of `op`'s output (TEXT-13), or None.

    An expected integer (no fraction, no exponent) compares exactly as an integer at any size;
    an expected float compares bit-exact after parsing to binary64, unless tolerances.py names
    the field.
    """
    if not _is_number(actual):
        return "expected a number"
    if isinstance(expected, int):
        if isinstance(actual, int):
            return None if actual == expected else "integer differs (exact)"
        if not math.isfinite(actual) or not actual.is_integer():
            return "expected an integer"
        if abs(actual) > EXACT_FLOAT_INTEGERS:
            return "an integer beyond 2^53 must be written without fraction or exponent"
        return None if int(actual) == expected else "integer differs (exact)"
    try:
        value = float(actual)
    except OverflowError:
        return "number differs (out of binary64 range)"
    tolerance = tolerance_for(op, path)
    if numbers_equal(float(expected), value, tolerance):
        return None
    if tolerance is not None:
        return f"number differs ({tolerance.describe()})"
    if not math.isfinite(value):
        return "number differs (bit-exact)"
    apart = ulps_apart(float(expected), value)
    return f"number differs (bit-exact; {apart} ulp{'s' if apart != 1 else ''} apart)"


def _is_number(x: Any) -> bool:
    return isinstance(x, _NUMBERS) and not isinstance(x, bool)


#: Leaves that compare by `==` and type alone (numbers do not: tolerances, -0.0, ulps).
_PLAIN = frozenset({str, bool, type(None)})


def differences(
    expected: Any, actual: Any, mode: str = "exact", path: str = "", op: str | None = None
) -> Iterator[Mismatch]:
    """Every difference between expected and actual under `mode`, in document order.

    `op` names the operation whose output this is, for the tolerances of TEXT-13; without it
    every float compares bit-exact. The first difference is what `compare` returns; `hrc diff`
    prints them all.
    """
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            yield Mismatch(path, expected, actual, "expected an object")
            return
        for key, value in expected.items():
            if key not in actual:
                yield Mismatch(f"{path}/{key}", value, None, "missing field")
                continue
            other = actual[key]
            if type(value) in _PLAIN and type(other) is type(value) and value == other:
                continue  # the recursion would find nothing (issue 40: no generator per leaf)
            yield from differences(value, other, mode, f"{path}/{key}", op)
        if mode != "partial":
            for key in sorted(set(actual) - set(expected)):
                yield Mismatch(f"{path}/{key}", None, actual[key], "unexpected field")
        return
    if isinstance(expected, list):
        if not isinstance(actual, list):
            yield Mismatch(path, expected, actual, "expected a list")
            return
        if mode == "set":
            if not _same_multiset(expected, actual, path, op):
                yield Mismatch(path, expected, actual, "different multiset")
            return
        for i, (e, a) in enumerate(zip(expected, actual, strict=False)):
            if type(e) in _PLAIN and type(a) is type(e) and e == a:
                continue
            yield from differences(e, a, mode, f"{path}/{i}", op)
        if len(expected) != len(actual):
            yield Mismatch(path, len(expected), len(actual), "list length differs")
        return
    if _is_number(expected):
        reason = number_difference(expected, actual, op, path)
        if reason is not None:
            yield Mismatch(path, expected, actual, reason)
        return
    if expected != actual or type(expected) is not type(actual):
        yield Mismatch(path, expected, actual, "value differs")


def _same_multiset(expected: list[Any], actual: list[Any], path: str, op: str | None) -> bool:
    """`set` mode: each expected element pairs with its own equal actual element."""
    if len(expected) != len(actual):
        return False
    unused = list(range(len(actual)))
    for i, e in enumerate(expected):
        where = f"{path}/{i}"
        match = next(
            (j for j in unused if next(differences(e, actual[j], "set", where, op), None) is None),
            None,
        )
        if match is None:
            return False
        unused.remove(match)
    return True


def compare(
    expected: Any, actual: Any, mode: str = "exact", path: str = "", op: str | None = None
) -> Mismatch | None:
    """First difference between expected and actual under `mode` (exact | partial | set)."""
    return next(differences(expected, actual, mode, path, op), None)


def drop_timings(value: Any) -> Any:
    """A copy of `value` without any `timings` key at any depth (TRACE-2: never compared)."""
    # containers recurse, leaves are taken as they are (issue 40: no call per leaf)
    if isinstance(value, dict):
        return {k: drop_timings(v) if isinstance(v, _CONTAINERS) else v
                for k, v in value.items() if k != "timings"}
    if isinstance(value, list):
        return [drop_timings(v) if isinstance(v, _CONTAINERS) else v for v in value]
    return value


def check(expect: dict[str, Any], output: Any, op: str | None = None) -> Mismatch | None:
    """Apply a case's `expect` (output+compare or one_of) to a successful output of `op`.

    `timings` keys are dropped from both sides first (TRACE-2).
    """
    output = drop_timings(output)
    if "error" in expect:
        return Mismatch("", {"error": expect["error"]}, output, "expected an error, got an output")
    mismatch = _check(_with_plans(expect, output, op), output, op)
    if mismatch is not None and rung_plan.PATH.search(mismatch.path):
        return Mismatch(mismatch.path, mismatch.expected, mismatch.actual,
                        f"{rung_plan.REASON}: {mismatch.reason}")
    return mismatch


def _with_plans(expect: dict[str, Any], output: Any, op: str | None) -> dict[str, Any]:
    """LADDER-16: the expectation of the `expressions` a port's attempt rows list."""
    if "output" in expect:
        wanted, pointers = rung_plan.expect_plans(expect["output"], output, op)
        if wanted is expect["output"]:
            return expect
        out = {**expect, "output": wanted}
        meaning = expect.get("fts5")
        if meaning is not None:
            out["fts5"] = {**meaning, "fields": [*meaning["fields"], *pointers]}
        return out
    if "one_of" in expect:
        return {**expect, "one_of": [rung_plan.expect_plans(o, output, op)[0]
                                     for o in expect["one_of"]]}
    return expect


def _check(expect: dict[str, Any], output: Any, op: str | None) -> Mismatch | None:
    """`check` once the LADDER-16 expectation is in place."""
    meaning = expect.get("fts5")  # DSL-23: FTS5 fields compare by meaning (set by cases.py)
    if meaning is not None and "output" in expect:
        from conformance.judging import fts5_meaning

        wrong, output = fts5_meaning.reconcile(
            expect["output"], output, meaning["fields"], meaning.get("fixture", ())
        )
        if wrong is not None:
            return Mismatch(wrong.path, wrong.expected, wrong.actual, wrong.reason)
    if "one_of" in expect:
        options: list[Any] = expect["one_of"]
        best: tuple[int, int, Mismatch] | None = None
        for i, option in enumerate(options):
            wanted = trace_optional.drop_unfilled(drop_timings(option), output, op)
            found = list(differences(wanted, output, "exact", "", op))
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
    mode = expect.get("compare", "exact")
    wanted = trace_optional.drop_unfilled(drop_timings(expect["output"]), output, op)
    mismatch = compare(wanted, output, mode, "", op)
    return mismatch if mismatch is not None else absent_problem(expect.get("absent", ()), output)


def absent_problem(pointers: Any, output: Any) -> Mismatch | None:
    """PROTO-47: the first of the case's `absent` pointers that names a value of the output."""
    for pointer in pointers:
        present, value = resolve_pointer(output, pointer)
        if present:
            reason = "a member the case says is absent is present"
            return Mismatch(pointer, "(absent)", value, reason)
    return None
