"""A schema compiled once into plain Python checks: the runner's fast "is it valid?" (issue 40).

`compile_schema(schema)` turns a JSON Schema (draft 2020-12) into a function `value -> bool`,
or returns None when the schema uses a keyword outside the subset below; then the caller keeps
using jsonschema alone. The compiled check is only ever trusted when it says *valid*: every
caller asks jsonschema again when it says invalid, and takes the verdict and the failure text
from jsonschema, so a failure reads exactly as before. Its one duty is therefore soundness:
`check(value)` is True only when jsonschema's Draft202012Validator accepts `value`
(tests/test_fast_schema.py compares the two on every golden output and on mutations of them).

Supported: boolean schemas, type, enum, const, properties, patternProperties,
additionalProperties, required, minProperties, maxProperties, propertyNames, dependentRequired,
items, prefixItems, minItems, maxItems, uniqueItems, minimum, maximum, exclusiveMinimum,
exclusiveMaximum, minLength, maxLength, pattern, allOf, anyOf, oneOf, not, if/then/else, and a
`$ref` to a JSON pointer (`#`, `#/...`) in the same document. Annotations are ignored as jsonschema
ignores them. Anything else (multipleOf, unevaluated*, contains, dynamic or remote
references, a nested `$id`, an unknown keyword) makes the whole schema unsupported.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from typing import Any

#: For isinstance in hot loops: a tuple constant tests in half the time of `int | float`
#: written in the call, which builds the union on every call (issue 40).
_NUMBERS = (int, float)

Check = Callable[[Any], bool]

#: Stand-ins that keep True and False apart from 1 and 0 when values are compared or sorted.
_TRUE, _FALSE = object(), object()


def _unbool(value: Any) -> Any:
    return _TRUE if value is True else _FALSE if value is False else value


def equal(one: Any, two: Any) -> bool:
    """JSON equality as jsonschema judges `enum`, `const` and `uniqueItems`: 1 equals 1.0,
    but neither True nor False equals a number, at any depth."""
    if one is two:
        return True
    if isinstance(one, str) or isinstance(two, str):
        return bool(one == two)
    if isinstance(one, list) and isinstance(two, list):
        return len(one) == len(two) and all(equal(a, b) for a, b in zip(one, two, strict=True))
    if isinstance(one, dict) and isinstance(two, dict):
        return len(one) == len(two) and all(k in two and equal(v, two[k]) for k, v in one.items())
    return bool(_unbool(one) == _unbool(two))


def uniq(items: list[Any]) -> bool:
    """No two items equal, decided as jsonschema decides it: neighbours after sorting when the
    items sort, every pair otherwise."""
    try:
        ordered = sorted(_unbool(item) for item in items)
        return not any(equal(a, b) for a, b in itertools.pairwise(ordered))
    except (NotImplementedError, TypeError):
        seen: list[Any] = []
        for item in map(_unbool, items):
            if any(equal(other, item) for other in seen):
                return False
            seen.append(item)
        return True

#: Keywords that never change whether a value is valid (jsonschema asserts no `format`).
_ANNOTATIONS = frozenset({
    "$schema", "$id", "$comment", "$defs", "title", "description", "default", "examples",
    "format", "deprecated", "readOnly", "writeOnly", "contentMediaType", "contentEncoding",
})
_SUPPORTED = _ANNOTATIONS | frozenset({
    "type", "enum", "const", "properties", "patternProperties", "additionalProperties",
    "required", "minProperties", "maxProperties", "propertyNames", "dependentRequired",
    "items", "prefixItems", "minItems", "maxItems", "uniqueItems", "minimum", "maximum",
    "exclusiveMinimum", "exclusiveMaximum", "minLength", "maxLength", "pattern", "allOf",
    "anyOf", "oneOf", "not", "if", "then", "else", "$ref",
})


class Unsupported(Exception):
    """The schema needs something this compiler does not do."""


def _is_integer(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    return isinstance(value, int) or (isinstance(value, float) and value.is_integer())


def _is_number(value: Any) -> bool:
    return isinstance(value, _NUMBERS) and not isinstance(value, bool)


_TYPES: dict[str, Check] = {
    "null": lambda v: v is None,
    "boolean": lambda v: isinstance(v, bool),
    "integer": _is_integer,
    "number": _is_number,
    "string": lambda v: isinstance(v, str),
    "array": lambda v: isinstance(v, list),
    "object": lambda v: isinstance(v, dict),
}


def compile_schema(schema: Any) -> Check | None:
    """The compiled check of `schema` (a whole document), or None when it is unsupported."""
    try:
        if isinstance(schema, dict) and _nested_id(schema):
            raise Unsupported("a nested $id changes the base of references")
        return _Compiler(schema).build(schema, root=True)
    except Unsupported:
        return None


def _nested_id(schema: dict[str, Any]) -> bool:
    """True when a subschema below the root carries `$id` (a value named `$id` inside
    `properties` is a property name, but counting it too only makes the check stricter)."""
    stack: list[Any] = [v for k, v in schema.items() if k != "$id"]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if "$id" in node:
                return True
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return False


class _Compiler:
    def __init__(self, root: Any) -> None:
        self.root = root
        self.refs: dict[str, Check] = {}

    def ref(self, target: str) -> Check:
        if target in self.refs:
            return self.refs[target]
        if not target.startswith("#") or "%" in target or (target != "#"
                                                          and not target.startswith("#/")):
            raise Unsupported(target)
        node = self.root
        for part in target[2:].split("/") if target != "#" else ():
            part = part.replace("~1", "/").replace("~0", "~")
            if isinstance(node, dict) and part in node:
                node = node[part]
            elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
                node = node[int(part)]
            else:
                raise Unsupported(target)
        cell: list[Check] = []
        self.refs[target] = lambda v: cell[0](v)  # a cycle resolves through the cell
        cell.append(self.build(node))
        return self.refs[target]

    def build(self, schema: Any, root: bool = False) -> Check:
        if schema is True:
            return lambda v: True
        if schema is False:
            return lambda v: False
        if not isinstance(schema, dict):
            raise Unsupported("schema is not an object")
        unknown = set(schema) - _SUPPORTED
        if unknown or ("$id" in schema and not root):
            raise Unsupported(str(sorted(unknown)))
        checks: list[Check] = []
        for key, value in schema.items():
            make = getattr(self, "k_" + key.lstrip("$"), None)
            if make is not None:
                checks.extend(make(value, schema))
        if not checks:
            return lambda v: True
        if len(checks) == 1:
            return checks[0]
        all_checks = tuple(checks)

        def every(v: Any) -> bool:
            for check in all_checks:  # noqa: SIM110 (a loop: cheaper than all() on a generator)
                if not check(v):
                    return False
            return True

        return every

    # --- keywords: each returns the checks it adds ---------------------------------------

    def k_ref(self, target: Any, _: dict[str, Any]) -> list[Check]:
        if not isinstance(target, str):
            raise Unsupported("$ref")
        return [self.ref(target)]

    def k_type(self, kind: Any, _: dict[str, Any]) -> list[Check]:
        kinds = [kind] if isinstance(kind, str) else kind
        if not isinstance(kinds, list) or not all(k in _TYPES for k in kinds):
            raise Unsupported("type")
        tests = [_TYPES[k] for k in kinds]
        if len(tests) == 1:
            return [tests[0]]
        return [lambda v: any(test(v) for test in tests)]

    def k_enum(self, options: Any, _: dict[str, Any]) -> list[Check]:
        if not isinstance(options, list):
            raise Unsupported("enum")
        return [lambda v: any(equal(option, v) for option in options)]

    def k_const(self, const: Any, _: dict[str, Any]) -> list[Check]:
        return [lambda v: equal(v, const)]

    def k_properties(self, props: Any, _: dict[str, Any]) -> list[Check]:
        if not isinstance(props, dict):
            raise Unsupported("properties")
        pairs = [(name, self.build(sub)) for name, sub in props.items()]
        table = dict(pairs)

        def check(v: Any) -> bool:
            if not isinstance(v, dict):
                return True
            if len(v) < len(pairs):  # walk the shorter side
                for key, value in v.items():
                    sub = table.get(key)
                    if sub is not None and not sub(value):
                        return False
                return True
            for name, sub in pairs:  # noqa: SIM110 (a loop, as above)
                if name in v and not sub(v[name]):
                    return False
            return True

        return [check]

    def k_patternProperties(self, props: Any, _: dict[str, Any]) -> list[Check]:
        if not isinstance(props, dict):
            raise Unsupported("patternProperties")
        pairs = [(re.compile(p), self.build(sub)) for p, sub in props.items()]

        def check(v: Any) -> bool:
            if not isinstance(v, dict):
                return True
            return all(sub(value) for key, value in v.items() for rx, sub in pairs
                       if rx.search(key))

        return [check]

    def k_additionalProperties(self, extra: Any, schema: dict[str, Any]) -> list[Check]:
        known = frozenset(schema.get("properties", {}))
        patterns = [re.compile(p) for p in schema.get("patternProperties", {})]
        if extra is False and not patterns:
            def closed(v: Any) -> bool:
                return not isinstance(v, dict) or known.issuperset(v)

            return [closed]
        sub = self.build(extra)

        def check(v: Any) -> bool:
            if not isinstance(v, dict):
                return True
            for key, value in v.items():
                if key in known or any(rx.search(key) for rx in patterns):
                    continue
                if not sub(value):
                    return False
            return True

        return [check]

    def k_required(self, names: Any, _: dict[str, Any]) -> list[Check]:
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise Unsupported("required")
        need = frozenset(names)  # a set test in C, not a generator (issue 40)
        return [lambda v: not isinstance(v, dict) or need <= v.keys()]

    def k_minProperties(self, n: Any, _: dict[str, Any]) -> list[Check]:
        return [lambda v: not isinstance(v, dict) or len(v) >= n]

    def k_maxProperties(self, n: Any, _: dict[str, Any]) -> list[Check]:
        return [lambda v: not isinstance(v, dict) or len(v) <= n]

    def k_propertyNames(self, names: Any, _: dict[str, Any]) -> list[Check]:
        sub = self.build(names)
        return [lambda v: not isinstance(v, dict) or all(sub(key) for key in v)]

    def k_dependentRequired(self, deps: Any, _: dict[str, Any]) -> list[Check]:
        if not isinstance(deps, dict):
            raise Unsupported("dependentRequired")
        pairs = list(deps.items())
        return [lambda v: not isinstance(v, dict) or all(
            each in v for name, need in pairs if name in v for each in need)]

    def k_prefixItems(self, subs: Any, _: dict[str, Any]) -> list[Check]:
        if not isinstance(subs, list):
            raise Unsupported("prefixItems")
        checks = [self.build(sub) for sub in subs]
        return [lambda v: not isinstance(v, list) or all(
            check(item) for check, item in zip(checks, v, strict=False))]

    def k_items(self, items: Any, schema: dict[str, Any]) -> list[Check]:
        if isinstance(items, list):
            raise Unsupported("items as an array")
        prefix = len(schema.get("prefixItems", []))
        sub = self.build(items)

        def check(v: Any) -> bool:
            if not isinstance(v, list):
                return True
            for item in v[prefix:] if prefix else v:  # noqa: SIM110 (a loop, as above)
                if not sub(item):
                    return False
            return True

        return [check]

    def k_minItems(self, n: Any, _: dict[str, Any]) -> list[Check]:
        return [lambda v: not isinstance(v, list) or len(v) >= n]

    def k_maxItems(self, n: Any, _: dict[str, Any]) -> list[Check]:
        return [lambda v: not isinstance(v, list) or len(v) <= n]

    def k_uniqueItems(self, on: Any, _: dict[str, Any]) -> list[Check]:
        return [lambda v: not on or not isinstance(v, list) or uniq(v)]

    def k_minimum(self, n: Any, _: dict[str, Any]) -> list[Check]:
        return [lambda v: not _is_number(v) or not v < n]

    def k_maximum(self, n: Any, _: dict[str, Any]) -> list[Check]:
        return [lambda v: not _is_number(v) or not v > n]

    def k_exclusiveMinimum(self, n: Any, _: dict[str, Any]) -> list[Check]:
        return [lambda v: not _is_number(v) or not v <= n]

    def k_exclusiveMaximum(self, n: Any, _: dict[str, Any]) -> list[Check]:
        return [lambda v: not _is_number(v) or not v >= n]

    def k_minLength(self, n: Any, _: dict[str, Any]) -> list[Check]:
        return [lambda v: not isinstance(v, str) or len(v) >= n]

    def k_maxLength(self, n: Any, _: dict[str, Any]) -> list[Check]:
        return [lambda v: not isinstance(v, str) or len(v) <= n]

    def k_pattern(self, pattern: Any, _: dict[str, Any]) -> list[Check]:
        rx = re.compile(pattern)
        return [lambda v: not isinstance(v, str) or rx.search(v) is not None]

    def k_allOf(self, subs: Any, _: dict[str, Any]) -> list[Check]:
        return [self.build(sub) for sub in self._list(subs, "allOf")]

    def k_anyOf(self, subs: Any, _: dict[str, Any]) -> list[Check]:
        checks = [self.build(sub) for sub in self._list(subs, "anyOf")]
        return [lambda v: any(check(v) for check in checks)]

    def k_oneOf(self, subs: Any, _: dict[str, Any]) -> list[Check]:
        checks = [self.build(sub) for sub in self._list(subs, "oneOf")]
        return [lambda v: sum(1 for check in checks if check(v)) == 1]

    def k_not(self, sub: Any, _: dict[str, Any]) -> list[Check]:
        check = self.build(sub)
        return [lambda v: not check(v)]

    def k_if(self, sub: Any, schema: dict[str, Any]) -> list[Check]:
        test = self.build(sub)
        then = self.build(schema.get("then", True))
        other = self.build(schema.get("else", True))
        return [lambda v: then(v) if test(v) else other(v)]

    @staticmethod
    def _list(subs: Any, keyword: str) -> list[Any]:
        if not isinstance(subs, list) or not subs:
            raise Unsupported(keyword)
        return subs
