"""Broken ports of the BM25 leg's first pass (issue 24), registered on import.

Each is a plausible mistake in the scripted index that executes expressions with FTS5
(spec/backends.md BACKEND-42).
"""

from __future__ import annotations

from typing import Any

from conformance.selftest.mutants import _mod, mutant, set_attr, swap
from reference.types import Candidate


@mutant(
    "scripted-fts5-ignored",
    "BACKEND-42",
    "bm25.fts5 is validated but never executes: unscripted expressions still have zero hits",
)
def _scripted_fts5_ignored() -> None:
    scripted = _mod("reference.backends.scripted")
    original = scripted.ScriptedIndex.search_bm25

    def search_bm25(self: Any, expression: str, limit: int) -> list[Candidate]:
        self.fts = None
        result: list[Candidate] = original(self, expression, limit)
        return result

    set_attr(scripted.ScriptedIndex, "search_bm25", search_bm25)


@mutant(
    "scripted-fts5-before-keys",
    "BACKEND-42",
    "with bm25.fts5 every expression is executed, scripted responses and errors are ignored",
)
def _scripted_fts5_before_keys() -> None:
    scripted = _mod("reference.backends.scripted")
    original = scripted.ScriptedIndex.search_bm25

    def search_bm25(self: Any, expression: str, limit: int) -> list[Candidate]:
        if self.fts is not None:
            self.calls.append(expression)
            hits: list[Candidate] = self.fts.search_bm25(expression, limit)
            return hits
        result: list[Candidate] = original(self, expression, limit)
        return result

    set_attr(scripted.ScriptedIndex, "search_bm25", search_bm25)


@mutant(
    "scripted-fts5-whenever-chunks",
    "BACKEND-42",
    "the chunks are executed with FTS5 whenever they are given, bm25.fts5 or not",
)
def _scripted_fts5_whenever_chunks() -> None:
    scripted = _mod("reference.backends.scripted")
    original = scripted._index

    def index(raw: Any, chunks: list[Candidate] | None) -> Any:
        built = original(raw, chunks)
        if chunks is not None and built.fts is None and len({c.id for c in chunks}) == len(chunks):
            built.fts = scripted._fts_index(chunks)
        return built

    swap(scripted, "_index", index)
