"""Stopwords of the query DSL (spec/query-dsl.md DSL-10, DSL-11).

The lists come from spec/data/stopwords.json, loaded through reference.data so that a missing
file fails loudly instead of silently turning filtering off.
"""

from __future__ import annotations

from functools import cache

from reference import text
from reference.data import SpecDataError, load_json

STOPWORDS_FILE = "stopwords.json"
MAX_SHORT_LENGTH = 2


@cache
def stopword_set() -> frozenset[str]:
    """DSL-11: the union of the `en` and `nl` lists of spec/data/stopwords.json."""
    doc = load_json(STOPWORDS_FILE)
    if not isinstance(doc, dict):
        raise SpecDataError(f"{STOPWORDS_FILE} must hold a JSON object")
    words: set[str] = set()
    for lang in ("en", "nl"):
        items = doc.get(lang)
        if not isinstance(items, list) or not items or not all(isinstance(w, str) for w in items):
            raise SpecDataError(f"{STOPWORDS_FILE}: {lang!r} must be a non-empty list of strings")
        words.update(items)
    return frozenset(words)


def is_stopword(word: str) -> bool:
    """DSL-10: at most 2 code points (TEXT-8) or listed; compared as given, never folded."""
    return text.length(word) <= MAX_SHORT_LENGTH or word in stopword_set()
