"""Compile DSL tokens to an FTS5 MATCH expression (spec/query-dsl.md DSL-16..DSL-19).

Every token becomes a quoted FTS5 string, so no user input can reach FTS5 as syntax; NOT is
FTS5's binary operator (`a NOT b`), never `AND NOT`, which FTS5 rejects.
"""

from __future__ import annotations

from collections.abc import Iterable

from reference.query.parse import ParsedQuery, Token

DEFAULT_OPERATOR = "OR"


def fts_quote(text: str) -> str:
    """DSL-16: an FTS5 string literal: wrapped in `"`, each inner `"` doubled."""
    return '"' + text.replace('"', '""') + '"'


def render_token(token: Token) -> str:
    """DSL-16: `"t"` for a term or phrase, `"t"*` for a prefix."""
    if token.kind in ("term", "phrase"):
        return fts_quote(token.text)
    if token.kind == "prefix":
        return fts_quote(token.text) + "*"
    raise ValueError(f"unknown token kind {token.kind!r}")


def join_tokens(tokens: Iterable[Token]) -> str:
    """DSL-17: the first token bare, each later one preceded by its operator (default OR)."""
    pieces: list[str] = []
    for token in tokens:
        if pieces:
            pieces.append(token.operator or DEFAULT_OPERATOR)
        pieces.append(render_token(token))
    return " ".join(pieces)


def compile_query(parsed: ParsedQuery) -> str:
    """DSL-16..DSL-18: the FTS5 expression of a parsed query; "" when it has no tokens."""
    return join_tokens(parsed.tokens)
