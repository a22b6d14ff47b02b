"""The three backend protocols the pipeline calls (spec/backends.md, spec/pipeline.md PIPE-3)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from reference.types import Candidate


class Index(Protocol):
    """Full-text index: answers a compiled FTS5 expression with hits, best first."""

    def search_bm25(self, expression: str, limit: int) -> list[Candidate]:
        """Return at most `limit` hits; raise reference.types.IndexError_ on a backend error."""
        ...

    def chunks(self) -> Sequence[Candidate] | None:
        """Every indexed chunk (for the trigram rung), or None when the index cannot list them."""
        ...


class VectorStore(Protocol):
    """Vector leg: nearest chunks to a query vector, best first."""

    def search_vector(self, vector: Sequence[float], limit: int) -> list[Candidate]:
        """Return at most `limit` hits; raise reference.types.IndexError_ on failure."""
        ...


class Embedder(Protocol):
    """Turns text into a vector."""

    name: str

    def embed(self, text: str) -> list[float]:
        ...


@dataclass(frozen=True)
class RerankEntry:
    """One entry a reranker returned: an id and its relevance score (RERANK-*)."""

    id: str
    score: float


class Reranker(Protocol):
    """Scores (query, candidate) pairs; may misbehave (omit, invent, repeat ids) or raise."""

    name: str

    def rerank(self, query: str, head: Sequence[Candidate]) -> list[RerankEntry]:
        ...
