"""The exact RRF of spec 1.0–2.0 before the fast path (Fraction per contribution), kept only as
a benchmark baseline and output oracle for benchmarks/rrf_speed.py. Not used by the kit.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from reference.rrf import RankedList
from reference.text import codepoint_key
from reference.types import Candidate, InvalidInput, whole_number

DEFAULT_K = 60
MAX_K = 2**31 - 1
TEXT_FIELDS = ("path", "title", "summary", "content")


@dataclass(frozen=True)
class Fused:
    """One fused candidate: merged fields (RRF-10), emitted float (RRF-7), exact value (RRF-6).

    `ranks` maps a list name to the candidate's 0-based rank in that list (RRF-2).
    """

    candidate: Candidate
    score: float
    exact: Fraction
    ranks: Mapping[str, int] = field(default_factory=dict)

    @property
    def id(self) -> str:
        return self.candidate.id


def check_k(k: object) -> int:
    """RRF-1: k is a whole number in [1, 2^31 − 1]; 60.0 is accepted as 60 (OP-4)."""
    value = whole_number(k, "k")
    if value > MAX_K:
        raise InvalidInput(f"k must be between 1 and {MAX_K}, got {k!r}")
    return value


def check_weight(weight: object) -> float:
    """RRF-3: a weight is a finite number >= 0."""
    if isinstance(weight, bool) or not isinstance(weight, int | float):
        raise InvalidInput(f"weight must be a number, got {weight!r}")
    value = float(weight)
    if not math.isfinite(value) or value < 0:
        raise InvalidInput(f"weight must be finite and >= 0, got {weight!r}")
    return value


def contribution(weight: float, k: int, rank: int) -> float:
    """RRF-7: one list's binary64 contribution, a single division w / (k + r + 1)."""
    return weight / float(k + rank + 1)


def exact_contribution(weight: float, k: int, rank: int) -> Fraction:
    """RRF-6: the exact contribution, using the exact rational value of the binary64 weight."""
    num, den = weight.as_integer_ratio()
    return Fraction(num, den * (k + rank + 1))


def canonical_sum(contributions: Sequence[float]) -> float:
    """RRF-7: sum from 0.0, left to right, over the contributions sorted by descending value."""
    total = 0.0
    for value in sorted(contributions, reverse=True):
        total += value
    return total


@dataclass
class _Bucket:
    ranks: dict[str, int] = field(default_factory=dict)
    floats: list[float] = field(default_factory=list)
    exact: Fraction = Fraction(0)
    occurrences: list[tuple[int, Candidate]] = field(default_factory=list)


def _best_value(values: Sequence[tuple[int, str]]) -> str:
    """RRF-10: the non-empty value of the lowest rank; equal ranks -> smallest by code point."""
    present = [(rank, codepoint_key(v), v) for rank, v in values if v != ""]
    if not present:
        return ""
    return min(present)[2]


def merge(occurrences: Sequence[tuple[int, Candidate]]) -> Candidate:
    """RRF-10: merge one id's occurrences (rank, candidate) field by field and key by key."""
    if len(occurrences) == 1:
        return occurrences[0][1]  # a single sighting is its own merge
    cid = occurrences[0][1].id
    texts = {
        name: _best_value([(rank, getattr(c, name)) for rank, c in occurrences])
        for name in TEXT_FIELDS
    }
    keys = sorted({key for _, c in occurrences for key in c.metadata}, key=codepoint_key)
    metadata = {
        key: _best_value([(rank, c.metadata[key]) for rank, c in occurrences if key in c.metadata])
        for key in keys
    }
    return Candidate(id=cid, metadata=metadata, **texts)


def sort_key(item: Fused) -> tuple[Fraction, str, str]:
    """RRF-6, RRF-8: exact score descending, then path, then id ascending by code point."""
    return (-item.exact, codepoint_key(item.candidate.path), codepoint_key(item.candidate.id))


def fuse(lists: Sequence[RankedList], k: int = DEFAULT_K) -> list[Fused]:
    """RRF-1..RRF-10: fuse ranked lists into one list in the canonical total order."""
    k = check_k(k)
    buckets: dict[str, _Bucket] = {}
    for ranked in lists:
        check_weight(ranked.weight)
        if any(cand.id == "" for cand in ranked.items):
            raise InvalidInput("candidate id must be a non-empty string")  # RRF-5
    for ranked in lists:
        weight = check_weight(ranked.weight)
        if weight == 0:
            continue  # RRF-3: a zero-weight list is ignored entirely.
        seen: set[str] = set()
        for rank, cand in enumerate(ranked.items):
            if cand.id in seen:
                continue  # RRF-4: only the first occurrence in a list counts.
            seen.add(cand.id)
            bucket = buckets.setdefault(cand.id, _Bucket())
            if ranked.name not in bucket.ranks or rank < bucket.ranks[ranked.name]:
                bucket.ranks[ranked.name] = rank
            bucket.floats.append(contribution(weight, k, rank))
            bucket.exact += exact_contribution(weight, k, rank)
            bucket.occurrences.append((rank, cand))
    fused = [
        Fused(
            candidate=merge(b.occurrences),
            score=canonical_sum(b.floats),
            exact=b.exact,
            ranks=dict(b.ranks),
        )
        for b in buckets.values()
    ]
    return order_exactly(fused)


# Two canonical sums closer than this (relative) may be exact ties or exactly ordered either
# way; farther apart, the float order is the exact order, because the rounding error of a sum
# of at most a few dozen non-negative binary64 terms is far below it (RRF-6).
_NEAR = 1e-9
_TINY = 1e-290  # below this, subnormal rounding voids the bound: always compare exactly


def order_exactly(fused: list[Fused]) -> list[Fused]:
    """RRF-6, RRF-8: the order of sort_key, computed fast.

    Sorting by Fraction is slow, so items are first sorted by their float score, and only runs
    of near-equal floats are re-sorted by the exact key. The result equals sorting every item
    by sort_key.
    """
    fused.sort(key=lambda f: (-f.score, f.candidate.path, f.candidate.id))
    out: list[Fused] = []
    i = 0
    while i < len(fused):
        j = i + 1
        while j < len(fused) and (
            fused[j - 1].score - fused[j].score <= _NEAR * fused[j - 1].score
            or fused[j].score < _TINY
        ):
            j += 1
        run = fused[i:j]
        if len(run) > 1:
            run.sort(key=sort_key)
        out.extend(run)
        i = j
    return out
