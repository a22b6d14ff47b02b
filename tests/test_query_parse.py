"""Parsing the query DSL: normalising, operators, phrases, words, stopwords (spec/query-dsl.md)."""

from __future__ import annotations

import re

import pytest

from reference.data import kit_root
from reference.query import ParsedQuery, Token, compile_query, parse
from reference.query.parse import STRIP_SET


def _texts(parsed: ParsedQuery) -> list[str]:
    return [t.text for t in parsed.tokens]


def test_normalised_field_is_text_normalise_with_case_kept() -> None:
    """DSL-1: `normalised` is TEXT-1..4 of the query; upper case is kept for operator detection."""
    assert parse("  Foo\u200b\tAND  Bar ").normalised == "Foo AND Bar"


def test_control_character_separates_words() -> None:
    """DSL-1: a control character becomes a space before scanning, so it splits words."""
    assert _texts(parse("kubernetes\x07setup")) == ["kubernetes", "setup"]


def test_quote_anywhere_means_operators() -> None:
    """DSL-2: a double quote anywhere in the normalised query means it has operators."""
    assert parse('the "x').has_operators is True


@pytest.mark.parametrize("query", ["a AND b", "a OR b", "NOT b"])
def test_exact_upper_case_operator_field_means_operators(query: str) -> None:
    """DSL-2: a space-separated field exactly AND, OR or NOT means the query has operators."""
    assert parse(query).has_operators is True


@pytest.mark.parametrize("query", ["a and b", "a Or b", "NOT* b", "(NOT b)", "a ＡＮＤ b"])
def test_near_miss_operator_fields_are_not_operators(query: str) -> None:
    """DSL-2: lower case, mixed case, glued punctuation and fullwidth forms are not operators."""
    assert parse(query).has_operators is False


def test_bare_word_ends_at_a_quote() -> None:
    """DSL-3: a bare word runs to the next space or quote, so foo"bar" is a term then a phrase."""
    assert [(t.kind, t.text) for t in parse('foo"bar"').tokens] == [
        ("term", "foo"),
        ("phrase", "bar"),
    ]


def test_unterminated_phrase_runs_to_the_end() -> None:
    """DSL-4: an opening quote without a closing one takes the rest of the query."""
    assert parse('alpha "Bravo  Charlie').tokens[1] == Token("phrase", "bravo charlie", None)


def test_strip_set_not_applied_inside_a_phrase() -> None:
    """DSL-4: phrase text keeps strip-set characters; it is only trimmed and lowercased."""
    assert parse('"C++ (v2)"').tokens == (Token("phrase", "c++ (v2)", None),)


def test_empty_phrase_keeps_the_pending_operator() -> None:
    """DSL-4: an empty phrase emits nothing and the operator waits for the next token."""
    assert parse('a1 NOT "" b2').tokens[1] == Token("term", "b2", "NOT")


def test_last_pending_operator_wins() -> None:
    """DSL-5: consecutive operators replace one another; the last is used."""
    assert parse("a1 NOT AND OR b2").tokens[1].operator == "OR"


def test_leading_operator_is_kept_on_the_first_token() -> None:
    """DSL-5: the anchor's "Leading NOT" example keeps NOT on the parsed token."""
    assert parse("NOT alpha").tokens == (Token("term", "alpha", "NOT"),)


def test_leading_operator_is_dropped_by_the_compiler() -> None:
    """DSL-5, DSL-17: the compiled expression has no operator before its first string."""
    assert compile_query(parse("NOT alpha bravo")) == '"alpha" OR "bravo"'


def test_trailing_operator_is_dropped() -> None:
    """DSL-5: an operator with nothing after it emits nothing."""
    assert parse("alpha OR").tokens == (Token("term", "alpha", None),)


def test_trailing_star_makes_a_prefix() -> None:
    """DSL-6: a bare word whose last character is * is a prefix token without its star."""
    assert parse("kube*").tokens == (Token("prefix", "kube", None),)


@pytest.mark.parametrize("query", ["fo*o", "*foo", "foo*."])
def test_star_not_last_makes_a_term(query: str) -> None:
    """DSL-6: only a star in last position makes a prefix."""
    assert parse(query).tokens == (Token("term", "foo", None),)


def test_strip_set_is_exactly_the_31_characters_the_spec_lists() -> None:
    """DSL-7: the strip set is the 31 ASCII characters listed in spec/query-dsl.md."""
    spec = (kit_root() / "spec" / "query-dsl.md").read_text(encoding="utf-8")
    listed = re.search(r"these 31 characters:\s*`` (.+?) ``", spec, re.DOTALL)
    assert listed is not None
    chars = listed.group(1).split()
    assert len(chars) == 31
    assert frozenset(chars) == STRIP_SET
    assert all(ord(c) < 0x80 for c in STRIP_SET)


@pytest.mark.parametrize("ch", sorted(STRIP_SET - {'"', "*"}))
def test_each_strip_character_is_deleted_inside_a_word(ch: str) -> None:
    """DSL-7: every strip character is deleted wherever it sits in a bare word."""
    assert parse(f"ab{ch}cd").tokens == (Token("term", "abcd", None),)


def test_underscore_and_unicode_punctuation_are_kept() -> None:
    """DSL-7: characters outside the ASCII strip set, like _ and an em dash, stay."""
    assert _texts(parse("snake_case na\u00efve\u2014way")) == ["snake_case", "na\u00efve\u2014way"]


def test_word_that_strips_to_nothing_clears_the_operator() -> None:
    """DSL-7: an emptied word emits nothing and clears the pending operator."""
    assert parse("a1 AND ++ b2").tokens[1] == Token("term", "b2", None)


def test_stripping_does_not_renormalise() -> None:
    """DSL-7: e-U+0301t loses the hyphen but is not recomposed to ét."""
    assert _texts(parse("e-\u0301t")) == ["e\u0301t"]


def test_strip_happens_before_lowercasing() -> None:
    """DSL-8: ΟΔΟΣ-Α strips to ΟΔΟΣΑ first, so its sigma lowercases to medial σ."""
    assert _texts(parse("\u039f\u0394\u039f\u03a3-\u0391")) == ["\u03bf\u03b4\u03bf\u03c3\u03b1"]


def test_full_lowercasing_of_dotted_capital_i() -> None:
    """DSL-8: İ becomes i + U+0307 (full lowercasing, no locale)."""
    assert _texts(parse("\u0130zmir")) == ["i\u0307zmir"]


def test_stopwords_dropped_without_operators() -> None:
    """DSL-9: with no operators, stopword terms are dropped."""
    assert _texts(parse("how to set up the cluster")) == ["set", "cluster"]


def test_stopwords_kept_with_operators() -> None:
    """DSL-9: any operator turns stopword filtering off."""
    assert _texts(parse("the AND cluster")) == ["the", "cluster"]


def test_prefix_tokens_are_filtered_like_terms() -> None:
    """DSL-9: in a bare query js* is dropped (two letters); with an operator it is kept."""
    assert parse("js* node*").tokens == (Token("prefix", "node", None),)
    assert parse("js* AND node").tokens[0] == Token("prefix", "js", None)


def test_lowercase_operator_words_are_filler_in_bare_queries() -> None:
    """DSL-9: and, or, not are dropped from a bare query, not (in no anchor list) included."""
    assert _texts(parse("cats not dogs or birds")) == ["cats", "dogs", "birds"]
    assert _texts(parse("cats AND not")) == ["cats", "not"]


def test_cjk_two_character_word_is_dropped_by_code_point_length() -> None:
    """DSL-9: 日本 is 2 code points, so it is dropped; 東京都 is kept."""
    assert _texts(parse("\u65e5\u672c \u6771\u4eac\u90fd")) == ["\u6771\u4eac\u90fd"]


def test_token_json_form_for_plain_tokens() -> None:
    """DSL-15: a non-group token is exactly {kind, text, operator}."""
    assert Token("prefix", "kube", "AND").to_json() == {
        "kind": "prefix",
        "text": "kube",
        "operator": "AND",
    }


def test_parsed_query_json_form() -> None:
    """DSL-15: the parse output is {normalised, hasOperators, tokens}."""
    assert parse("a1 OR b2").to_json() == {
        "normalised": "a1 OR b2",
        "hasOperators": True,
        "tokens": [
            {"kind": "term", "text": "a1", "operator": None},
            {"kind": "term", "text": "b2", "operator": "OR"},
        ],
    }
