"""The exact RRF of spec 2.1.0 (reference/rrf.py at 26d393c: float order with exact repair of near
ties, integers over a common denominator), frozen as a benchmark baseline and output oracle for
benchmarks/rrf_speed.py (column "exact (2.1.0)"). Not used by the kit.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, overload

from reference.rrf import RankedList
from reference.text import codepoint_key
from reference.types import Candidate, InvalidInput, whole_number

DEFAULT_K = 60
MAX_K = 2**31 - 1
TEXT_FIELDS = ("path", "title", "summary", "content")

#: One contribution as data: (weight, k, rank); its value is exact_contribution(*term).
Term = tuple[float, int, int]


class _LazyExact:
    """The `exact` field of Fused: a Fraction, or the terms it is the sum of until first read.

    Most fused items are never compared exactly (RRF-6), so the Fraction is built on demand.
    """

    @overload
    def __get__(self, obj: None, owner: type[Any]) -> Fraction: ...
    @overload
    def __get__(self, obj: Fused, owner: type[Any]) -> Fraction: ...
    def __get__(self, obj: Fused | None, owner: type[Any]) -> Fraction:
        if obj is None:
            raise AttributeError("exact")  # no default: the field is required
        value = obj.__dict__["_exact"]
        if not isinstance(value, Fraction):
            value = exact_sum(value)
            obj.__dict__["_exact"] = value
        return value

    def __set__(self, obj: Fused, value: Fraction | tuple[Term, ...]) -> None:
        obj.__dict__["_exact"] = value


@dataclass
class Fused:
    """One fused candidate: merged fields (RRF-10), emitted float (RRF-7), exact value (RRF-6).

    `ranks` maps a list name to the candidate's 0-based rank in that list (RRF-2). `exact` may
    be given as a Fraction or as the tuple of its terms (computed when first read).
    """

    candidate: Candidate
    score: float
    exact: _LazyExact = _LazyExact()
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


def exact_parts(weight: float, k: int, rank: int) -> tuple[int, int]:
    """RRF-6: the exact contribution as (numerator, denominator) integers, not reduced.

    The binary64 weight is exactly num / 2^e (as_integer_ratio), so the term is
    num / (2^e · (k + r + 1)).
    """
    num, den = weight.as_integer_ratio()
    return num, den * (k + rank + 1)


def exact_contribution(weight: float, k: int, rank: int) -> Fraction:
    """RRF-6: the exact contribution, using the exact rational value of the binary64 weight."""
    return Fraction(*exact_parts(weight, k, rank))


def exact_sum(terms: Sequence[Term]) -> Fraction:
    """RRF-6: the exact score of an item, the sum of its exact contributions."""
    total = Fraction(0)
    for term in terms:
        total += exact_contribution(*term)
    return total


def canonical_sum(contributions: Sequence[float]) -> float:
    """RRF-7: sum from 0.0, left to right, over the contributions sorted by descending value."""
    total = 0.0
    for value in sorted(contributions, reverse=True):
        total += value
    return total


def _best_value(values: Sequence[tuple[int, str]]) -> str:
    """RRF-10: the non-empty value of the lowest rank; equal ranks -> smallest by code point."""
    present = [(rank, codepoint_key(v), v) for rank, v in values if v != ""]
    if not present:
        return ""
    return min(present)[2]


def merge(occurrences: Sequence[tuple[int, Candidate]]) -> Candidate:
    """RRF-10: merge one id's occurrences (rank, candidate) field by field and key by key."""
    first = occurrences[0][1]
    if len(occurrences) == 1:
        return first  # a single sighting is its own merge
    if _all_equal(first, occurrences):
        return first  # equal sightings merge to themselves (field by field, the same value)
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


def _all_equal(first: Candidate, occurrences: Sequence[tuple[int, Candidate]]) -> bool:
    """Every occurrence equals `first` and its metadata keys are already in code point order."""
    for _, cand in occurrences:
        if cand is not first and cand != first:
            return False
    keys = list(first.metadata)
    return keys == sorted(keys, key=codepoint_key)


def tie_key(item: Fused) -> tuple[str, str]:
    """RRF-8: between equal exact scores, path then id ascending by code point."""
    return codepoint_key(item.candidate.path), codepoint_key(item.candidate.id)


def sort_key(item: Fused) -> tuple[Fraction, str, str]:
    """RRF-6, RRF-8: exact score descending, then path, then id ascending by code point."""
    return (-item.exact, *tie_key(item))


# Contributions of one (contribution function, weight, k), by rank: a list's contributions
# are computed once per process, not once per call (the pipeline fuses weight 1, k 60 lists).
_TABLES: dict[tuple[object, float, int], tuple[float, ...]] = {}
_TABLES_MAX = 256


def _contributions(weight: float, k: int, n: int) -> tuple[float, ...]:
    key = (contribution, weight, k)
    table = _TABLES.get(key)
    if table is None or len(table) < n:
        if len(_TABLES) >= _TABLES_MAX:
            _TABLES.clear()
        table = tuple(contribution(weight, k, r) for r in range(max(n, 64)))
        _TABLES[key] = table
    return table


def fuse(lists: Sequence[RankedList], k: int = DEFAULT_K) -> list[Fused]:
    """RRF-1..RRF-10: fuse ranked lists into one list in the canonical total order."""
    k = check_k(k)
    active: list[tuple[RankedList, float, list[str]]] = []
    for ranked in lists:
        weight = check_weight(ranked.weight)
        ids = [cand.id for cand in ranked.items]
        if "" in ids:
            raise InvalidInput("candidate id must be a non-empty string")  # RRF-5
        if weight != 0:
            active.append((ranked, weight, ids))  # RRF-3: a zero-weight list is ignored.
    # id -> (rank, candidate, list name, weight) of its first sighting; every sighting of an
    # id seen in more than one list is kept in `multi` (only those are merged, RRF-10).
    once: dict[str, Sighting] = {}
    multi: dict[str, list[Sighting]] = {}
    for ranked, weight, ids in active:
        name = ranked.name
        items = ranked.items
        unique = len(set(ids)) == len(ids)
        seen: set[str] = set()
        for rank, cid in enumerate(ids):
            if not unique:
                if cid in seen:
                    continue  # RRF-4: only the first occurrence in a list counts.
                seen.add(cid)
            first = once.get(cid)
            if first is None:
                once[cid] = (rank, items[rank], name, weight)
            elif cid in multi:
                multi[cid].append((rank, items[rank], name, weight))
            else:
                multi[cid] = [first, (rank, items[rank], name, weight)]
    longest = max((len(ids) for _, _, ids in active), default=0)
    tables = {w: _contributions(w, k, longest) for w in {w for _, w, _ in active}}
    new = object.__new__
    fused: list[Fused] = []
    append = fused.append
    for cid, (rank, cand, name, weight) in once.items():
        sightings = multi.get(cid)
        item: Fused = new(Fused)
        slots = item.__dict__
        if sightings is None:
            slots["candidate"] = cand
            slots["score"] = tables[weight][rank]
            slots["_exact"] = ((weight, k, rank),)
            slots["ranks"] = {name: rank}
        else:
            ranks: dict[str, int] = {}
            for r, _, n, _ in sightings:
                if r < ranks.get(n, r + 1):
                    ranks[n] = r
            slots["candidate"] = merge([(r, c) for r, c, _, _ in sightings])
            slots["score"] = canonical_sum([tables[w][r] for r, _, _, w in sightings])
            slots["_exact"] = tuple([(w, k, r) for r, _, _, w in sightings])
            slots["ranks"] = ranks
        append(item)
    if len(active) > _MAX_TERMS:
        return sorted(fused, key=sort_key)  # the float bound of RRF-6 needs fewer terms
    return order_exactly(fused)


#: One sighting of an id: (rank, candidate, list name, list weight).
Sighting = tuple[int, Candidate, str, float]


# RRF-6 (the bound is proved there): a canonical sum s of n terms is within
# γ·S + n·2^-1075 of the exact score S, γ = n·2^-53/(1 − n·2^-53). For n <= _MAX_TERMS and
# floats >= _TINY, a float more than _NEAR (relative) above another has the larger exact
# score; closer neighbours (or smaller floats) are compared exactly.
_NEAR = 1e-9
_TINY = 1e-290
_MAX_TERMS = 10**6


def exact_numerators(run: Sequence[Fused]) -> list[int]:
    """RRF-6: the exact scores of `run` as integers over one common denominator.

    A term is w / d with d = k + r + 1 and w = m / 2^e exactly (as_integer_ratio), so
    D = 2^E · lcm(every d), E the largest e, is a common denominator: the term is
    m · (lcm / d) · 2^(E − e) / D. Any common multiple orders as well as the least one.
    """
    terms = [_terms(item) for item in run]
    ratios = {w: w.as_integer_ratio() for w in {t[0] for ts in terms for t in ts}}
    top = max(den.bit_length() for _, den in ratios.values()) - 1
    ds = {k + r + 1 for ts in terms for _, k, r in ts}
    common = math.lcm(*ds)
    factor = {d: common // d for d in ds}
    shift = {w: top - (den.bit_length() - 1) for w, (_, den) in ratios.items()}
    return [
        sum((ratios[w][0] * factor[k + r + 1]) << shift[w] for w, k, r in ts) for ts in terms
    ]


def _terms(item: Fused) -> tuple[Term, ...]:
    """The terms of a fused item built by fuse(); None when only its Fraction is known."""
    value = item.__dict__.get("_exact")
    if isinstance(value, tuple):
        return value
    raise _NoTerms


class _NoTerms(Exception):
    """An item carries only its Fraction (built outside fuse()): order the run by sort_key."""


def order_run(run: list[Fused]) -> list[Fused]:
    """RRF-6, RRF-8: a run of near-equal floats in exact order (integers, not Fractions)."""
    try:
        nums = exact_numerators(run)
    except _NoTerms:
        return sorted(run, key=sort_key)
    # (exact descending, path, id), as sort_key; Python compares str by code point (TEXT-9).
    keyed = sorted(
        (-num, item.candidate.path, item.candidate.id, i)
        for i, (num, item) in enumerate(zip(nums, run, strict=True))
    )
    return [run[key[-1]] for key in keyed]


def order_exactly(fused: list[Fused]) -> list[Fused]:
    """RRF-6, RRF-8: the order of sort_key, computed fast.

    Items are sorted by (float score descending, path, id) (Python compares str by code
    point, TEXT-9). A run of neighbours whose floats are within _NEAR is in exact order
    already when its items have equal multisets of terms (then their exact scores are equal,
    and so are their floats); any other run is ordered by order_run. The result equals
    sorting every item by sort_key.
    """
    entries = [(-f.score, f.candidate.path, f.candidate.id, f) for f in fused]
    entries.sort()  # ids are unique, so the comparison never reaches the Fused element
    n = len(entries)
    out = [e[3] for e in entries]
    i = 1
    while i < n:
        prev, cur = -entries[i - 1][0], -entries[i][0]
        if prev - cur > _NEAR * prev and cur >= _TINY:
            i += 1
            continue
        start = i - 1
        j = i + 1
        while j < n:
            prev, cur = -entries[j - 1][0], -entries[j][0]
            if prev - cur > _NEAR * prev and cur >= _TINY:
                break
            j += 1
        first = out[start].__dict__.get("_exact")
        for item in out[i:j]:
            if not _same_terms(first, item.__dict__.get("_exact")):
                out[start:j] = order_run(out[start:j])
                break
        i = j + 1
    return out


def _same_terms(a: object, b: object) -> bool:
    """Two items' terms (as fuse() stores them) form the same multiset: equal exact scores."""
    if type(a) is not tuple or type(b) is not tuple:
        return False
    if len(a) == 1 or a == b:
        return a == b
    return sorted(a) == sorted(b)
