"""The runner's trace check (PROTO-32): every trace a port returns must satisfy TRACE-1.

The schema is read from the kit's schemas/trace.schema.json when first needed, never copied
here, so the check follows the spec as the schema changes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from jsonschema.exceptions import best_match

from conformance.cases import schema_validator
from conformance.compare import Mismatch

#: Operations whose output always carries a trace (spec/operations.md, TRACE-1).
TRACE_OPS = frozenset({"search", "search_corpus"})
TRACE_SCHEMA = "trace.schema.json"


def pointer(parts: Sequence[str | int]) -> str:
    """RFC 6901 JSON pointer of a path."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


def trace_problem(op: str, output: Any) -> Mismatch | None:
    """Why `op`'s output has no valid trace (missing where required, or failing the schema).

    None when the output carries a valid trace, or carries none and `op` needs none.
    """
    if not (isinstance(output, dict) and "trace" in output):
        if op in TRACE_OPS:
            reason = f"missing trace (every {op} output carries one, TRACE-1)"
            return Mismatch("/trace", f"valid under schemas/{TRACE_SCHEMA}", None, reason)
        return None
    error = best_match(schema_validator(TRACE_SCHEMA).iter_errors(output["trace"]))
    if error is None:
        return None
    where = "/trace" + pointer(list(error.absolute_path))
    schema_path = "#" + pointer(list(error.absolute_schema_path))
    reason = f"trace fails schemas/{TRACE_SCHEMA} (schema path {schema_path}): {error.message}"
    return Mismatch(where, f"valid under schemas/{TRACE_SCHEMA}", error.instance, reason)
