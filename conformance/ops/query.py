"""Reference handlers of the query operations: parse, compile, stopwords, sanitise (DSL-*)."""

from __future__ import annotations

from typing import Any

from conformance.ops import JSON, operation
from reference import query
from reference.types import InvalidInput


def _query(inp: JSON) -> str:
    value: Any = inp.get("query")
    if not isinstance(value, str):
        raise InvalidInput("query must be a string")
    return value


def _aliases(inp: JSON) -> dict[str, list[str]]:
    return query.validate_aliases(inp.get("aliases"))


@operation("parse")
def op_parse(inp: JSON) -> JSON:
    return query.parse(_query(inp), _aliases(inp)).to_json()


@operation("compile")
def op_compile(inp: JSON) -> JSON:
    return {"expression": query.compile_query(query.parse(_query(inp), _aliases(inp)))}


@operation("stopwords")
def op_stopwords(inp: JSON) -> JSON:
    words: Any = inp.get("words")
    if not isinstance(words, list) or not all(isinstance(w, str) for w in words):
        raise InvalidInput("words must be a list of strings")
    return {"stopword": [query.is_stopword(w) for w in words]}


@operation("sanitise")
def op_sanitise(inp: JSON) -> JSON:
    result = query.sanitise(_query(inp), _aliases(inp))
    return {"tokens": list(result.tokens), "expression": result.expression}
