"""The strongest term of a query, used by two ladder rungs (spec/ladder.md, LADDER-8).

Length only (code points, TEXT-8), leftmost on ties (TEXT-10): frequency signals would need
corpus statistics that a trace cannot replay (D17).
"""

from __future__ import annotations

from collections.abc import Sequence

from reference.query import is_stopword
from reference.query.stopwords import DEFAULT_LIST
from reference.text import length


def strongest_term(words: Sequence[str], stopword_list: str = DEFAULT_LIST) -> str:
    """LADDER-8: the longest non-stopword by code points, the leftmost on ties; "" if none.

    Stopwords are those of the named list (DSL-22).
    """
    best = ""
    best_len = 0
    for word in words:
        if is_stopword(word, stopword_list):
            continue
        size = length(word)
        if size > best_len:  # strict: an equal length later never replaces the leftmost
            best, best_len = word, size
    return best
