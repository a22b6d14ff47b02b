"""Alias tables and their expansion (spec/query-dsl.md DSL-12..DSL-14): the anchor's way."""

from __future__ import annotations

import pytest

from reference.query import Token, parse, validate_aliases
from reference.types import InvalidInput

TABLE = {"k8s": ["kubernetes", "Kube Cluster"], "ml": ["machine learning", "ml"]}


@pytest.mark.parametrize(
    "table",
    [
        ["k8s"],
        "k8s",
        {"k8s": "kubernetes"},
        {"k8s": ["kubernetes", 8]},
        {"k8s": None},
        {1: ["one"]},
    ],
)
def test_wrong_shapes_are_invalid_input(table: object) -> None:
    """DSL-12: anything but an object of string -> list of strings is invalid_input."""
    with pytest.raises(InvalidInput):
        validate_aliases(table)


def test_keys_folding_alike_are_invalid_input() -> None:
    """DSL-12: K8s and k8s fold to one key; the table is rejected rather than order-dependent."""
    with pytest.raises(InvalidInput):
        validate_aliases({"K8s": ["a"], "k8s": ["b"]})


@pytest.mark.parametrize("key", ["", " ", "\u200b"])
def test_key_empty_after_folding_is_invalid_input(key: str) -> None:
    """DSL-12: a key that folds to the empty string is rejected."""
    with pytest.raises(InvalidInput):
        validate_aliases({key: ["x"]})


def test_validated_table_has_folded_keys_and_alternatives() -> None:
    """DSL-12: keys and alternatives are folded (TEXT-1..5); None is the empty table."""
    assert validate_aliases({" K8S\u200b": ["Kube  Cluster"]}) == {"k8s": ["kube cluster"]}
    assert validate_aliases(None) == {}


def test_stopword_filtering_runs_before_alias_expansion() -> None:
    """DSL-13: in a bare query the two-letter key ml is dropped before it can expand."""
    assert parse("ml models", {"ml": ["machine learning"]}).tokens == (
        Token("term", "models", None),
    )
    assert parse("ml AND models", {"ml": ["machine learning"]}).tokens[0] == Token(
        "phrase", "machine learning", None
    )


def test_prefix_and_phrase_are_not_expanded() -> None:
    """DSL-13: only term tokens are looked up."""
    assert parse('k8s* "k8s"', TABLE).tokens == (
        Token("prefix", "k8s", None),
        Token("phrase", "k8s", None),
    )


def test_term_replaced_by_alternatives_in_table_order() -> None:
    """DSL-14: the original term is not kept; one word makes a term, several a phrase."""
    assert parse("k8s", TABLE).tokens == (
        Token("term", "kubernetes", None),
        Token("phrase", "kube cluster", None),
    )


def test_alternatives_deduplicated_by_kind_and_text() -> None:
    """DSL-14: MLX and Machine-Learning repeat earlier alternatives and are dropped."""
    tokens = parse("mlx", {"mlx": ["MLX", "machine learning", "Machine-Learning"]}).tokens
    assert [(t.kind, t.text) for t in tokens] == [("term", "mlx"), ("phrase", "machine learning")]


def test_key_without_usable_alternatives_stays_the_term() -> None:
    """DSL-14: no alternative with a word leaves the term as it is."""
    assert parse("dbs", {"dbs": ["?!"]}).tokens == (Token("term", "dbs", None),)
    assert parse("dbs", {"dbs": []}).tokens == (Token("term", "dbs", None),)


def test_alternative_without_words_adds_nothing() -> None:
    """DSL-14: an alternative of punctuation only gives no token."""
    assert [t.text for t in parse("dbs", {"dbs": ["?!", "database"]}).tokens] == ["database"]


def test_operator_goes_to_the_first_alternative_only() -> None:
    """DSL-14: NOT is attached to the first expanded token; the others default to OR."""
    tokens = parse("k8s NOT ml", TABLE).tokens
    assert [(t.text, t.operator) for t in tokens] == [
        ("kubernetes", None),
        ("kube cluster", None),
        ("machine learning", "NOT"),
        ("ml", None),
    ]


def test_token_json_has_no_members() -> None:
    """DSL-15: every token, an expanded one too, is exactly {kind, text, operator}."""
    assert parse("mlx", {"mlx": ["AI"]}).tokens[0].to_json() == {
        "kind": "term",
        "text": "ai",
        "operator": None,
    }
