"""Reciprocal Rank Fusion, one behaviour per test (spec/rrf.md)."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import pytest

from conformance.adapters.ops.fusion import op_rrf
from reference.rrf import RankedList, canonical_sum, check_k, fuse
from reference.types import Candidate, InvalidInput


def c(
    cid: str, path: str | None = None, title: str = "", metadata: dict[str, str] | None = None
) -> Candidate:
    return Candidate(
        id=cid, path=path if path is not None else f"{cid}.md", title=title, metadata=metadata or {}
    )


def lst(*items: Candidate, name: str = "", weight: float = 1.0) -> RankedList:
    return RankedList(name=name, weight=weight, items=tuple(items))


def ids(lists: list[RankedList], k: int = 60) -> list[str]:
    return [f.id for f in fuse(lists, k)]


def trap(placements: dict[str, list[int]], n: int) -> list[RankedList]:
    """n lists where placements[id][i] is the id's rank in list i; fillers elsewhere."""
    out = []
    for i in range(n):
        size = 1 + max(r[i] for r in placements.values())
        slots = [c(f"f{i}-{r}") for r in range(size)]
        for cid, ranks in placements.items():
            slots[ranks[i]] = c(cid)
        out.append(lst(*slots, name=f"L{i}"))
    return out


def test_k_defaults_to_60() -> None:
    """RRF-1: without k the top item scores 1/61."""
    assert fuse([lst(c("a"))])[0].score == 1 / 61


@pytest.mark.parametrize("low", [0, -1, -2.5, -0.0, -(2**40), -math.inf])
def test_k_at_or_below_zero_means_the_default(low: object) -> None:
    """RRF-1: safeK = k > 0 ? k : 60, so k <= 0 fuses exactly as k = 60."""
    assert check_k(low) == 60
    assert fuse([lst(c("a"), c("b"))], k=low)[1].score == 1 / 62  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [1.5, "60", True, None, 2**31, math.inf, math.nan])
def test_other_k_must_be_a_whole_number_in_range(bad: object) -> None:
    """RRF-15: a k above 0 that is not a whole number <= 2^31 - 1, or not a number, is
    invalid_input (NaN is not <= 0, so it is not the default either)."""
    with pytest.raises(InvalidInput):
        check_k(bad)


def test_k_as_whole_float_is_accepted() -> None:
    """RRF-15: 60.0 is the same k as 60 because JSON cannot tell them apart."""
    assert check_k(60.0) == 60


def test_rank_is_zero_based_position() -> None:
    """RRF-2: positions 0, 1, 2 contribute 1/61, 1/62, 1/63."""
    scores = [f.score for f in fuse([lst(c("a"), c("b"), c("c"))])]
    assert scores == [1 / 61, 1 / 62, 1 / 63]
    assert scores[0] == 0.01639344262295082


def test_contribution_uses_k() -> None:
    """RRF-2: with k = 1 the top item scores 1/2."""
    assert fuse([lst(c("a"))], k=1)[0].score == 0.5


def test_weight_multiplies_the_contribution() -> None:
    """RRF-3: weight 2 gives 2/61."""
    assert fuse([lst(c("a"), weight=2.0)])[0].score == 0.03278688524590164


def test_weight_zero_list_adds_no_candidates() -> None:
    """RRF-3: a weight-0 list contributes nothing, not even zero-score candidates."""
    assert ids([lst(c("a")), lst(c("b"), c("a"), weight=0.0)]) == ["a"]


@pytest.mark.parametrize("bad", [-1.0, -5e-324, math.inf, math.nan])
def test_weight_must_be_finite_and_non_negative(bad: float) -> None:
    """RRF-3: negative or non-finite weights are invalid_input."""
    with pytest.raises(InvalidInput):
        fuse([lst(c("a"), weight=bad)])


def test_duplicate_in_a_list_counts_per_occurrence() -> None:
    """RRF-4: [x, x, y] scores x at ranks 0 and 1 (1/61 + 1/62) and y at rank 2."""
    fused = fuse([lst(c("x"), c("x"), c("y"))])
    assert [(f.id, f.score) for f in fused] == [("x", 1 / 61 + 1 / 62), ("y", 1 / 63)]


def test_empty_id_is_invalid_even_in_a_zero_weight_list() -> None:
    """RRF-5: an empty id is rejected, never skipped."""
    with pytest.raises(InvalidInput):
        fuse([lst(c(""), weight=0.0)])


def test_score_sums_over_lists_that_contain_the_id() -> None:
    """RRF-2, RRF-5: b in two lists sums 1/61 + 1/62; a list without the id adds nothing."""
    fused = fuse([lst(c("a"), c("b")), lst(c("b"), c("c")), lst()])
    assert [(f.id, f.score) for f in fused] == [
        ("b", 0.03252247488101534),
        ("a", 1 / 61),
        ("c", 1 / 62),
    ]


def test_exact_value_is_the_emitted_floats() -> None:
    """RRF-6, INTENT-9: `exact`, what later stages order by, is the emitted float's value."""
    fused = fuse([lst(c("a"), weight=0.1), lst(c("x"), c("a"))])
    assert fused[0].exact == Fraction(fused[0].score)
    assert fused[0].exact != Fraction(0.1) / 61 + Fraction(1, 62)


def test_order_uses_the_emitted_float_not_the_exact_sum() -> None:
    """RRF-6: a.md and b.md are both exactly 1/24 but b's float is larger, so b is first."""
    lists = trap({"a": [11, 11, 11], "b": [5, 5, 27]}, 3)
    fused = {f.id: f for f in fuse(lists)}
    assert fused["b"].score > fused["a"].score
    assert ids(lists)[:2] == ["b", "a"]


def test_equal_floats_of_unequal_exact_sums_tie_on_path() -> None:
    """RRF-6, RRF-8: 0.3/35 and 0.30000000000000004/35 are one double, so a.md is first."""
    lists = [lst(c("b"), weight=0.30000000000000004), lst(c("a"), weight=0.3)]
    fused = fuse(lists, k=34)
    assert fused[0].score == fused[1].score
    assert Fraction(0.30000000000000004) > Fraction(0.3)
    assert [f.id for f in fused] == ["a", "b"]


def test_underflowed_floats_tie_on_path() -> None:
    """RRF-6, RRF-8: with weight 5e-324 every float is 0.0, so path orders them."""
    fused = fuse([lst(c("a", "z.md"), c("b", "a.md"), weight=5e-324)])
    assert [(f.id, f.score) for f in fused] == [("b", 0.0), ("a", 0.0)]


def test_emitted_float_adds_largest_contribution_first() -> None:
    """RRF-7: contributions are summed from 0.0 in descending order of value."""
    assert canonical_sum([1 / 67, 1 / 61, 1 / 62]) == ((0.0 + 1 / 61) + 1 / 62) + 1 / 67
    assert canonical_sum([1 / 67, 1 / 61, 1 / 62]) == 0.0474478480153437


def test_emitted_float_is_the_same_in_every_list_order() -> None:
    """RRF-7: the {0,6,1} / {1,0,6} trap emits 0.0474478480153437 for both in all orders."""
    lists = trap({"a": [0, 6, 1], "b": [1, 0, 6]}, 3)
    for perm in itertools.permutations(lists):
        fused = {f.id: f.score for f in fuse(list(perm))}
        assert fused["a"] == fused["b"] == 0.0474478480153437


def test_canonical_floats_of_an_exact_tie_may_differ() -> None:
    """RRF-7: 3 x 1/72 and 2 x 1/66 + 1/88 are both 1/24 but emit different floats."""
    assert canonical_sum([1 / 72] * 3) == 0.041666666666666664
    assert canonical_sum([1 / 66, 1 / 66, 1 / 88]) == 0.04166666666666667


def test_ties_break_on_path_then_id() -> None:
    """RRF-8, RRF-12: equal scores order by path, then by id, independent of list order."""
    lists = [lst(c("c2", "doc.md")), lst(c("c1", "doc.md")), lst(c("z", "a.md"))]
    assert ids(lists) == ["z", "c1", "c2"]


def test_ties_compare_code_points_not_utf16() -> None:
    """RRF-8: U+FF5E sorts before U+1F600 (UTF-16 comparison reverses them)."""
    lists = [lst(c("e", "\U0001f600.md")), lst(c("f", "\uff5e.md"))]
    assert ids(lists) == ["f", "e"]


def test_output_carries_every_field() -> None:
    """RRF-9: absent texts and metadata are emitted as "" and {}."""
    out = op_rrf({"lists": [{"items": [{"id": "a", "path": "a.md"}]}]})
    assert out == {
        "results": [
            {
                "id": "a",
                "path": "a.md",
                "title": "",
                "summary": "",
                "content": "",
                "metadata": {},
                "score": 1 / 61,
            }
        ]
    }


def test_merge_fills_a_blank_from_a_later_list() -> None:
    """RRF-10: an empty title from the first list is filled by a later non-empty one."""
    lists = [lst(c("c", title="")), lst(c("x"), c("c", title="Kept"))]
    assert fuse(lists)[0].candidate.title == "Kept"


def test_merge_first_sighting_seeds_whatever_its_rank() -> None:
    """RRF-10: the first list's title stays even when a later list ranks c higher."""
    lists = [lst(c("x"), c("c", title="Second")), lst(c("c", title="First"))]
    assert fuse(lists)[0].candidate.title == "Second"
    one, two = lst(c("c", title="beta")), lst(c("c", title="alpha"))
    assert fuse([one, two])[0].candidate.title == "beta"
    assert fuse([two, one])[0].candidate.title == "alpha"


def test_merge_repeat_in_one_list_fills_blanks_only() -> None:
    """RRF-4, RRF-10: a repeat is a later sighting: it fills a blank, never overwrites."""
    fused = fuse([lst(c("c"), c("c", title="Later"), c("c", title="Last"))])
    assert fused[0].candidate.title == "Later"


def test_merge_metadata_key_by_key() -> None:
    """RRF-14: seeded keys stay, empty keys are filled, new keys added; all-empty stay ""."""
    lists = [
        lst(c("c", metadata={"a": "1", "b": "", "e": ""})),
        lst(c("x"), c("c", metadata={"a": "9", "b": "2", "d": "4"})),
    ]
    assert dict(fuse(lists)[0].candidate.metadata) == {"a": "1", "b": "2", "d": "4", "e": ""}


def test_path_is_the_best_ranked_in_either_list_order() -> None:
    """RRF-13: c's path is a-new.md (rank 0) whichever list comes first; equal ranks take
    the smaller path."""
    one = lst(c("x", "m.md"), c("c", "z-old.md"))
    two = lst(c("c", "a-new.md"), c("y", "n.md"))
    assert fuse([one, two])[0].candidate.path == fuse([two, one])[0].candidate.path == "a-new.md"
    three, four = lst(c("d", "z.md")), lst(c("d", "a.md"))
    assert fuse([three, four])[0].candidate.path == fuse([four, three])[0].candidate.path == "a.md"
    assert fuse([lst(c("e", "")), lst(c("e", "p.md"))])[0].candidate.path == "p.md"


def test_output_identical_for_every_list_order() -> None:
    """RRF-11: the weighted three-list trap gives the same output in all six orders (no
    titles, so even the filled fields agree)."""
    lists = trap({"a": [0, 6, 1], "b": [1, 0, 6]}, 3)
    lists[0] = RankedList("L0", 0.5, lists[0].items)
    outputs = {
        repr([(f.candidate.to_json(), f.score.hex()) for f in fuse(list(p))])
        for p in itertools.permutations(lists)
    }
    assert len(outputs) == 1


def test_ranking_but_not_titles_independent_of_list_order() -> None:
    """RRF-11: ids, paths and score bits are the same in every order; titles may differ."""
    lists = [
        lst(c("a", title="A1"), c("b", "b1.md"), c("c")),
        lst(c("b", "b0.md", title="B2"), c("a", title="A2")),
        lst(c("c", title="C3"), c("a"), c("b", "b2.md")),
    ]
    rankings = set()
    titles = set()
    for perm in itertools.permutations(lists):
        fused = fuse(list(perm))
        rankings.add(tuple((f.id, f.candidate.path, f.score.hex()) for f in fused))
        titles.add(tuple(f.candidate.title for f in fused))
    assert len(rankings) == 1
    assert len(titles) > 1
