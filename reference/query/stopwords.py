"""Stopwords of the query DSL (spec/query-dsl.md DSL-10, DSL-11, DSL-22).

Two named lists: `anchor` (the default, the anchor's canonical lists verbatim) and `hrc-1.0`
(the lists of hrc 1.0.0). Each comes from its own spec/data file, loaded through
reference.data so that a missing file fails loudly instead of silently turning filtering off.
"""

from __future__ import annotations

from functools import cache

from reference import text
from reference.data import SpecDataError, load_json
from reference.types import InvalidInput

DEFAULT_LIST = "anchor"
#: DSL-22: list name -> spec/data file.
LIST_FILES: dict[str, str] = {
    "anchor": "stopwords-anchor.json",
    "hrc-1.0": "stopwords-hrc-1.0.json",
}
MAX_SHORT_LENGTH = 2
#: DSL-9: lowercase operator words, natural-language filler in a bare query (the anchor).
FILLER_WORDS = frozenset({"and", "or", "not"})


def check_list(name: object) -> str:
    """DSL-22: a stopword list name; absent (None) is the default, anything unknown is invalid."""
    if name is None:
        return DEFAULT_LIST
    if not isinstance(name, str) or name not in LIST_FILES:
        raise InvalidInput(
            f"stopwordList must be one of {sorted(LIST_FILES)}, got {name!r}"
        )
    return name


@cache
def stopword_set(name: str = DEFAULT_LIST) -> frozenset[str]:
    """DSL-11: the union of the `en` and `nl` lists of the named list's data file."""
    filename = LIST_FILES[name]
    doc = load_json(filename)
    if not isinstance(doc, dict):
        raise SpecDataError(f"{filename} must hold a JSON object")
    words: set[str] = set()
    for lang in ("en", "nl"):
        items = doc.get(lang)
        if not isinstance(items, list) or not items or not all(isinstance(w, str) for w in items):
            raise SpecDataError(f"{filename}: {lang!r} must be a non-empty list of strings")
        words.update(items)
    return frozenset(words)


def is_filtered(word: str, stopword_list: str = DEFAULT_LIST) -> bool:
    """DSL-9, DSL-20: dropped by stopword filtering: a filler word or a stopword (DSL-10)."""
    return word in FILLER_WORDS or is_stopword(word, stopword_list)


def is_stopword(word: str, stopword_list: str = DEFAULT_LIST) -> bool:
    """DSL-10: at most 2 code points (TEXT-8) or listed; compared as given, never folded."""
    return text.length(word) <= MAX_SHORT_LENGTH or word in stopword_set(stopword_list)
