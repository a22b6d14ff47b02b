"""Mode resolution: requested mode + embedder availability -> effective mode (MODE-1..3)."""

from __future__ import annotations

from dataclasses import dataclass

MODES = ("bm25", "semantic", "hybrid", "auto")


@dataclass(frozen=True)
class ResolvedMode:
    """The effective mode and whether the request fell back to BM25 for want of an embedder."""

    effective: str
    fell_back_to_bm25: bool

    @property
    def runs_bm25(self) -> bool:
        """MODE-4, MODE-5: the BM25 leg (and ladder) runs in bm25 and hybrid only."""
        return self.effective in ("bm25", "hybrid")

    @property
    def runs_vector(self) -> bool:
        """MODE-4: the vector leg runs in semantic and hybrid."""
        return self.effective in ("semantic", "hybrid")


def resolve_mode(requested: str, has_embedder: bool) -> ResolvedMode:
    """MODE-1..3: `auto` picks hybrid or bm25 silently; hybrid/semantic fall back and say so."""
    if requested == "auto":
        return ResolvedMode("hybrid" if has_embedder else "bm25", False)
    if requested in ("hybrid", "semantic"):
        if has_embedder:
            return ResolvedMode(requested, False)
        return ResolvedMode("bm25", True)
    if requested == "bm25":
        return ResolvedMode("bm25", False)
    raise ValueError(f"unknown mode {requested!r}")
