"""Reciprocal Rank Fusion, one behaviour per test (spec/rrf.md)."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import pytest

from conformance.ops.fusion import op_rrf
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


@pytest.mark.parametrize("bad", [0, -1, 1.5, "60", True, None, 2**31, math.inf])
def test_k_must_be_a_whole_number_in_range(bad: object) -> None:
    """RRF-1: k outside [1, 2^31 - 1] or not a whole number is invalid_input."""
    with pytest.raises(InvalidInput):
        check_k(bad)


def test_k_as_whole_float_is_accepted() -> None:
    """RRF-1: 60.0 is the same k as 60 because JSON cannot tell them apart."""
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


def test_duplicate_in_a_list_counts_once_and_keeps_positions() -> None:
    """RRF-4: [x, x, y] scores x once at rank 0 and y at rank 2."""
    fused = fuse([lst(c("x"), c("x"), c("y"))])
    assert [(f.id, f.score) for f in fused] == [("x", 1 / 61), ("y", 1 / 63)]


def test_empty_id_is_invalid_even_in_a_zero_weight_list() -> None:
    """RRF-5: an empty id is rejected, never skipped."""
    with pytest.raises(InvalidInput):
        fuse([lst(c(""), weight=0.0)])


def test_score_sums_over_lists_that_contain_the_id() -> None:
    """RRF-5: b in two lists sums 1/61 + 1/62; a list without the id adds nothing."""
    fused = fuse([lst(c("a"), c("b")), lst(c("b"), c("c")), lst()])
    assert [(f.id, f.score) for f in fused] == [
        ("b", 0.03252247488101534),
        ("a", 1 / 61),
        ("c", 1 / 62),
    ]


def test_exact_value_is_the_rational_sum() -> None:
    """RRF-6: `exact` is Σ exact(w)/(k+r+1) with the binary64 weight's exact value."""
    fused = fuse([lst(c("a"), weight=0.1), lst(c("x"), c("a"))])
    assert fused[0].exact == Fraction(0.1) / 61 + Fraction(1, 62)


def test_order_uses_exact_score_not_float() -> None:
    """RRF-6: a.md and b.md tie exactly at 1/24 though b's float is larger; path decides."""
    lists = trap({"a": [11, 11, 11], "b": [5, 5, 27]}, 3)
    fused = {f.id: f for f in fuse(lists)}
    assert fused["b"].score > fused["a"].score
    assert fused["a"].exact == fused["b"].exact == Fraction(1, 24)
    assert ids(lists)[:2] == ["a", "b"]


def test_order_uses_exact_score_when_floats_underflow() -> None:
    """RRF-6: with weight 5e-324 every float is 0.0 but rank 0 still ranks first."""
    fused = fuse([lst(c("a", "z.md"), c("b", "a.md"), weight=5e-324)])
    assert [(f.id, f.score) for f in fused] == [("a", 0.0), ("b", 0.0)]


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
    """RRF-8: equal scores order by path, then by id, independent of list order."""
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


def test_merge_takes_the_lowest_rank_non_empty_value() -> None:
    """RRF-10: an empty title at rank 0 yields to a non-empty one at rank 1."""
    lists = [lst(c("c", title="")), lst(c("x"), c("c", title="Kept"))]
    assert fuse(lists)[0].candidate.title == "Kept"


def test_merge_equal_ranks_take_the_smallest_value() -> None:
    """RRF-10: equal ranks pick the smallest value by code point in either list order."""
    one, two = lst(c("c", title="beta")), lst(c("c", title="alpha"))
    assert fuse([one, two])[0].candidate.title == fuse([two, one])[0].candidate.title == "alpha"


def test_merge_metadata_key_by_key() -> None:
    """RRF-10: metadata keys merge independently; all-empty keys stay as ""."""
    lists = [
        lst(c("c", metadata={"a": "1", "b": "", "e": ""})),
        lst(c("x"), c("c", metadata={"a": "9", "b": "2"})),
    ]
    assert dict(fuse(lists)[0].candidate.metadata) == {"a": "1", "b": "2", "e": ""}


def test_ranks_map_list_names_to_ranks() -> None:
    """RRF-2: `ranks` records the 0-based rank per list name for the pipeline."""
    fused = fuse([lst(c("a"), c("b"), name="bm25"), lst(c("b"), name="vector")])
    assert dict(fused[0].ranks) == {"bm25": 1, "vector": 0}


def test_output_identical_for_every_list_order() -> None:
    """RRF-11: the weighted three-list trap gives the same output in all six orders."""
    lists = trap({"a": [0, 6, 1], "b": [1, 0, 6]}, 3)
    lists[0] = RankedList("L0", 0.5, lists[0].items)
    outputs = {
        repr([(f.candidate.to_json(), f.score.hex()) for f in fuse(list(p))])
        for p in itertools.permutations(lists)
    }
    assert len(outputs) == 1
