"""The fast ordering equals the exact ordering (spec/rrf.md RRF-6, RRF-8)."""

from __future__ import annotations

import math
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from reference.rrf import RankedList, fuse, sort_key
from reference.types import Candidate

WEIGHTS = [1.0, 0.5, 2.0, 0.3, 1e-300, 5e-324, 3.0, 0.1]


@st.composite
def lists(draw: st.DrawFn) -> list[RankedList]:
    out = []
    for n in range(draw(st.integers(1, 6))):
        ids = draw(st.lists(st.integers(0, 14), max_size=30))
        items = tuple(Candidate(id=f"d{i}", path=f"p{i % 4}.md") for i in ids)
        out.append(RankedList(f"L{n}", draw(st.sampled_from(WEIGHTS)), items))
    return out


@settings(max_examples=400, deadline=None)
@given(lists(), st.integers(1, 80))
def test_fast_order_equals_sorting_by_the_exact_key(ranked: list[RankedList], k: int) -> None:
    """RRF-6, RRF-8: float-first sorting with exact repair of near ties is the exact order."""
    fused = fuse(ranked, k)
    assert fused == sorted(fused, key=sort_key)


def test_exact_tie_with_different_floats_is_ordered_by_path() -> None:
    """RRF-6: ranks {5,5,27} and {11,11,11} tie exactly at 1/24 though their floats differ."""
    a = [Candidate(id=f"x{i}", path="x.md") for i in range(40)]

    def at(rank: int, cid: str, path: str) -> tuple[Candidate, ...]:
        items = list(a)
        items[rank] = Candidate(id=cid, path=path)
        return tuple(items)

    ranked = [
        RankedList("L1", 1.0, at(5, "b", "b.md")),
        RankedList("L2", 1.0, at(5, "b", "b.md")),
        RankedList("L3", 1.0, at(27, "b", "b.md")),
        RankedList("M1", 1.0, at(11, "a", "a.md")),
        RankedList("M2", 1.0, at(11, "a", "a.md")),
        RankedList("M3", 1.0, at(11, "a", "a.md")),
    ]
    top = [f.id for f in fuse(ranked) if f.id in ("a", "b")]
    assert top == ["a", "b"]


@settings(max_examples=300, deadline=None)
@given(lists(), st.integers(1, 80))
def test_common_denominator_numerators_are_proportional_to_the_exact_scores(
    ranked: list[RankedList], k: int
) -> None:
    """RRF-6: the integers the fast path compares are the exact scores times one constant."""
    from reference.rrf import exact_numerators

    fused = fuse(ranked, k)
    if not fused:
        return
    nums = exact_numerators(fused)
    scale = nums[0] / fused[0].exact
    assert all(num == item.exact * scale for num, item in zip(nums, fused, strict=True))


def test_worst_case_one_run_of_tiny_scores_is_ordered_exactly() -> None:
    """RRF-6: scores below 1e-290 are all compared exactly (subnormal rounding voids the bound)."""
    items = [Candidate(id=f"d{i}", path=f"p{i % 7}.md") for i in range(300)]
    ranked = [RankedList("a", 1e-300, tuple(items)), RankedList("b", 5e-324, tuple(items[::-1]))]
    fused = fuse(ranked, 60)
    assert fused == sorted(fused, key=sort_key)


def test_a_close_run_is_widened_over_items_that_share_their_terms() -> None:
    """RRF-6, RRF-8: with k = 1, `x`, `y` and the fillers at rank 3 score 1/5 and share one
    term; `z` (ranks 4 and 28) is exactly 1/5 too, but its float 0.19999999999999998 sorts it
    last. The only pair whose terms differ is the last one, and the exact repair must widen
    the run to its start: `z` (a.md) comes first, by path."""

    def listed(name: str, special: dict[int, Candidate], size: int) -> RankedList:
        filler = [Candidate(id=f"{name}-{r}", path=f"f{name}.md") for r in range(size)]
        return RankedList(name, 1.0, tuple(special.get(r, c) for r, c in enumerate(filler)))

    x, y, z = (Candidate(id=i, path=p) for i, p in (("x", "x.md"), ("y", "y.md"), ("z", "a.md")))
    ranked = [
        listed("L1", {3: x}, 4),
        listed("L2", {3: y}, 4),
        listed("L3", {4: z}, 29),
        listed("L4", {28: z}, 29),
    ]
    fused = fuse(ranked, 1)
    assert fused == sorted(fused, key=sort_key)
    fifths = [f.id for f in fused if f.exact == Fraction(1, 5)]
    assert fifths[0] == "z" and fifths[-2:] == ["x", "y"]
    assert next(f for f in fused if f.id == "z").score < 0.2


#: Weights one ulp apart and weights whose contributions meet others' (3/183 = 1/61): many
#: scores tie exactly or land within 1e-9 with different terms.
ADVERSARIAL_WEIGHTS = [1.0, 1.0, math.nextafter(1.0, 2.0), math.nextafter(1.0, 0.0), 0.5, 2.0,
                       3.0, 0.1, 0.2, 0.3, 1e-300]


@st.composite
def adversarial(draw: st.DrawFn) -> list[RankedList]:
    """Up to 6 lists over 12 ids (repeats, shared names) with near-equal weights."""
    out = []
    for n in range(draw(st.integers(1, 6))):
        ids = draw(st.lists(st.integers(0, 11), max_size=40))
        items = tuple(Candidate(id=f"d{i}", path=f"p{i % 3}.md") for i in ids)
        name = draw(st.sampled_from(["a", "b", f"L{n}"]))
        out.append(RankedList(name, draw(st.sampled_from(ADVERSARIAL_WEIGHTS)), items))
    return out


@settings(max_examples=400, deadline=None)
@given(adversarial(), st.sampled_from([1, 2, 3, 60]))
def test_every_field_equals_an_item_by_item_oracle(ranked: list[RankedList], k: int) -> None:
    """RRF-2, RRF-4, RRF-6, RRF-7, RRF-8: order, score bits, exact value and rank map equal
    sorting every item by its exact score computed term by term from the input."""
    terms: dict[str, list[tuple[str, float, int]]] = {}
    path: dict[str, str] = {}
    for lst in ranked:
        if lst.weight == 0:
            continue
        firsts: dict[str, int] = {}
        for rank, cand in enumerate(lst.items):
            firsts.setdefault(cand.id, rank)
            path[cand.id] = cand.path
        for cid, rank in firsts.items():
            terms.setdefault(cid, []).append((lst.name, lst.weight, rank))
    expected = []
    for cid, ts in terms.items():
        exact = sum((Fraction(w) / (k + r + 1) for _, w, r in ts), Fraction(0))
        total = 0.0
        for part in sorted((w / (k + r + 1) for _, w, r in ts), reverse=True):
            total += part
        ranks: dict[str, int] = {}
        for name, _, r in ts:
            ranks[name] = min(r, ranks.get(name, r))
        expected.append((-exact, path[cid], cid, total.hex(), ranks))
    expected.sort(key=lambda e: e[:3])
    fused = fuse(ranked, k)
    got = [(-f.exact, f.candidate.path, f.id, f.score.hex(), dict(f.ranks)) for f in fused]
    assert got == expected
