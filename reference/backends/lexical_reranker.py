"""The reference reranker `hrc-lexical-v1` (spec/backends.md BACKEND-33..35).

Score = share of the query's distinct non-stopword words found among the candidate's words.
Deterministic, model-free and exactly reproducible: one float division per candidate.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from reference.backends.protocols import RerankEntry
from reference.text import words
from reference.types import Candidate

NAME = "hrc-lexical-v1"


def _default_is_stopword(word: str) -> bool:
    # Imported here so the backend loads even while the query package is being built.
    from reference.query import is_stopword

    return is_stopword(word, "hrc-1.0")  # BACKEND-34: frozen with the reranker's name


def query_terms(query: str, is_stopword: Callable[[str], bool]) -> frozenset[str]:
    """BACKEND-34: Q, the set of words (TEXT-7) of the query that are not stopwords (DSL)."""
    return frozenset(w for w in words(query) if not is_stopword(w))


def candidate_terms(candidate: Candidate) -> frozenset[str]:
    """BACKEND-34: D, the union of the words of title, summary and content."""
    return frozenset(words(candidate.title) + words(candidate.summary) + words(candidate.content))


def overlap_score(q: frozenset[str], d: frozenset[str]) -> float:
    """BACKEND-35: float(|Q ∩ D|) / float(|Q|), one division; 0.0 when Q is empty."""
    if not q:
        return 0.0
    return float(len(q & d)) / float(len(q))


class LexicalReranker:
    """Reranker protocol: one RerankEntry per head item, in head order (BACKEND-33).

    `is_stopword` defaults to the DSL's `reference.query.is_stopword`; tests may inject one.
    """

    name: str = NAME

    def __init__(self, is_stopword: Callable[[str], bool] | None = None) -> None:
        self._is_stopword = is_stopword or _default_is_stopword

    def rerank(self, query: str, head: Sequence[Candidate]) -> list[RerankEntry]:
        q = query_terms(query, self._is_stopword)
        return [RerankEntry(c.id, overlap_score(q, candidate_terms(c))) for c in head]
