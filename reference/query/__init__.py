"""The query DSL: parse, stopwords, aliases, compile to FTS5, sanitise (spec/query-dsl.md)."""

from __future__ import annotations

from reference.query.aliases import validate_aliases
from reference.query.compile import compile_query, fts_quote
from reference.query.parse import ParsedQuery, Token, parse
from reference.query.sanitise import Sanitised, sanitise
from reference.query.stopwords import is_stopword

__all__ = [
    "ParsedQuery",
    "Sanitised",
    "Token",
    "compile_query",
    "fts_quote",
    "is_stopword",
    "parse",
    "sanitise",
    "validate_aliases",
]
