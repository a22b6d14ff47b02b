"""Schemas are validated with their local definitions inlined (conformance/judging/cases.py
`inline_local_refs`): the inlined schema accepts exactly what the file accepts."""

from __future__ import annotations

import copy
import json
from typing import Any

import jsonschema
import pytest

from conformance.adapters.ops import registry
from conformance.judging.cases import load_all
from conformance.judging.schemas import inline_local_refs, schemas_dir


def _schema(name: str) -> Any:
    return json.loads((schemas_dir() / name).read_text(encoding="utf-8"))


def _verdicts(schema: Any, documents: list[Any]) -> list[list[str]]:
    validator = jsonschema.Draft202012Validator(schema)
    return [sorted(e.message for e in validator.iter_errors(d)) for d in documents]


def _traces(limit: int = 120) -> list[Any]:
    ops = registry()
    traces = []
    for case in load_all():
        if case.op == "search" and "output" in case.expect and len(traces) < limit:
            try:
                out = ops["search"](case.input)
            except Exception:  # error cases have no trace
                continue
            traces.append(json.loads(json.dumps(out["trace"])))
    return traces


def _broken(trace: dict[str, Any]) -> list[Any]:
    """Ways a port gets a trace wrong: a member missing, a wrong type, a stray member."""
    out = []
    for key in list(trace)[:6]:
        missing = copy.deepcopy(trace)
        del missing[key]
        wrong = copy.deepcopy(trace)
        wrong[key] = "x" if not isinstance(trace[key], str) else 7
        out += [missing, wrong]
    for leg in ("bm25", "vector"):
        if isinstance(trace.get(leg), dict):
            odd = copy.deepcopy(trace)
            odd[leg]["hits"] = -1
            out.append(odd)
    stray = copy.deepcopy(trace)
    stray["unexpected"] = True
    return [*out, stray]


def test_inlined_trace_schema_gives_the_same_verdicts_on_real_and_broken_traces() -> None:
    traces = _traces()
    documents = [*traces, *(b for t in traces[:20] for b in _broken(t))]
    schema = _schema("trace.schema.json")
    verdicts = _verdicts(inline_local_refs(schema), documents)
    assert verdicts == _verdicts(schema, documents)
    assert any(verdicts) and not all(verdicts)  # both kinds were seen


def test_inlined_trace_schema_follows_no_local_definition() -> None:
    flat = inline_local_refs(_schema("trace.schema.json"))
    text = json.dumps({k: v for k, v in flat.items() if k != "$defs"})
    assert "#/$defs/" not in text


def test_a_reference_inside_a_cycle_of_definitions_is_kept() -> None:
    tree = {
        "$ref": "#/$defs/node",
        "$defs": {
            "node": {
                "type": "object",
                "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/node"}}},
                "additionalProperties": False,
            }
        },
    }
    flat = inline_local_refs(tree)
    good = {"kids": [{"kids": [{}]}]}
    bad = {"kids": [{"kids": [{"odd": 1}]}]}
    assert _verdicts(flat, [good, bad]) == _verdicts(tree, [good, bad])
    assert _verdicts(flat, [bad]) != [[]]


@pytest.mark.parametrize(
    "node",
    [
        {"$ref": "#/$defs/n", "minimum": 5},  # siblings: 2020-12 applies both
        {"$ref": "#/properties/other"},  # not a local definition
    ],
)
def test_a_reference_that_is_not_a_bare_local_definition_is_kept(node: dict[str, Any]) -> None:
    schema = {"properties": {"a": node, "other": {"type": "integer"}}, "$defs": {"n": {}}}
    assert inline_local_refs(schema)["properties"]["a"] == node
