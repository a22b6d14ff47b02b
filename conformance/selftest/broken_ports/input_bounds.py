"""Broken ports of the operation input bounds (FANOUT-25, INTENT-14), registered on import."""

from __future__ import annotations

from typing import Any

from conformance.selftest.broken_ports.patching import _mod, mutant, swap


def _request() -> Any:
    return _mod("reference.request")


@mutant(
    "query-bound-missing",
    "FANOUT-25",
    "fanout_texts and intent_detect take any length",
    seams=("reference.request.check_query_bound",),
)
def _bound_missing() -> None:
    swap(_request(), "check_query_bound", lambda value, field, clause: value)


@mutant(
    "query-bound-utf16",
    "FANOUT-25",
    "the bound counts UTF-16 units (JavaScript's `length`), refusing astral text",
    seams=("reference.request.check_query_bound",),
)
def _bound_utf16() -> None:
    r = _request()
    original = r.check_query_bound

    def check(value: str, field: str, clause: str) -> str:
        units = len(value.encode("utf-16-le", "surrogatepass")) // 2
        if units > r.MAX_QUERY_CODE_POINTS:
            raise r.InvalidInput(f"{field} is longer than {r.MAX_QUERY_CODE_POINTS} ({clause})")
        result: str = original(value, field, clause)
        return result

    swap(r, "check_query_bound", check)


@mutant(
    "query-bound-after-normalising",
    "INTENT-14",
    "the bound counts the normalised text, not the string as given",
    seams=("reference.request.check_query_bound",),
)
def _bound_normalised() -> None:
    r = _request()
    original = r.check_query_bound

    def check(value: str, field: str, clause: str) -> str:
        original(r.text.normalise(value), field, clause)
        return value

    swap(r, "check_query_bound", check)
