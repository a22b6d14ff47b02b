"""Reciprocal Rank Fusion (spec/rrf.md, RRF-*; decisions D2, D3).

The anchor's algorithm: every occurrence adds `w / (k + r + 1)` (RRF-2, RRF-4), the first
sighting of an id seeds its fields and later ones only fill blanks (RRF-10, RRF-14), and the
list is ordered by the emitted score, then path, then id (RRF-6, RRF-8, RRF-12). The emitted
score is summed largest first (RRF-7) and the path comes from the best-ranked occurrence
(RRF-13), so the order never depends on list order (RRF-11).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, overload

from reference.types import Candidate, InvalidInput, whole_number

DEFAULT_K = 60
MAX_K = 2**31 - 1
#: RRF-10: the fields the first sighting seeds and later sightings only fill.
FILLED_FIELDS = ("title", "summary", "content")
TEXT_FIELDS = ("path", *FILLED_FIELDS)


@dataclass(frozen=True)
class RankedList:
    """One input list of RRF (RRF-1): a name, a weight and candidates best first."""

    name: str
    weight: float
    items: tuple[Candidate, ...]


class _LazyExact:
    """The `exact` field of Fused: the exact value later stages order by (INTENT-9).

    Defaults to the exact rational value of the emitted float; a stage that multiplies the
    score (intent, boosts) sets the exact product instead.
    """

    @overload
    def __get__(self, obj: None, owner: type[Any]) -> None: ...
    @overload
    def __get__(self, obj: Fused, owner: type[Any]) -> Fraction: ...
    def __get__(self, obj: Fused | None, owner: type[Any]) -> Fraction | None:
        if obj is None:
            return None  # the field's default: the exact value of `score`
        value = obj._exact
        if value is None:
            value = Fraction(obj.score)
            obj._exact = value
        return value

    def __set__(self, obj: Fused, value: Fraction | None) -> None:
        obj._exact = value


class _FusedStore:
    """Where Fused keeps its lazy field (a slot, so that building one is cheap)."""

    __slots__ = ("_exact",)
    _exact: Fraction | None


@dataclass
class Fused(_FusedStore):
    """One fused candidate: merged fields (RRF-10, RRF-13, RRF-14) and emitted float (RRF-7)."""

    __slots__ = ("candidate", "score")
    candidate: Candidate
    score: float
    exact: _LazyExact = _LazyExact()

    @property
    def id(self) -> str:
        return self.candidate.id


def check_k(k: object) -> int:
    """RRF-1, RRF-15: a number <= 0 means the default; otherwise a whole number <= 2^31 − 1."""
    if not isinstance(k, bool) and isinstance(k, int | float) and k <= 0:
        return DEFAULT_K  # the anchor's safeK (RRF-1)
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
    """RRF-7: one occurrence's binary64 contribution, a single division w / (k + r + 1)."""
    return weight / float(k + rank + 1)


def canonical_sum(contributions: Sequence[float]) -> float:
    """RRF-7: sum from 0.0, left to right, over the contributions sorted by descending value."""
    total = 0.0
    for value in sorted(contributions, reverse=True):
        total += value
    return total


def better_path(rank: int, path: str, best: tuple[int, str] | None) -> bool:
    """RRF-13: a non-empty path beats the best so far when its rank is lower, or equal and
    its value smaller by code point (Python compares str by code point, TEXT-9)."""
    if path == "":
        return False
    return best is None or (rank, path) < best


def _filled(occurrences: Sequence[tuple[int, Candidate]]) -> Candidate:
    """RRF-10, RRF-13, RRF-14: merge one id's sightings (rank, candidate), in sighting order.

    The first sighting seeds title, summary, content and metadata; each later one fills
    only what is still empty or absent. The path is the best-ranked non-empty one.
    """
    first = occurrences[0][1]
    texts = {name: getattr(first, name) for name in FILLED_FIELDS}
    metadata = dict(first.metadata)
    best: tuple[int, str] | None = None
    for rank, cand in occurrences:
        if better_path(rank, cand.path, best):
            best = (rank, cand.path)
        if cand is first:
            continue
        for name in FILLED_FIELDS:
            if texts[name] == "":
                texts[name] = getattr(cand, name)
        for key, value in cand.metadata.items():
            if metadata.get(key, "") == "":
                metadata[key] = value
    path = best[1] if best is not None else ""
    return Candidate(id=first.id, path=path, metadata=metadata, **texts)


#: Per-rank contributions of one list shape, computed once per process: keyed by
#: (contribution function, weight, k), so a patched contribution() gets its own table.
_TABLES: dict[tuple[object, float, int], tuple[float, ...]] = {}
_TABLES_MAX = 256


def _contributions(weight: float, k: int, n: int) -> tuple[float, ...]:
    """RRF-7: the contributions of ranks 0 .. n − 1 (at least) of a list."""
    key = (contribution, weight, k)
    found = _TABLES.get(key)
    if found is None or len(found) < n:
        if len(_TABLES) >= _TABLES_MAX:
            _TABLES.clear()
        found = tuple(contribution(weight, k, r) for r in range(max(n, 64)))
        _TABLES[key] = found
    return found


def fuse(lists: Sequence[RankedList], k: int = DEFAULT_K) -> list[Fused]:
    """RRF-1..RRF-15: fuse ranked lists into one list in the canonical order.

    An id sighted once is its own candidate and contribution; only ids sighted again are
    merged (RRF-10, RRF-13, RRF-14) and summed (RRF-4, RRF-7).
    """
    k = check_k(k)
    first: dict[str, tuple[Candidate, int, float]] = {}
    again: dict[str, list[tuple[int, Candidate, float]]] = {}
    for ranked in lists:
        weight = check_weight(ranked.weight)
        items = ranked.items
        if any(cand.id == "" for cand in items):
            raise InvalidInput("candidate id must be a non-empty string")  # RRF-5
        if weight == 0:
            continue  # RRF-3: ignored entirely (its ids are still checked)
        values = _contributions(weight, k, len(items))
        for rank, cand in enumerate(items):
            cid = cand.id
            if cid not in first:
                first[cid] = (cand, rank, values[rank])
            else:
                again.setdefault(cid, []).append((rank, cand, values[rank]))
    fused: list[Fused] = []
    append = fused.append
    for cid, (cand, rank, value) in first.items():
        later = again.get(cid)
        if later is None:
            append(Fused(cand, value))
            continue
        occurrences = [(rank, cand), *((r, c) for r, c, _ in later)]
        score = canonical_sum([value, *(v for _, _, v in later)])  # RRF-7
        append(Fused(_filled(occurrences), score))
    return order(fused)


def order(fused: list[Fused]) -> list[Fused]:
    """RRF-6, RRF-8, RRF-12: emitted score descending, then path, then id, by code point
    (Python compares str by code point, TEXT-9)."""
    # ids are unique, so the comparison never reaches the Fused element
    entries = sorted([(-f.score, f.candidate.path, f.candidate.id, f) for f in fused])
    return [entry[3] for entry in entries]
