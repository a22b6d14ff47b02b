"""The portability rules every stage shares (spec/portability.md TEXT-1..TEXT-13)."""

from __future__ import annotations

import json
import math

from conformance.judging.compare import compare, numbers_equal
from reference import text
from reference.strongest import strongest_term


def test_exactly_the_anchors_four_zero_width_code_points_are_deleted() -> None:
    """TEXT-1: U+200B, U+200C, U+200D, U+FEFF go; U+2060, U+00AD and U+180E stay."""
    assert text.normalise("a\u200bb\u200cc\u200dd\ufeffe") == "abcde"
    assert text.normalise("co\u00adop\u180ex\u2060y") == "co\u00adop\u180ex\u2060y"


def test_non_whitespace_controls_become_spaces() -> None:
    """TEXT-2: NUL, bell, U+001C..U+001F, DEL and C1 controls separate words."""
    assert text.normalise("a\x00b\x07c\x1cd\x1fe\x7ff\x80g\x9fh") == "a b c d e f g h"


def test_nfc_runs_before_zero_width_deletion() -> None:
    """TEXT-3: NFC first (the anchor's order), so e + ZWSP + U+0301 stays e U+0301."""
    assert text.normalise("e\u200b\u0301") == "e\u0301"
    assert text.normalise("e\u0301\u200b") == "\u00e9"


def test_whitespace_is_exactly_unicode_white_space() -> None:
    """TEXT-4: the 25 White_Space code points split; U+180E, U+200B, U+FEFF do not."""
    members = [chr(c) for c in range(0x110000) if chr(c) in text.WHITESPACE]
    assert len(members) == 25
    assert all(text.split_whitespace(f"a{ws}b") == ["a", "b"] for ws in members)
    assert text.split_whitespace("a\u180eb") == ["a\u180eb"]
    assert text.split_whitespace("a\x1cb") == ["a\x1cb"]  # a space only by TEXT-2


def test_full_lowercasing_without_locale() -> None:
    """TEXT-5: İ gives i + U+0307 and a word-final Σ gives ς."""
    assert text.fold("\u0130") == "i\u0307"
    assert text.fold("\u039f\u0394\u039f\u03a3") == "\u03bf\u03b4\u03bf\u03c2"


def test_punct_symbol_table_is_unicode_14() -> None:
    """TEXT-6: U+20C0 (Unicode 14) and _ are in the table; U+1FAE9 (Unicode 16) is not."""
    assert text.is_punct_symbol("\u20c0")
    assert text.is_punct_symbol("_")
    assert not text.is_punct_symbol("\U0001fae9")


def test_words_fold_replace_punct_symbol_and_split() -> None:
    """TEXT-7: words are folded, P∪S becomes a space, then the text is split."""
    assert text.words("snake_case\u00a0C++") == ["snake", "case", "c"]


def test_length_counts_code_points() -> None:
    """TEXT-8: astral letters count once each; CJK characters count once each."""
    assert text.length("\U0001d41c\U0001d41a\U0001d42d") == 3
    assert text.length("\u65e5\u672c") == 2


def test_strings_sort_by_code_point() -> None:
    """TEXT-9: U+FF5E sorts before U+1F600 (UTF-16 order would reverse them)."""
    assert text.sort_codepoint(["\U0001f600.md", "\uff5e.md", "B.md", "a.md"]) == [
        "B.md",
        "a.md",
        "\uff5e.md",
        "\U0001f600.md",
    ]


def test_longest_ties_go_to_the_leftmost() -> None:
    """TEXT-10: among equally long candidates the first wins (pasta, not pizza)."""
    assert strongest_term(["pasta", "pizza"]) == "pasta"
    assert strongest_term(["kino", "\u00fcber"]) == "kino"


def test_non_finite_scores_are_never_equal() -> None:
    """TEXT-11: non-finite values are errors, so the comparator never calls them equal."""
    assert not numbers_equal(float("nan"), float("nan"))
    assert not numbers_equal(float("inf"), float("inf"))


def test_numbers_are_parsed_not_compared_as_text() -> None:
    """TEXT-12: 1e-07, 1e-7 and 1.0E-7 are equal, and -0 equals 0."""
    a, b, c, z = json.loads("[1e-07, 1e-7, 1.0E-7, -0]")
    assert compare({"s": a}, {"s": b}) is None
    assert compare({"s": a}, {"s": c}) is None
    assert compare({"s": 0.0}, {"s": z}) is None
    assert compare({"s": 0.0}, {"s": -0.0}) is None


def test_floats_compare_bit_exact_and_integers_exactly() -> None:
    """TEXT-13: one ulp apart is a difference; integers never go through binary64."""
    x = 0.01639344262295082
    assert numbers_equal(x, float(repr(x)))
    assert not numbers_equal(x, math.nextafter(x, 1.0))
    assert compare({"n": 1000000000000}, {"n": 1000000000001}) is not None
    assert compare({"n": 2**64 + 1}, {"n": 2**64}) is not None
    assert compare({"rank": 3}, {"rank": 3.5}) is not None
    assert compare({"id": "a"}, {"id": "a "}) is not None
