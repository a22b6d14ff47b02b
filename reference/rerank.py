"""Tail-preserving rerank with fault handling (spec/rerank.md, RERANK-*; decision D10).

Whatever the reranker returns, the output is a permutation of the fused list: invented and
repeated ids are dropped and reported, omitted head ids are backfilled, the tail is untouched.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from reference.backends.protocols import RerankEntry
from reference.rrf import Fused
from reference.types import InvalidInput, whole_number

DEFAULT_TOP_N = 20
RERANKED = "reranked"
FAILED = "failed"
DISABLED = "disabled"
NO_RERANKER = "no_reranker"
EMPTY = "empty"
UNANIMITY = "unanimity"
ERROR_KIND = "reranker_error"
NON_FINITE_MESSAGE = "non-finite score"


@dataclass(frozen=True)
class RerankOutcome:
    """The list after the rerank stage and what happened (RERANK-6..RERANK-12).

    `rerank_scores` maps every item's id to its rerank score; None means not reranked.
    """

    items: list[Fused]
    rerank_scores: dict[str, float | None]
    outcome: str
    provider: str | None
    sent: tuple[str, ...] = ()
    missing: tuple[str, ...] = ()
    invented: tuple[str, ...] = ()
    duplicates: tuple[str, ...] = ()
    error: str | None = None

    def report(self) -> dict[str, Any]:
        """RERANK-12: the report as the `rerank` op and the trace emit it."""
        return {
            "outcome": self.outcome,
            "provider": self.provider,
            "sent": list(self.sent),
            "missing": list(self.missing),
            "invented": list(self.invented),
            "duplicates": list(self.duplicates),
            "error": None if self.error is None else {"kind": ERROR_KIND, "message": self.error},
        }


def check_top_n(value: object) -> int:
    """RERANK-1: a number <= 0 means the default 20 (PIPE-13); otherwise a whole number >= 1
    (20.0 is the same as 20, OP-4)."""
    if not isinstance(value, bool) and isinstance(value, int | float) and value <= 0:
        return DEFAULT_TOP_N
    return whole_number(value, "rerankTopN")


def split(fused: Sequence[Fused], top_n: int) -> tuple[list[Fused], list[Fused]]:
    """RERANK-1: head = the first top_n fused items (all when fewer), tail = the rest."""
    return list(fused[:top_n]), list(fused[top_n:])


def skip_before_unanimity(enabled: bool, has_reranker: bool, fused_count: int) -> str | None:
    """RERANK-10: disabled, then no_reranker, then empty; None means check unanimity next."""
    if not enabled:
        return DISABLED
    if not has_reranker:
        return NO_RERANKER
    if fused_count == 0:
        return EMPTY
    return None


def _no_scores(fused: Sequence[Fused]) -> dict[str, float | None]:
    return {item.id: None for item in fused}


def skipped(fused: Sequence[Fused], outcome: str, provider: str | None) -> RerankOutcome:
    """RERANK-10: a skipped stage keeps the fused order, with no rerank scores."""
    return RerankOutcome(list(fused), _no_scores(fused), outcome, provider)


def _failed(
    fused: Sequence[Fused], sent: tuple[str, ...], provider: str, msg: str
) -> RerankOutcome:
    """RERANK-8: fused order kept, no rerank scores, the error reported."""
    return RerankOutcome(list(fused), _no_scores(fused), FAILED, provider, sent, error=msg)


def rerank_head(
    fused: Sequence[Fused],
    top_n: int,
    entries: Sequence[RerankEntry] | None,
    error: str | None,
    provider: str,
) -> RerankOutcome:
    """RERANK-1..RERANK-9: apply a reranker's response (or error) to the head; keep the tail."""
    top_n = check_top_n(top_n)
    head, tail = split(fused, top_n)
    sent = tuple(item.id for item in head)
    if error is not None:
        return _failed(fused, sent, provider, error)
    if entries is None:
        raise InvalidInput("a reranker response needs entries or an error")
    if any(not math.isfinite(e.score) for e in entries):
        return _failed(fused, sent, provider, NON_FINITE_MESSAGE)
    position = {item.id: i for i, item in enumerate(head)}
    accepted: dict[str, float] = {}
    invented: list[str] = []
    duplicates: list[str] = []
    for entry in entries:
        if entry.id not in position:
            invented.append(entry.id)
        elif entry.id in accepted:
            duplicates.append(entry.id)
        else:
            accepted[entry.id] = entry.score
    ranked = sorted(accepted, key=lambda i: (-accepted[i], position[i]))
    missing = [item.id for item in head if item.id not in accepted]
    order = [head[position[i]] for i in ranked] + [head[position[i]] for i in missing]
    scores: dict[str, float | None] = {i: accepted[i] for i in ranked}
    scores.update({item.id: None for item in [*(head[position[i]] for i in missing), *tail]})
    return RerankOutcome(
        items=order + tail,
        rerank_scores=scores,
        outcome=RERANKED,
        provider=provider,
        sent=sent,
        missing=tuple(missing),
        invented=tuple(invented),
        duplicates=tuple(duplicates),
    )
