"""The unanimity shortcut (spec/unanimity.md, UNAN-*; decision D9).

Set overlap of the two legs' top-3 ids, not positional agreement: the seed says the heads
"agree on two of their top three ids", which does not depend on their order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

TOP = 3
MIN_AGREEMENTS = 2


@dataclass(frozen=True)
class UnanimityResult:
    """UNAN-2, UNAN-3: how many top-3 ids the legs share, and whether the shortcut fires."""

    agreements: int
    fired: bool


def check(bm25_ids: Sequence[str], vector_ids: Sequence[str]) -> UnanimityResult:
    """UNAN-2..UNAN-5: overlap of both legs' first three entries; fires on >= 2 with >= 3 each."""
    agreements = len(set(bm25_ids[:TOP]) & set(vector_ids[:TOP]))
    fired = len(bm25_ids) >= TOP and len(vector_ids) >= TOP and agreements >= MIN_AGREEMENTS
    return UnanimityResult(agreements=agreements, fired=fired)
