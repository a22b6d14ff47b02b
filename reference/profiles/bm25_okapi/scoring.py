"""Okapi BM25 with stated parameters: the pure scoring function (spec/profiles/bm25-okapi.md).

Every float is produced by the operation sequence OKAPI-4..OKAPI-8 give, each rounded once
(TEXT-11), so the scores are bit-identical in every port. Collection statistics come from a
`Collection` (in memory for the operation, SQLite tables for the index, OKAPI-10).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from reference.profiles.bm25_okapi.okapi_ln import okapi_ln
from reference.text import sort_codepoint, words
from reference.types import InvalidInput

#: OKAPI-3: the defaults (seed 002) and the accepted ranges.
DEFAULT_K1 = 1.5
DEFAULT_B = 0.75
MAX_K1 = 1000.0


@dataclass(frozen=True)
class Params:
    """k1 and b (OKAPI-3)."""

    k1: float = DEFAULT_K1
    b: float = DEFAULT_B


def check_params(k1: object, b: object) -> Params:
    """OKAPI-3: k1 a finite number in [0, 1000], b a number in [0, 1]; None means default."""
    out = []
    for name, value, default, top in (("k1", k1, DEFAULT_K1, MAX_K1), ("b", b, DEFAULT_B, 1.0)):
        if value is None:
            out.append(default)
            continue
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise InvalidInput(f"{name} must be a number, got {value!r}")
        number = float(value)
        if not math.isfinite(number) or number < 0.0 or number > top:
            raise InvalidInput(f"{name} must be a number in [0, {top:g}], got {value!r}")
        out.append(number)
    return Params(k1=out[0], b=out[1])


def query_terms(query: str) -> list[str]:
    """OKAPI-2: the distinct words (TEXT-7) of the query, in code point order (TEXT-9)."""
    return sort_codepoint(list(set(words(query))))


def idf(document_count: int, df: int) -> float:
    """OKAPI-4, OKAPI-5: ln(1 + (N − n + 0.5) / (n + 0.5)), never negative; needs 1 <= n <= N."""
    if not 1 <= df <= document_count:
        raise ValueError(f"idf needs 1 <= n <= N, got n={df}, N={document_count}")
    numerator = float(document_count - df) + 0.5
    denominator = float(df) + 0.5
    return okapi_ln(1.0 + (numerator / denominator))


def average_length(total_length: int, document_count: int) -> float | None:
    """OKAPI-6: avgdl = total tokens / N (one division of two exact integers); None if N = 0."""
    if document_count == 0:
        return None
    return float(total_length) / float(document_count)


def term_weight(term_idf: float, tf: int, dl: int, avgdl: float, params: Params) -> float:
    """OKAPI-7: the seed's `idf × (tf × (k1+1)) / (tf + k1 × (1 − b + b × dl/avgdl))`.

    Read left to right as C, Python, JavaScript and Go parse it, each step rounded once, in
    this order; the product k1 × base is rounded before the sum, never fused (OKAPI-10).
    """
    ftf = float(tf)
    scaled = (params.b * float(dl)) / avgdl
    base = (1.0 - params.b) + scaled
    damp = params.k1 * base
    denominator = ftf + damp
    numerator = ftf * (params.k1 + 1.0)
    return (term_idf * numerator) / denominator


def document_score(weights: Sequence[float]) -> float:
    """OKAPI-8: the term weights summed left to right, terms in code point order."""
    total = 0.0
    for w in weights:
        total = total + w
    return total


@dataclass(frozen=True)
class Scored:
    """One ranked document (OKAPI-9)."""

    id: str
    path: str
    score: float


def rank(items: Iterable[Scored]) -> list[Scored]:
    """OKAPI-9: score descending, then path, then id, both by code point (TEXT-9)."""
    return sorted(items, key=lambda s: (-s.score, s.path, s.id))


@dataclass(frozen=True)
class Document:
    """A document to score: its id, path and content (only the content is scored, OKAPI-1)."""

    id: str
    path: str
    content: str


@dataclass(frozen=True)
class TermStat:
    """A query term, its document frequency n(t) and its IDF (0 <= n; idf None when n = 0)."""

    term: str
    df: int
    idf: float | None


@dataclass(frozen=True)
class Outcome:
    """What `bm25-okapi.score` answers (OKAPI-11)."""

    document_count: int
    average_length: float | None
    terms: list[TermStat]
    results: list[Scored]


def term_stats(terms: Sequence[str], df: Mapping[str, int], document_count: int) -> list[TermStat]:
    """OKAPI-4: each query term with n(t) and its IDF (None for a term in no document)."""
    return [
        TermStat(t, df.get(t, 0), idf(document_count, df[t]) if df.get(t, 0) else None)
        for t in terms
    ]


def score_documents(documents: Sequence[Document], query: str, params: Params) -> Outcome:
    """OKAPI-1..9 over an in-memory collection: every document with a query term, ranked."""
    bags = [Counter(words(d.content)) for d in documents]
    lengths = [sum(bag.values()) for bag in bags]
    count = len(documents)
    avgdl = average_length(sum(lengths), count)
    terms = query_terms(query)
    df = {t: sum(1 for bag in bags if t in bag) for t in terms}
    stats = term_stats(terms, df, count)
    scored: list[Scored] = []
    for doc, bag, dl in zip(documents, bags, lengths, strict=True):
        weights = [
            term_weight(s.idf, bag[s.term], dl, avgdl, params)
            for s in stats
            if s.idf is not None and avgdl is not None and bag[s.term] > 0
        ]
        if weights:
            scored.append(Scored(doc.id, doc.path, document_score(weights)))
    return Outcome(count, avgdl, stats, rank(scored))
