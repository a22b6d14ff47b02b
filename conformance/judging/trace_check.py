"""The runner's trace check (PROTO-32): every trace a port returns must satisfy TRACE-1.

The schema is read from the kit's schemas/trace.schema.json when first needed, never copied
here, so the check follows the spec as the schema changes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from conformance.judging.compare import Mismatch
from conformance.judging.schemas import fast_valid, has_schema, schema_validator

#: Operations whose output always carries a trace (spec/operations.md, TRACE-1).
TRACE_OPS = frozenset({"search", "search_corpus"})
TRACE_SCHEMA = "trace.schema.json"
#: PROFILE-4, PIPE-11: a profile's own trace member schema, when the profile ships one.
PROFILE_TRACE_SCHEMA = "profiles/{name}/trace.schema.json"
#: A profile operation `NAME.op` (PROFILE-4) has no core trace: its whole output is checked
#: against the profile's own output schema, when the profile ships one.
PROFILE_OUTPUT_SCHEMA = "profiles/{name}/{op}.output.schema.json"


def pointer(parts: Sequence[str | int]) -> str:
    """RFC 6901 JSON pointer of a path."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


def trace_problem(op: str, output: Any) -> Mismatch | None:
    """Why `op`'s output has no valid trace (missing where required, or failing the schema).

    None when the output carries a valid trace, or carries none and `op` needs none.
    """
    if "." in op:  # a profile's own operation: its schema, never the core trace (spec 4.0.0)
        name, _, own = op.partition(".")
        schema = PROFILE_OUTPUT_SCHEMA.format(name=name, op=own)
        if not has_schema(schema):
            return None
        return _schema_problem(schema, output, [])
    if not (isinstance(output, dict) and "trace" in output):
        if op in TRACE_OPS:
            reason = f"missing trace (every {op} output carries one, TRACE-1)"
            return Mismatch("/trace", f"valid under schemas/{TRACE_SCHEMA}", None, reason)
        return None
    trace = output["trace"]
    problem = _schema_problem(TRACE_SCHEMA, trace, ["trace"])
    if problem is not None or not isinstance(trace, dict):
        return problem
    members = trace.get("profiles")
    for name, member in sorted(members.items()) if isinstance(members, dict) else ():
        schema = PROFILE_TRACE_SCHEMA.format(name=name)
        if has_schema(schema):
            problem = _schema_problem(schema, member, ["trace", "profiles", name])
            if problem is not None:
                return problem
    return None


def _schema_problem(schema: str, value: Any, at: list[str]) -> Mismatch | None:
    """The best-matching error of `value` under schemas/`schema`, as a Mismatch at `at`."""
    if fast_valid(schema, value):  # the compiled check; a failure's text is jsonschema's
        return None
    from jsonschema.exceptions import best_match

    error = best_match(schema_validator(schema).iter_errors(value))
    if error is None:
        return None
    where = pointer([*at, *error.absolute_path])
    schema_path = "#" + pointer(list(error.absolute_schema_path))
    reason = f"trace fails schemas/{schema} (schema path {schema_path}): {error.message}"
    return Mismatch(where, f"valid under schemas/{schema}", error.instance, reason)
