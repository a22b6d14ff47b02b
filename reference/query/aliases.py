"""Alias tables of the query DSL (spec/query-dsl.md DSL-12, DSL-14).

Validation folds keys and rejects tables whose meaning would depend on key order; turning an
alternative into a member is a pure function of its words (TEXT-7).
"""

from __future__ import annotations

from collections.abc import Mapping

from reference import text
from reference.types import InvalidInput


def validate_aliases(obj: object) -> dict[str, list[str]]:
    """DSL-12: check `obj` is an object of string -> list of strings; return it with folded keys.

    Raises InvalidInput for a wrong shape, a key that folds to "" or two keys that fold alike
    (which one wins would depend on the JSON parser's key order).
    """
    if obj is None:
        return {}
    if not isinstance(obj, Mapping):
        raise InvalidInput(f"aliases must be an object, got {type(obj).__name__}")
    table: dict[str, list[str]] = {}
    originals: dict[str, str] = {}
    for key, alternatives in obj.items():
        if not isinstance(key, str):
            raise InvalidInput(f"alias key must be a string, got {key!r}")
        if not isinstance(alternatives, list | tuple) or not all(
            isinstance(alt, str) for alt in alternatives
        ):
            raise InvalidInput(f"alias {key!r}: alternatives must be a list of strings")
        folded = text.fold(key)
        if folded == "":
            raise InvalidInput(f"alias key {key!r} is empty after folding")
        if folded in table:
            raise InvalidInput(
                f"alias keys {originals[folded]!r} and {key!r} both fold to {folded!r}"
            )
        originals[folded] = key
        table[folded] = [text.fold(alt) for alt in alternatives]
    return table


def alternative_member(alternative: str) -> tuple[str, str] | None:
    """DSL-14: (kind, text) of an alternative: one word -> term, more -> phrase, none -> None."""
    ws = text.words(alternative)
    if not ws:
        return None
    return ("term", ws[0]) if len(ws) == 1 else ("phrase", " ".join(ws))

