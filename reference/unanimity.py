"""The unanimity shortcut (spec/unanimity.md, UNAN-*).

The anchor's positional rule: with three entries in each leg, count the positions among the
first three where both legs hold the same id; two agreements skip the reranker.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

TOP = 3
MIN_AGREEMENTS = 2


@dataclass(frozen=True)
class UnanimityResult:
    """UNAN-2, UNAN-3: how many of the first three positions agree, and whether it fires."""

    agreements: int
    fired: bool


def check(bm25_ids: Sequence[str], vector_ids: Sequence[str]) -> UnanimityResult:
    """UNAN-2..UNAN-5: positions i < 3 with equal ids; nothing is compared for a short leg."""
    if len(bm25_ids) < TOP or len(vector_ids) < TOP:
        return UnanimityResult(agreements=0, fired=False)  # UNAN-4
    agreements = sum(1 for i in range(TOP) if bm25_ids[i] == vector_ids[i])
    return UnanimityResult(agreements=agreements, fired=agreements >= MIN_AGREEMENTS)
