"""The sanitised form of a query, read by the ladder's `refreshed_sanitised` rung (DSL-20, DSL-21).

Operator characters never survive: the words of the query (TEXT-7) lose every P∪S code point,
and AND/OR/NOT become filler words, dropped (DSL-20).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from reference import text
from reference.query.aliases import validate_aliases
from reference.query.compile import join_tokens
from reference.query.parse import expand_term
from reference.query.stopwords import DEFAULT_LIST, is_filtered


@dataclass(frozen=True)
class Sanitised:
    """DSL-20, DSL-21: the kept words (before alias expansion) and their OR expression."""

    tokens: tuple[str, ...]
    expression: str


def sanitise(
    query: str,
    aliases: Mapping[str, Sequence[str]] | None = None,
    stopword_list: str = DEFAULT_LIST,
) -> Sanitised:
    """DSL-20: words minus stopwords and filler; DSL-21: alias-expanded terms joined by OR.

    `stopword_list` names the list of DSL-22.
    """
    table = validate_aliases(aliases)
    kept = tuple(w for w in text.words(query) if not is_filtered(w, stopword_list))
    expression = join_tokens(t for w in kept for t in expand_term(w, None, table))
    return Sanitised(kept, expression)
