"""The fast ordering equals the exact ordering (spec/rrf.md RRF-6, RRF-8)."""

from __future__ import annotations

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
