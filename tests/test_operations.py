"""The operation contract (spec/operations.md OP-*), checked on the reference's handlers."""

from __future__ import annotations

from typing import Any

import pytest

from conformance.adapters.ops import registry
from conformance.judging.compare import check
from reference.types import InvalidInput

OPS = registry()


def test_unknown_top_level_input_fields_are_ignored() -> None:
    """OP-1: an extra top-level field changes nothing."""
    plain = OPS["rrf"]({"lists": [{"items": [{"id": "a", "path": "a.md"}]}]})
    extra = OPS["rrf"]({"lists": [{"items": [{"id": "a", "path": "a.md"}]}], "note": "later"})
    assert plain == extra


def test_outputs_have_only_the_listed_fields() -> None:
    """OP-1: an output with an extra field does not pass an exact comparison."""
    out: dict[str, Any] = OPS["length"]({"text": "abc"})
    assert check({"output": {"length": 3}}, out) is None
    assert check({"output": {"length": 3}}, {**out, "extra": 1}) is not None


@pytest.mark.parametrize(
    ("op", "bad"),
    [
        ("rrf", {"lists": [{"items": [{"id": "", "path": "a.md"}]}]}),
        ("rrf", {"lists": [], "k": 1.5}),
        ("length", {"text": 3}),
        ("search", {"request": {"query": ""}, "backends": {}}),
    ],
)
def test_rejected_inputs_answer_with_a_listed_error_kind(op: str, bad: dict[str, Any]) -> None:
    """OP-2: the error carries the kind invalid_input."""
    with pytest.raises(InvalidInput) as info:
        OPS[op](bad)
    assert info.value.kind == "invalid_input"


def test_lists_are_ordered_and_numbers_compared_after_parsing() -> None:
    """OP-3: a permuted list fails; 1e-07 and 1.0E-7 are the same number."""
    assert check({"output": {"xs": ["a", "b"]}}, {"xs": ["b", "a"]}) is not None
    assert check({"output": {"score": 1e-07}}, {"score": float("1.0E-7")}) is None


@pytest.mark.parametrize("value", [2, 2.0, 2e0])
def test_whole_numbers_are_integers_however_written(value: float) -> None:
    """OP-4: 2, 2.0 and 2e0 are the same integer input."""
    out = OPS["trigram_search"]({"tokens": ["abc"], "chunks": [
        {"id": "x", "path": "x.md", "content": "abc"},
        {"id": "y", "path": "y.md", "content": "abc"},
        {"id": "z", "path": "z.md", "content": "abc"}], "candidateK": value})
    assert [h["id"] for h in out["hits"]] == ["x", "y"]


@pytest.mark.parametrize("value", [2.5, True, "2"])
def test_non_whole_numbers_are_rejected(value: object) -> None:
    """OP-4: 2.5 is not an integer and true is not a number."""
    with pytest.raises(InvalidInput):
        OPS["trigram_search"]({"tokens": ["abc"], "chunks": [], "candidateK": value})
