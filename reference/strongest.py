"""The strongest term of a query, used by two ladder rungs (spec/ladder.md, LADDER-8).

Length only (code points, TEXT-8), leftmost on ties (TEXT-10): frequency signals would need
corpus statistics that a trace cannot replay (D17). Under the default list `anchor` the
stopwords are the ladder's own set, the anchor's `STOP_WORDS` (spec/data/stopwords-ladder.json).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from reference.data import SpecDataError, load_json
from reference.query import is_stopword
from reference.query.stopwords import DEFAULT_LIST
from reference.text import length

#: LADDER-8: the anchor's ladder stop-word set, verbatim.
LADDER_FILE = "stopwords-ladder.json"
#: LADDER-8: words of at most this many code points are never the strongest term.
MAX_SHORT_LENGTH = 2


@cache
def ladder_stopwords() -> frozenset[str]:
    """LADDER-8: the `words` of spec/data/stopwords-ladder.json; a missing file fails loudly."""
    doc = load_json(LADDER_FILE)
    words = doc.get("words") if isinstance(doc, dict) else None
    if not isinstance(words, list) or not words or not all(isinstance(w, str) for w in words):
        raise SpecDataError(f"{LADDER_FILE}: 'words' must be a non-empty list of strings")
    return frozenset(words)


def is_ladder_stopword(word: str, stopword_list: str = DEFAULT_LIST) -> bool:
    """LADDER-8: ignored by the strongest term: short, or in the named list's ladder words.

    Under `anchor` the ladder's own set (the anchor's STOP_WORDS); under `hrc-1.0` that list's
    DSL stopwords, as in hrc 1.0 (DSL-22).
    """
    if stopword_list != DEFAULT_LIST:
        return is_stopword(word, stopword_list)
    return length(word) <= MAX_SHORT_LENGTH or word in ladder_stopwords()


def strongest_term(words: Sequence[str], stopword_list: str = DEFAULT_LIST) -> str:
    """LADDER-8: the longest eligible word by code points, the leftmost on ties; "" if none."""
    best = ""
    best_len = 0
    for word in words:
        if is_ladder_stopword(word, stopword_list):
            continue
        size = length(word)
        if size > best_len:  # strict: an equal length later never replaces the leftmost
            best, best_len = word, size
    return best
