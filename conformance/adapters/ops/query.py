"""Reference handlers of the query operations: parse, compile, stopwords, sanitise (DSL-*)."""

from __future__ import annotations

from typing import Any

from conformance.adapters.ops import JSON, operation
from reference import query
from reference.query.stopwords import check_list
from reference.types import InvalidInput


def _query(inp: JSON) -> str:
    value: Any = inp.get("query")
    if not isinstance(value, str):
        raise InvalidInput("query must be a string")
    return value


def _aliases(inp: JSON) -> dict[str, list[str]]:
    return query.validate_aliases(inp.get("aliases"))


def _list(inp: JSON) -> str:
    """DSL-22: the optional `stopwordList` (absent or null: `anchor`)."""
    return check_list(inp.get("stopwordList"))


@operation("parse")
def op_parse(inp: JSON) -> JSON:
    return query.parse(_query(inp), _aliases(inp), _list(inp)).to_json()


@operation("compile")
def op_compile(inp: JSON) -> JSON:
    parsed = query.parse(_query(inp), _aliases(inp), _list(inp))
    return {"expression": query.compile_query(parsed)}


@operation("stopwords")
def op_stopwords(inp: JSON) -> JSON:
    words: Any = inp.get("words")
    if not isinstance(words, list) or not all(isinstance(w, str) for w in words):
        raise InvalidInput("words must be a list of strings")
    sw = _list(inp)
    return {"stopword": [query.is_stopword(w, sw) for w in words]}


@operation("sanitise")
def op_sanitise(inp: JSON) -> JSON:
    result = query.sanitise(_query(inp), _aliases(inp), _list(inp))
    return {"tokens": list(result.tokens), "expression": result.expression}
