"""Profile `temporal` (spec/profiles/temporal.md): the anchor's temporal expansion of the query
string, anchored on a caller-supplied questionDate (TEMPORAL-*)."""

from __future__ import annotations

from typing import Any

from reference.profiles.temporal.expand import expand
from reference.profiles.temporal.pipeline import PIPELINE
from reference.types import InvalidInput

VERSION = "1.0.0"


def _question_date(obj: dict[str, Any], where: str) -> str | None:
    """TEMPORAL-5: a string, or null/absent (OP-5); any other type is invalid_input."""
    value = obj.get("questionDate")
    if value is not None and not isinstance(value, str):
        raise InvalidInput(f"{where}questionDate must be a string or null")
    return value


def op_expand(inp: dict[str, Any]) -> dict[str, Any]:
    """TEMPORAL-2: {query, questionDate} -> the four output fields."""
    query = inp.get("query")
    if not isinstance(query, str):
        raise InvalidInput("query must be a string")
    return expand(query, _question_date(inp, "")).to_json()


OPERATIONS = {"temporal.expand": op_expand}

__all__ = ["OPERATIONS", "PIPELINE", "VERSION"]
