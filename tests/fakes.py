"""Shared fakes of the reference's backends for the pipeline tests: each answers from a table
and records what it was asked (Bowtie's miniatures are the model)."""

from __future__ import annotations

from collections.abc import Sequence

from reference.backends.protocols import RerankEntry
from reference.types import Candidate, IndexError_


def c(cid: str) -> Candidate:
    return Candidate(id=cid, path=f"{cid}.md", content=f"text of {cid}")


class FakeIndex:
    """Answers per exact expression; records every call."""

    def __init__(self, answers: dict[str, list[Candidate]] | None = None,
                 errors: dict[str, str] | None = None) -> None:
        self.answers = answers or {}
        self.errors = errors or {}
        self.calls: list[tuple[str, int]] = []

    def search_bm25(self, expression: str, limit: int) -> list[Candidate]:
        self.calls.append((expression, limit))
        if expression in self.errors:
            raise IndexError_(self.errors[expression])
        return self.answers.get(expression, [])[:limit]

    def chunks(self) -> Sequence[Candidate] | None:
        return None


class FakeEmbedder:
    name = "fake"

    def __init__(self) -> None:
        self.seen: list[str] = []

    def embed(self, text: str) -> list[float]:
        self.seen.append(text)
        return [1.0]


class FakeVectors:
    def __init__(self, hits: list[Candidate], error: str | None = None) -> None:
        self.hits = hits
        self.error = error
        self.limits: list[int] = []

    def search_vector(self, vector: Sequence[float], limit: int) -> list[Candidate]:
        self.limits.append(limit)
        if self.error:
            raise IndexError_(self.error)
        return list(self.hits)


class FakeReranker:
    name = "fake-reranker"

    def __init__(self, scores: dict[str, float] | None = None, fail: bool = False) -> None:
        self.scores = scores or {}
        self.fail = fail
        self.heads: list[list[str]] = []

    def rerank(self, query: str, head: Sequence[Candidate]) -> list[RerankEntry]:
        self.heads.append([h.id for h in head])
        if self.fail:
            raise RuntimeError("boom")
        return [RerankEntry(h.id, self.scores[h.id]) for h in head if h.id in self.scores]


class FakeGraph:
    """A graph backend that records the queries and limits it was asked."""

    def __init__(self, hits: list[Candidate], error: str | None = None) -> None:
        self.hits, self.error = hits, error
        self.calls: list[tuple[str, int]] = []

    def search_graph(self, query: str, limit: int) -> list[Candidate]:
        self.calls.append((query, limit))
        if self.error is not None:
            raise IndexError_(self.error)
        return self.hits[:limit]
