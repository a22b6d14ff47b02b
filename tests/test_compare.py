"""The comparator: first difference, every difference, tolerance, timings, one_of."""

from __future__ import annotations

from conformance.judging.compare import check, compare, differences, drop_timings
from conformance.judging.pointer import resolve_pointer
from conformance.judging.tolerances import TOLERANCES
from reference.data import kit_root


def test_first_difference_names_the_field() -> None:
    """A mismatch carries the path, the expected and the actual value."""
    found = compare({"a": {"b": [1, 2]}}, {"a": {"b": [1, 3]}})
    assert found is not None
    assert (found.path, found.expected, found.actual) == ("/a/b/1", 2, 3)


def test_floats_compare_bit_exact_after_parsing() -> None:
    """TEXT-12, TEXT-13 Floats are equal only as the same binary64 value; 1 equals 1.0."""
    assert compare({"s": 0.1 + 0.2}, {"s": 0.30000000000000004}) is None
    assert compare({"s": 0.1 + 0.2}, {"s": 0.3}) is not None
    assert compare({"n": 1}, {"n": 1.0}) is None
    assert compare({"s": 1.0}, {"s": 1}) is None
    assert compare({"s": 0.0}, {"s": -0.0}) is None


def test_a_float_mismatch_shows_both_values_in_full_and_says_bit_exact() -> None:
    """TEXT-13 The message gives both values in round-trip form and the ulp distance."""
    found = compare({"results": [{"multiplier": 2.2 * 0.45}]}, {"results": [{"multiplier": 0.99}]})
    assert found is not None
    assert found.reason == "number differs (bit-exact; 1 ulp apart)"
    assert str(found) == (
        "at /results/0/multiplier: number differs (bit-exact; 1 ulp apart): "
        "expected 0.9900000000000001, got 0.99"
    )


def test_integers_compare_exactly_at_any_size() -> None:
    """TEXT-13 Integers never go through binary64: 10^12 differs from 10^12 + 1, and 2^64 + 1
    from 2^64; a whole float stands for an integer only up to 2^53."""
    found = compare({"dot": 1000000000000}, {"dot": 1000000000001})
    assert found is not None and found.reason == "integer differs (exact)"
    assert compare({"dot": 2**64 + 1}, {"dot": 2**64}) is not None
    assert compare({"dot": 2**64 + 1}, {"dot": 2**64 + 1}) is None
    assert compare({"count": 3}, {"count": 3.0}) is None
    assert compare({"count": 2**53 + 2}, {"count": float(2**53 + 2)}) is not None
    assert compare({"count": 3}, {"count": 3.5}) is not None
    assert compare({"count": 3}, {"count": "3"}) is not None


def test_tolerance_applies_only_to_the_named_field_of_the_named_op() -> None:
    """TEXT-13, OP-3 bm25() scores of fts_search hits compare within 1e-12 relative; the same
    difference elsewhere, or without the op, is bit-exact."""
    a, b = -1.2345678901234, -1.2345678901234 * (1 + 4e-13)
    assert a != b
    assert compare({"hits": [{"score": a}]}, {"hits": [{"score": b}]}, op="fts_search") is None
    found = compare({"hits": [{"score": a}]}, {"hits": [{"score": a * 1.01}]}, op="fts_search")
    assert found is not None
    assert "tolerance 1e-12 relative (field fts_search /hits/*/score)" in found.reason
    assert compare({"hits": [{"score": a}]}, {"hits": [{"score": b}]}, op="rrf") is not None
    assert compare({"hits": [{"score": a}]}, {"hits": [{"score": b}]}) is not None
    assert compare({"hits": [{"dot": a}]}, {"hits": [{"dot": b}]}, op="fts_search") is not None
    nested = {"searches": [{"hits": [{"score": a}]}]}
    assert compare(nested, {"searches": [{"hits": [{"score": b}]}]}, op="index_documents") is None
    expect = {"output": {"hits": [{"score": a}]}}
    assert check(expect, {"hits": [{"score": b}]}, "fts_search") is None


def test_the_tolerance_table_is_the_spec_table() -> None:
    """TEXT-13 conformance/judging/tolerances.py and the table in spec/portability.md name the same
    fields with the same tolerances, in the same order."""
    text = (kit_root() / "spec" / "portability.md").read_text(encoding="utf-8")
    block = text.split("<!-- tolerances:begin -->")[1].split("<!-- tolerances:end -->")[0]
    rows = [line for line in block.strip().splitlines()[2:] if line.startswith("|")]
    spec = []
    for row in rows:
        op, pointer, tolerance, _why = (cell.strip() for cell in row.strip("|").split("|"))
        spec.append((op.strip("`"), pointer.strip("`"), float(tolerance)))
    code = [(t.op, t.pointer, t.relative) for t in TOLERANCES]
    assert spec == code
    assert len(code) >= 1


def test_set_mode_pairs_elements_under_the_same_number_rules() -> None:
    """TEXT-13 A multiset comparison is bit-exact too, and integers stay exact."""
    assert compare({"l": [0.1 + 0.2, 1]}, {"l": [1, 0.30000000000000004]}, "set") is None
    assert compare({"l": [0.1 + 0.2, 1]}, {"l": [1, 0.3]}, "set") is not None
    assert compare({"l": [2**64 + 1]}, {"l": [2**64]}, "set") is not None


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
        ("/a", "integer differs (exact)"),
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


# -- PROTO-47: expect.absent ---------------------------------------------------------------------


def test_a_member_the_case_lists_as_absent_fails_when_present() -> None:
    """PROTO-47: a partial expectation plus `absent` catches a member the port must not emit."""
    expect = {"output": {"a": 1}, "compare": "partial", "absent": ["/trace/graph"]}
    found = check(expect, {"a": 1, "trace": {"graph": {"ran": False}}})
    assert found is not None
    assert (found.path, found.actual) == ("/trace/graph", {"ran": False})


def test_a_member_the_case_lists_as_absent_passes_when_missing() -> None:
    """PROTO-47: a missing member, or a missing parent, is absent."""
    expect = {"output": {"a": 1}, "compare": "partial", "absent": ["/trace/graph", "/x/y"]}
    assert check(expect, {"a": 1, "trace": {"vector": {}}}) is None


def test_absent_pointers_unescape_and_index_lists_as_rfc_6901_says() -> None:
    """PROTO-47: `~1` is `/`, `~0` is `~`, a list step is a decimal index without leading 0."""
    doc = {"a/b": {"m~n": [10, 20]}}
    assert resolve_pointer(doc, "/a~1b/m~0n/1") == (True, 20)
    assert resolve_pointer(doc, "/a~1b/m~0n/01") == (False, None)
    assert resolve_pointer(doc, "/a~1b/m~0n/2") == (False, None)
    assert resolve_pointer(doc, "") == (True, doc)
