"""Collections Okapi BM25 scores against, in memory or SQLite (the benchmark's, OKAPI-1..9)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from reference.profiles.bm25_okapi.scoring import (
    Document,
    Params,
    TermStat,
    average_length,
    document_score,
    query_terms,
    term_stats,
    term_weight,
)
from reference.text import words


@dataclass(frozen=True)
class Statistics:
    """N, avgdl and the query terms' document frequencies and IDFs (OKAPI-4, OKAPI-6)."""

    document_count: int
    average_length: float | None
    terms: list[TermStat]


class Collection(Protocol):
    """What scoring needs of a collection: its statistics and the scores of some ids."""

    def document_count(self) -> int: ...

    def statistics(self, query: str) -> Statistics: ...

    def score_ids(self, query: str, ids: Sequence[str], params: Params) -> dict[str, float]: ...


class MemoryCollection:
    """A collection given as documents (the scripted `backends.profiles.bm25-okapi`)."""

    def __init__(self, documents: Sequence[Document]) -> None:
        self._bags = {d.id: Counter(words(d.content)) for d in documents}
        self._lengths = {cid: sum(bag.values()) for cid, bag in self._bags.items()}

    def document_count(self) -> int:
        return len(self._bags)

    def statistics(self, query: str) -> Statistics:
        terms = query_terms(query)
        df = {t: sum(1 for bag in self._bags.values() if t in bag) for t in terms}
        count = len(self._bags)
        return Statistics(
            count, average_length(sum(self._lengths.values()), count), term_stats(terms, df, count)
        )

    def score_ids(self, query: str, ids: Sequence[str], params: Params) -> dict[str, float]:
        stats = self.statistics(query)
        avgdl = stats.average_length
        out: dict[str, float] = {}
        for cid in ids:
            bag = self._bags.get(cid)
            weights = (
                [
                    term_weight(t.idf, bag[t.term], self._lengths[cid], avgdl, params)
                    for t in stats.terms
                    if t.idf is not None and bag[t.term] > 0
                ]
                if bag is not None and avgdl is not None
                else []
            )
            out[cid] = document_score(weights) if weights else 0.0
        return out
