"""The comparator: first difference, every difference, tolerance, timings, one_of."""

from __future__ import annotations

from conformance.compare import check, compare, differences, drop_timings


def test_first_difference_names_the_field() -> None:
    """A mismatch carries the path, the expected and the actual value."""
    found = compare({"a": {"b": [1, 2]}}, {"a": {"b": [1, 3]}})
    assert found is not None
    assert (found.path, found.expected, found.actual) == ("/a/b/1", 2, 3)


def test_numbers_compare_within_the_relative_tolerance() -> None:
    """Scores equal within 1e-12 relative, and 1 equals 1.0 (TEXT-12, TEXT-13)."""
    assert compare({"s": 0.1 + 0.2}, {"s": 0.3}) is None
    assert compare({"n": 1}, {"n": 1.0}) is None
    assert compare({"s": 0.3}, {"s": 0.30001}) is not None


def test_booleans_are_not_numbers() -> None:
    """true never equals 1."""
    assert compare({"x": True}, {"x": 1}) is not None


def test_partial_ignores_unlisted_fields_and_set_ignores_order() -> None:
    """`partial` skips fields the case does not list; `set` compares lists as multisets."""
    assert compare({"a": 1}, {"a": 1, "b": 2}, "partial") is None
    assert compare({"a": 1}, {"a": 1, "b": 2}) is not None
    assert compare({"l": [1, 2, 2]}, {"l": [2, 1, 2]}, "set") is None
    assert compare({"l": [1, 2, 2]}, {"l": [2, 1, 1]}, "set") is not None


def test_differences_lists_every_difference_in_document_order() -> None:
    """`differences` yields them all; the first equals `compare`'s answer."""
    found = list(differences({"a": 1, "b": [1, 2], "c": 3}, {"a": 2, "b": [1], "d": 4}))
    assert [(m.path, m.reason) for m in found] == [
        ("/a", "number differs"),
        ("/b", "list length differs"),
        ("/c", "missing field"),
        ("/d", "unexpected field"),
    ]
    assert compare({"a": 1, "c": 3}, {"a": 2}) == found[0]


def test_timings_are_dropped_at_every_depth() -> None:
    """`timings` keys vanish wherever they are (TRACE-2)."""
    value = {"timings": 1, "trace": {"timings": {"x": 1}, "k": [{"timings": 2, "v": 3}]}}
    assert drop_timings(value) == {"trace": {"k": [{"v": 3}]}}


def test_check_ignores_timings_in_the_output() -> None:
    """PROTO-20 A port's timings never make an exact comparison fail."""
    assert check({"output": {"a": 1}}, {"a": 1, "timings": {"totalMs": 3}}) is None


def test_one_of_reports_the_closest_option() -> None:
    """A one_of mismatch points into the acceptable output that is nearest."""
    expect = {"one_of": [{"a": 1, "b": 1}, {"a": 2, "b": 2}]}
    assert check(expect, {"a": 2, "b": 2}) is None
    found = check(expect, {"a": 2, "b": 3})
    assert found is not None
    assert (found.path, found.expected, found.actual) == ("/b", 2, 3)
    assert "closest is option 1" in found.reason


def test_output_where_an_error_is_expected_is_a_mismatch() -> None:
    """An expected error cannot be satisfied by an output."""
    found = check({"error": "invalid_input"}, {"x": 1})
    assert found is not None and found.reason == "expected an error, got an output"
