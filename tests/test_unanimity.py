"""The unanimity shortcut, one behaviour per test (spec/unanimity.md)."""

from __future__ import annotations

import pytest

from conformance.ops.fusion import op_unanimity
from reference.rerank import skip_before_unanimity
from reference.types import InvalidInput
from reference.unanimity import UnanimityResult, check


def test_ids_must_be_non_empty_strings() -> None:
    """UNAN-1: the unanimity operation rejects an empty id."""
    with pytest.raises(InvalidInput):
        op_unanimity({"bm25": ["", "b", "c"], "vector": ["b", "c", "d"]})


def test_agreement_is_set_overlap_not_position() -> None:
    """UNAN-2: [A, B, C] and [B, A, C] agree on three ids (positionally only on one)."""
    assert check(list("ABC"), list("BAC")) == UnanimityResult(3, True)


def test_two_agreements_fire() -> None:
    """UNAN-3: two shared ids among the top three fire the shortcut."""
    assert check(list("ABC"), list("ABX")).fired


def test_one_agreement_does_not_fire() -> None:
    """UNAN-3: one shared id is not enough."""
    assert check(list("ABC"), list("XAY")) == UnanimityResult(1, False)


def test_fourth_position_is_ignored() -> None:
    """UNAN-3: an id at position four does not count."""
    assert check(list("ABCD"), list("AXYB")) == UnanimityResult(1, False)


def test_short_leg_reports_overlap_but_never_fires() -> None:
    """UNAN-4: [A, B] against [A, B, C] reports 2 agreements and does not fire."""
    assert check(list("AB"), list("ABC")) == UnanimityResult(2, False)


def test_repeated_id_counts_once() -> None:
    """UNAN-5: [A, A, B] against [A, B, C] shares A and B once each and fires."""
    assert check(list("AAB"), list("ABC")) == UnanimityResult(2, True)


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
