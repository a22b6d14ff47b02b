"""The compiled schema check (conformance/judging/fast_schema.py) agrees with jsonschema.

The runner trusts the compiled check only when it says valid, so the property that matters is
soundness; these tests ask for more (the same answer both ways) on every schema of schemas/,
on the reference's real outputs for the golden cases, on the golden inputs, and on mutations
of all of them (a member removed, a value of another type, an extra member).
"""

from __future__ import annotations

import copy
import itertools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from conformance.judging.fast_schema import compile_schema
from conformance.judging.schemas import schema_validator, schemas_dir

SCHEMAS = sorted(p.relative_to(schemas_dir()).as_posix()
                 for p in schemas_dir().rglob("*.schema.json"))
#: Schemas with a keyword the compiler does not do (multipleOf, unevaluatedProperties, a
#: reference into another file): validated by jsonschema alone, as before issue 40.
LEFT_TO_JSONSCHEMA = {
    "intent-table.schema.json",
    "profiles/bm25-okapi/search.input.schema.json",
    "profiles/gbrain/traverse.schema.json",
    "profiles/scoped-fusion/filter.schema.json",
    "profiles/scoped-fusion/search.input.schema.json",
}
#: Replacement values that cross every type boundary jsonschema draws (bool vs int, 1 vs 1.0).
ODD = [None, True, False, 0, 1, -1, 1.0, 0.5, -2.5, 10**20, "", "x", "0", [], [1], {}, {"a": 1}]


def _outputs() -> list[Any]:
    from conformance.adapters.ops import registry
    from conformance.judging.cases import load_all

    handlers = registry()
    found: list[Any] = []
    for case in load_all():
        found.append(case.input)
        handler = handlers.get(case.op)
        if handler is None:
            continue
        try:
            output = handler(copy.deepcopy(case.input))
        except Exception:  # an error answer: nothing to validate
            continue
        found.append(output)
        if isinstance(output, dict) and "trace" in output:
            found.append(output["trace"])
            for member in (output["trace"].get("profiles") or {}).values():
                found.append(member)
        found.append({"type": "result", "seq": 1, "output": output})
    return found


@pytest.fixture(scope="module")
def instances() -> list[Any]:
    return _outputs()


def mutations(value: Any, limit: int = 60) -> Iterator[Any]:
    """Up to `limit` near misses of `value`: paths in it changed one at a time."""
    paths: list[tuple[Any, ...]] = []
    stack: list[tuple[Any, tuple[Any, ...]]] = [(value, ())]
    while stack and len(paths) < limit:
        node, at = stack.pop()
        paths.append(at)
        if isinstance(node, dict):
            stack.extend((v, (*at, k)) for k, v in node.items())
        elif isinstance(node, list):
            stack.extend((v, (*at, i)) for i, v in enumerate(node[:3]))
    odd = itertools.cycle(ODD)
    for at in paths:
        for _ in range(3):
            changed = copy.deepcopy(value)
            if not at:
                yield next(odd)
                continue
            parent = changed
            for step in at[:-1]:
                parent = parent[step]
            parent[at[-1]] = next(odd)
            yield changed
        if at and isinstance(value, dict):
            changed = copy.deepcopy(value)
            parent = changed
            for step in at[:-1]:
                parent = parent[step]
            if isinstance(parent, dict):
                del parent[at[-1]]
                yield changed
                parent["zzExtra"] = 1
                yield changed


@pytest.mark.parametrize("name", SCHEMAS)
def test_compiled_check_agrees_with_jsonschema(name: str, instances: list[Any]) -> None:
    schema = json.loads((schemas_dir() / name).read_text(encoding="utf-8"))
    check = compile_schema(schema)
    if check is None:  # jsonschema alone judges these; the list says which they are
        assert name in LEFT_TO_JSONSCHEMA, f"{name} is no longer compiled"
        return
    assert name not in LEFT_TO_JSONSCHEMA, f"{name} is compiled now: update the list"
    validator = schema_validator(name)
    valid = [x for x in instances if validator.is_valid(x)]
    pool = [*valid, *(m for x in valid[:25] for m in mutations(x, 30)), *instances[:200], *ODD]
    disagree = [x for x in pool if check(x) != validator.is_valid(x)]
    assert not disagree, f"{name}: {json.dumps(disagree[0])[:400]}"


def test_the_hot_schemas_are_compiled() -> None:
    """The schemas every case meets (traces, results, runs) must not fall back silently."""
    for name in ("trace.schema.json", "protocol/result.schema.json",
                 "protocol/run.schema.json", "protocol/error.schema.json",
                 "profiles/temporal/trace.schema.json"):
        schema = json.loads((schemas_dir() / name).read_text(encoding="utf-8"))
        assert compile_schema(schema) is not None, name


@pytest.mark.parametrize("schema, good, bad", [
    ({"type": "integer"}, [1, 1.0, -3], [True, 1.5, "1"]),
    ({"enum": [1, "a"]}, [1, 1.0, "a"], [True, "b"]),
    ({"const": False}, [False], [0, None]),
    ({"uniqueItems": True}, [[1, True], [[1], [2]]], [[1, 1.0], [{"a": 1}, {"a": 1}]]),
    ({"oneOf": [{"type": "number"}, {"type": "integer"}]}, [0.5], [1]),
    ({"if": {"minimum": 5}, "then": {"maximum": 7}, "else": {"const": 1}}, [6, 1, "x"], [8, 2]),
    ({"properties": {"a": {"$ref": "#/$defs/d"}}, "$defs": {"d": {"type": "string"}}},
     [{"a": "x"}, {}], [{"a": 1}]),
    ({"patternProperties": {"^x": {"type": "null"}}, "additionalProperties": False},
     [{"x1": None}], [{"x1": 1}, {"y": None}]),
    ({"prefixItems": [{"type": "string"}], "items": {"type": "integer"}}, [["a", 1]],
     [[1], ["a", "b"]]),
    ({"propertyNames": {"pattern": "^[a-z]+$"}, "dependentRequired": {"a": ["b"]}},
     [{"b": 1}, {"a": 1, "b": 2}], [{"A": 1}, {"a": 1}]),
])
def test_keyword_semantics(schema: dict[str, Any], good: list[Any], bad: list[Any]) -> None:
    check = compile_schema(schema)
    assert check is not None
    reference = jsonschema.Draft202012Validator(schema)
    for value in good:
        assert check(value) and reference.is_valid(value), value
    for value in bad:
        assert not check(value) and not reference.is_valid(value), value


@pytest.mark.parametrize("schema", [
    {"multipleOf": 0.1}, {"unevaluatedProperties": False}, {"contains": {}},
    {"$ref": "other.json#/x"}, {"properties": {"a": {"$id": "x", "type": "string"}}},
    {"items": [{"type": "string"}]}, {"someNewKeyword": 1},
])
def test_unsupported_schemas_are_left_to_jsonschema(schema: dict[str, Any]) -> None:
    assert compile_schema(schema) is None


def test_schema_names_exist() -> None:
    assert "trace.schema.json" in SCHEMAS and all(Path(schemas_dir() / n).is_file()
                                                  for n in SCHEMAS)
