"""The unanimity shortcut, one behaviour per test (spec/unanimity.md)."""

from __future__ import annotations

import pytest

from conformance.adapters.ops.fusion import op_unanimity
from reference.rerank import skip_before_unanimity
from reference.types import InvalidInput
from reference.unanimity import UnanimityResult, check


def test_ids_must_be_non_empty_strings() -> None:
    """UNAN-7: the unanimity operation rejects an empty id and a missing leg."""
    with pytest.raises(InvalidInput):
        op_unanimity({"bm25": ["", "b", "c"], "vector": ["b", "c", "d"]})
    with pytest.raises(InvalidInput):
        op_unanimity({"bm25": ["a", "b", "c"]})


def test_the_check_reads_each_legs_own_order() -> None:
    """UNAN-1: the two lists are compared as given, so reversing one leg changes the count."""
    assert check(list("ABC"), list("ABC")) == UnanimityResult(3, True)
    assert check(list("ABC"), list("CBA")) == UnanimityResult(1, False)


def test_agreement_is_positional_not_set_overlap() -> None:
    """UNAN-2: [A, B, C] and [B, A, C] share three ids but agree at one position only."""
    assert check(list("ABC"), list("BAC")) == UnanimityResult(1, False)
    assert check(list("ABC"), list("CAB")) == UnanimityResult(0, False)


def test_two_agreements_fire() -> None:
    """UNAN-3: two equal positions among the top three fire the shortcut."""
    assert check(list("ABC"), list("ABX")) == UnanimityResult(2, True)


def test_one_agreement_does_not_fire() -> None:
    """UNAN-3: one equal position is not enough."""
    assert check(list("ABC"), list("AXY")) == UnanimityResult(1, False)


def test_fourth_position_is_ignored() -> None:
    """UNAN-3: an equal id at position four does not count."""
    assert check(list("ABCD"), list("AXYD")) == UnanimityResult(1, False)


@pytest.mark.parametrize(("bm25", "vector"), [("AB", "ABC"), ("ABC", "AB"), ("A", "A"), ("", "")])
def test_short_leg_is_not_compared(bm25: str, vector: str) -> None:
    """UNAN-4: with fewer than three entries in a leg the anchor returns nothing: 0, no fire."""
    assert check(list(bm25), list(vector)) == UnanimityResult(0, False)


def test_repeated_id_counts_per_position() -> None:
    """UNAN-5: [A, A, B] agrees with [A, B, C] at one position and with [A, A, C] at two."""
    assert check(list("AAB"), list("ABC")) == UnanimityResult(1, False)
    assert check(list("AAB"), list("AAC")) == UnanimityResult(2, True)


def test_repeat_pushes_later_ids_out_of_the_top_three() -> None:
    """UNAN-5: in [A, A, B, C] the id C is fourth and no longer counts."""
    assert check(list("AABC"), list("CXY")) == UnanimityResult(0, False)


def test_check_is_reached_only_after_the_earlier_skips() -> None:
    """UNAN-6: unanimity is consulted only when rerank is enabled, configured and non-empty."""
    assert skip_before_unanimity(True, True, 3) is None
    assert skip_before_unanimity(False, True, 3) == "disabled"
    assert skip_before_unanimity(True, True, 0) == "empty"


def test_single_leg_never_fires() -> None:
    """UNAN-6: an empty second leg gives 0 agreements, so one-leg searches never skip."""
    assert check(list("ABC"), []) == UnanimityResult(0, False)
