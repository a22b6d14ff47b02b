"""Alias tables and their expansion into groups (spec/query-dsl.md DSL-12..DSL-14, D16)."""

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


def test_short_key_fires_before_stopword_filtering() -> None:
    """DSL-13: ml is a stopword by length but still expands, and is never dropped."""
    tokens = parse("ml models", {"ml": ["machine learning"]}).tokens
    assert [t.kind for t in tokens] == ["group", "term"]


def test_prefix_and_phrase_are_not_expanded() -> None:
    """DSL-13: only term tokens are looked up."""
    assert parse('k8s* "k8s"', TABLE).tokens == (
        Token("prefix", "k8s", None),
        Token("phrase", "k8s", None),
    )


def test_group_members_original_first_then_table_order() -> None:
    """DSL-14: the original term, then each alternative in order; several words make a phrase."""
    group = parse("k8s", TABLE).tokens[0]
    assert [(m.kind, m.text) for m in group.members] == [
        ("term", "k8s"),
        ("term", "kubernetes"),
        ("phrase", "kube cluster"),
    ]


def test_members_deduplicated_by_kind_and_text() -> None:
    """DSL-14: ML and Machine-Learning repeat earlier members and are dropped."""
    group = parse("ml", {"ml": ["ML", "machine learning", "Machine-Learning"]}).tokens[0]
    assert [(m.kind, m.text) for m in group.members] == [
        ("term", "ml"),
        ("phrase", "machine learning"),
    ]


def test_group_with_one_member_stays_a_term() -> None:
    """DSL-14: {"ml": ["ML"]} leaves ml a plain term."""
    assert parse("ml", {"ml": ["ML"]}).tokens == (Token("term", "ml", None),)


def test_alternative_without_words_adds_nothing() -> None:
    """DSL-14: an alternative of punctuation only contributes no member."""
    group = parse("db", {"db": ["?!", "database"]}).tokens[0]
    assert [m.text for m in group.members] == ["db", "database"]


def test_group_carries_the_operator_and_members_carry_none() -> None:
    """DSL-14: NOT goes to the whole group, never to one alternative."""
    group = parse("k8s NOT ml", TABLE).tokens[1]
    assert group.operator == "NOT"
    assert all(m.operator is None for m in group.members)


def test_group_json_form_has_members() -> None:
    """DSL-15: a group token adds members: [{kind, text}]."""
    assert parse("ml", {"ml": ["AI"]}).tokens[0].to_json() == {
        "kind": "group",
        "text": "ml",
        "operator": None,
        "members": [{"kind": "term", "text": "ml"}, {"kind": "term", "text": "ai"}],
    }
