"""Reciprocal Rank Fusion (spec/rrf.md, RRF-*; decisions D1–D4).

The order comes from exact rational scores, the emitted float from a canonical summation, and
merged fields from the best-ranked occurrence, so the output never depends on list order.

Fast path (RRF-6 allows it and states the error bound): items are sorted by (canonical float,
path, id) in one tuple sort, and exact arithmetic (integers over a common denominator) is done
only inside runs of neighbours too close for their floats to decide, and only when their terms
differ. Per item, Python does only what the output needs. Ids found in several lists are found
by set intersections; only they are merged and summed. An id found in one list takes its
contribution, term and (name, rank) pair from per-rank tables cached per (weight, k) and per
list name (shared objects: two such items with equal terms are told by identity). A fused
item's exact value and rank map are built only when something reads them.
"""

from __future__ import annotations

import math
from bisect import bisect_right
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import chain, compress, repeat
from operator import attrgetter, le, mul
from typing import Any, overload

from reference.text import codepoint_key
from reference.types import Candidate, InvalidInput, whole_number

DEFAULT_K = 60
MAX_K = 2**31 - 1
TEXT_FIELDS = ("path", "title", "summary", "content")

#: One contribution as data: (weight, k, rank); its value is exact_contribution(*term).
Term = tuple[float, int, int]
#: One sighting's rank in a named list: (list name, rank); `ranks` is built from these.
RankPair = tuple[str, int]


@dataclass(frozen=True)
class RankedList:
    """One input list of RRF (RRF-1): a name, a weight and candidates best first."""

    name: str
    weight: float
    items: tuple[Candidate, ...]


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
        value = obj._exact
        if not isinstance(value, Fraction):
            value = exact_sum(value)
            obj._exact = value
        return value

    def __set__(self, obj: Fused, value: Fraction | tuple[Term, ...]) -> None:
        obj._exact = value


class _LazyRanks:
    """The `ranks` field of Fused: a mapping, or the (list name, rank) pairs it is built from
    when first read (few callers read it). Defaults to an empty dict."""

    @overload
    def __get__(self, obj: None, owner: type[Any]) -> tuple[RankPair, ...]: ...
    @overload
    def __get__(self, obj: Fused, owner: type[Any]) -> Mapping[str, int]: ...
    def __get__(
        self, obj: Fused | None, owner: type[Any]
    ) -> Mapping[str, int] | tuple[RankPair, ...]:
        if obj is None:
            return ()  # the field's default: no pairs, read as {}
        value = obj._ranks
        if isinstance(value, tuple):
            value = rank_map(value)
            obj._ranks = value
        return value

    def __set__(self, obj: Fused, value: Mapping[str, int] | tuple[RankPair, ...]) -> None:
        obj._ranks = value


class _FusedStore:
    """Where Fused keeps its lazy fields (slots, so that building one is cheap)."""

    __slots__ = ("_exact", "_ranks")
    _exact: Fraction | tuple[Term, ...]
    _ranks: Mapping[str, int] | tuple[RankPair, ...]


@dataclass
class Fused(_FusedStore):
    """One fused candidate: merged fields (RRF-10), emitted float (RRF-7), exact value (RRF-6).

    `ranks` maps a list name to the candidate's 0-based rank in that list (RRF-2). `exact` may
    be given as a Fraction or as the tuple of its terms, `ranks` as a mapping or as the tuple
    of its (name, rank) pairs; either is computed when first read.
    """

    __slots__ = ("candidate", "score")
    candidate: Candidate
    score: float
    exact: _LazyExact = _LazyExact()
    ranks: _LazyRanks = _LazyRanks()

    @property
    def id(self) -> str:
        return self.candidate.id


def rank_map(pairs: Iterable[RankPair]) -> dict[str, int]:
    """RRF-2: list name -> the lowest rank among the pairs of that name, in first-seen order."""
    ranks: dict[str, int] = {}
    for name, rank in pairs:
        if rank < ranks.get(name, rank + 1):
            ranks[name] = rank
    return ranks


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
    if len(contributions) == 2:  # the same sum, without a sort (an id in two lists)
        a, b = contributions
        return 0.0 + a + b if a >= b else 0.0 + b + a
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
    if len(first.metadata) < 2:
        return True
    keys = list(first.metadata)
    return keys == sorted(keys, key=codepoint_key)


def tie_key(item: Fused) -> tuple[str, str]:
    """RRF-8: between equal exact scores, path then id ascending by code point."""
    return codepoint_key(item.candidate.path), codepoint_key(item.candidate.id)


def sort_key(item: Fused) -> tuple[Fraction, str, str]:
    """RRF-6, RRF-8: exact score descending, then path, then id ascending by code point."""
    return (-item.exact, *tie_key(item))


# Per-rank tables of one list shape, computed once per process, not once per call (the
# pipeline fuses weight 1, k 60 lists): by (contribution function, weight, k) the
# contributions (RRF-7) and each rank's one-term tuple (RRF-6); by list name each rank's
# one-pair tuple (RRF-2). A fused item seen once points into these tables.
_TABLES: dict[tuple[object, float, int], tuple[tuple[float, ...], tuple[tuple[Term], ...]]] = {}
_PAIRS: dict[str, tuple[tuple[RankPair], ...]] = {}
_TABLES_MAX = 256


def _tables(weight: float, k: int, n: int) -> tuple[tuple[float, ...], tuple[tuple[Term], ...]]:
    """The contributions and one-term tuples of ranks 0 .. n − 1 (at least) of a list."""
    key = (contribution, weight, k)
    found = _TABLES.get(key)
    if found is None or len(found[0]) < n:
        if len(_TABLES) >= _TABLES_MAX:
            _TABLES.clear()
        ranks = range(max(n, 64))
        found = (
            tuple(contribution(weight, k, r) for r in ranks),
            tuple(((weight, k, r),) for r in ranks),
        )
        _TABLES[key] = found
    return found


def _pairs(name: str, n: int) -> tuple[tuple[RankPair], ...]:
    """The one-pair tuples ((name, r),) of ranks 0 .. n − 1 (at least) of a list."""
    found = _PAIRS.get(name)
    if found is None or len(found) < n:
        if len(_PAIRS) >= _TABLES_MAX:
            _PAIRS.clear()
        found = tuple(((name, r),) for r in range(max(n, 64)))
        _PAIRS[name] = found
    return found


#: One list of positive weight, ready to fuse: items, id -> rank of the id's first occurrence
#: (RRF-4), and the per-rank tables (contribution, one-term tuple, one-pair tuple).
_Leg = tuple[
    tuple[Candidate, ...],
    dict[str, int],
    tuple[float, ...],
    tuple[tuple[Term], ...],
    tuple[tuple[RankPair], ...],
]

_ID = attrgetter("id")

#: The sightings of an id found in several lists: occurrences (rank, candidate) for merge(),
#: contributions for canonical_sum(), and the concatenated terms and (name, rank) pairs.
_Sightings = tuple[
    list[tuple[int, Candidate]], list[float], tuple[Term, ...], tuple[RankPair, ...]
]


def _leg(ranked: RankedList, weight: float, k: int) -> _Leg | None:
    """RRF-2, RRF-4, RRF-5: a list's ranks by id (first occurrence) and its per-rank tables;
    None for a list of weight 0, which is ignored (RRF-3) once its ids are checked."""
    items = ranked.items
    rank_of = dict(zip(map(_ID, items), range(len(items)), strict=True))
    if "" in rank_of:
        raise InvalidInput("candidate id must be a non-empty string")  # RRF-5
    if len(rank_of) < len(items):  # a repeated id: only its first occurrence counts (RRF-4)
        rank_of = {}
        for rank, cand in enumerate(items):
            rank_of.setdefault(cand.id, rank)
    if weight == 0:
        return None
    values, terms = _tables(weight, k, len(items))
    return items, rank_of, values, terms, _pairs(ranked.name, len(items))


def fuse(lists: Sequence[RankedList], k: int = DEFAULT_K) -> list[Fused]:
    """RRF-1..RRF-10: fuse ranked lists into one list in the canonical total order.

    An id found in one list is that list's candidate, contribution, term and rank, read from
    tables (no merge, RRF-10); only ids found in several lists are merged and summed (RRF-7).
    """
    k = check_k(k)
    legs: list[_Leg] = []
    for ranked in lists:
        leg = _leg(ranked, check_weight(ranked.weight), k)
        if leg is not None:
            legs.append(leg)
    # The ids found in more than one list, by set intersections.
    seen: set[str] = set()
    multi: set[str] = set()
    for _, rank_of, _, _, _ in legs:
        multi.update(seen.intersection(rank_of))
        seen.update(rank_of)
    fused: list[Fused] = []
    append = fused.append
    new = object.__new__
    # An id found in several lists: its occurrences (rank, candidate), contributions, terms
    # and (name, rank) pairs, gathered list by list, in the order the ids were first seen.
    sightings: dict[str, _Sightings] = {}
    for items, rank_of, values, terms, pairs in legs:
        for cid, rank in rank_of.items():
            if cid in multi:
                found = sightings.get(cid)
                if found is None:
                    first = [(rank, items[rank])]
                    sightings[cid] = (first, [values[rank]], terms[rank], pairs[rank])
                else:
                    occurrences, contributions, sum_terms, sum_pairs = found
                    occurrences.append((rank, items[rank]))
                    contributions.append(values[rank])
                    sightings[cid] = (occurrences, contributions, sum_terms + terms[rank],
                                      sum_pairs + pairs[rank])
                continue
            # Found once: the list's candidate, contribution, term and rank, from the tables.
            item: Fused = new(Fused)
            item.candidate = items[rank]
            item.score = values[rank]
            item._exact = terms[rank]
            item._ranks = pairs[rank]
            append(item)
    for occurrences, contributions, sum_terms, sum_pairs in sightings.values():
        item = new(Fused)
        item.candidate = merge(occurrences)  # RRF-10
        item.score = canonical_sum(contributions)  # RRF-7
        item._exact = sum_terms
        item._ranks = sum_pairs
        append(item)
    if len(legs) > _MAX_TERMS:
        return sorted(fused, key=sort_key)  # the float bound of RRF-6 needs fewer terms
    return order_exactly(fused)


# RRF-6 (the bound is proved there): a canonical sum s of n terms is within
# γ·S + n·2^-1075 of the exact score S, γ = n·2^-53/(1 − n·2^-53). For n <= _MAX_TERMS and
# floats >= _TINY, a float more than _NEAR (relative) above another has the larger exact
# score; closer neighbours (or smaller floats) are compared exactly. _FAR tests that in one
# rounded multiplication: b < fl(a·_FAR) implies a − b > 10^-9·a, because _FAR (itself
# rounded) is at most 1 − 2·10^-9 + 2^-52 and, for a >= _TINY (no underflow),
# fl(a·_FAR) <= a·_FAR·(1 + 2^-53) < a·(1 − 10^-9).
_NEAR = 1e-9
_FAR = 1 - 2 * _NEAR
_TINY = 1e-290
_MAX_TERMS = 10**6


def exact_numerators(run: Sequence[Fused]) -> list[int]:
    """RRF-6: the exact scores of `run` as integers over one common denominator.

    A term is w / d with d = k + r + 1 and w = m / 2^e exactly (as_integer_ratio), so
    D = 2^E · lcm(every d), E the largest e, is a common denominator: the term is
    m · (lcm / d) · 2^(E − e) / D. Any common multiple orders as well as the least one.
    Each distinct term is converted once (items of one rank in lists of one weight share it).
    """
    terms = [_terms(item) for item in run]
    distinct = set(chain.from_iterable(terms))
    ratios = {w: w.as_integer_ratio() for w, _, _ in distinct}
    top = max(den.bit_length() for _, den in ratios.values())
    common = math.lcm(*{k + r + 1 for _, k, r in distinct})
    numerator = {
        (w, k, r): (ratios[w][0] * (common // (k + r + 1))) << (top - ratios[w][1].bit_length())
        for w, k, r in distinct
    }
    return [sum(map(numerator.__getitem__, ts)) for ts in terms]


def _terms(item: Fused) -> tuple[Term, ...]:
    """The terms of a fused item built by fuse(); _NoTerms when only its Fraction is known."""
    value = item._exact
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
    pairs = zip(nums, run, strict=True)
    # ids are unique, so the comparison never reaches the Fused element
    keyed = sorted([(-num, item.candidate.path, item.candidate.id, item) for num, item in pairs])
    return [key[3] for key in keyed]


def order_exactly(fused: list[Fused]) -> list[Fused]:
    """RRF-6, RRF-8: the order of sort_key, computed fast.

    Items are sorted by (float score descending, path, id) (Python compares str by code
    point, TEXT-9). Neighbours whose floats are within _NEAR (or below _TINY) are "close";
    a maximal run of close neighbours is in exact order already when its items have equal
    multisets of terms (then their exact scores are equal, and so are their floats), and is
    ordered by order_run otherwise. A run is looked at only from a close pair whose stored
    terms are not one and the same object (fuse() shares a seen-once item's term tuple per
    weight, k and rank). The result equals sorting every item by sort_key.
    """
    # ids are unique, so the comparison never reaches the Fused element
    entries = sorted([(-f.score, f.candidate.path, f.candidate.id, f) for f in fused])
    out = [entry[3] for entry in entries]
    keys = [entry[0] for entry in entries]  # −score, ascending
    n = len(keys)
    # close[i − 1]: the floats of out[i − 1] and out[i] cannot decide their order.
    close = list(map(le, keys[1:], map(mul, keys, repeat(_FAR))))
    tiny = bisect_right(keys, -_TINY)  # out[tiny:] score below _TINY
    if tiny < n:
        close[max(tiny - 1, 0) :] = repeat(True, n - max(tiny, 1))
    end = 0
    for i in compress(range(1, n), close):
        if i < end or out[i]._exact is out[i - 1]._exact:
            continue  # inside the run just handled, or the same terms
        start, end = i - 1, i + 1
        while start > 0 and close[start - 1]:
            start -= 1
        while end < n and close[end - 1]:
            end += 1
        first = out[start]._exact
        for item in out[start + 1 : end]:
            if not _same_terms(first, item._exact):
                out[start:end] = order_run(out[start:end])
                break
    return out


def _same_terms(a: object, b: object) -> bool:
    """Two items' terms (as fuse() stores them) form the same multiset: equal exact scores."""
    if type(a) is not tuple or type(b) is not tuple:
        return False
    if len(a) == 1 or a == b:
        return a == b
    return sorted(a) == sorted(b)
