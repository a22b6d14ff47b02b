"""The sanitised form read by the ladder's refreshed_sanitised rung (DSL-20, DSL-21)."""

from __future__ import annotations

from reference.query import Sanitised, sanitise


def test_tokens_are_words_minus_stopwords() -> None:
    """DSL-20: words (TEXT-7) with stopwords removed, in order, duplicates kept."""
    assert sanitise("How do I set up the cluster, the cluster?").tokens == (
        "set",
        "cluster",
        "cluster",
    )


def test_operator_words_and_characters_are_gone() -> None:
    """DSL-20: AND/OR/NOT fold to filler words, dropped under both lists; quotes, stars P∪S."""
    query = '"big data" AND spark* NOT x'
    assert sanitise(query, None, "hrc-1.0").tokens == ("big", "data", "spark")
    assert sanitise(query).tokens == ("big", "data", "spark")  # not: filler, no anchor stopword


def test_alias_key_is_filtered_like_any_word() -> None:
    """DSL-20: stopwords go before alias expansion, so the short key ml is dropped."""
    assert sanitise("ml ops", {"ml": ["machine learning"]}).tokens == ("ops",)


def test_expression_is_terms_joined_by_or() -> None:
    """DSL-21: each token quoted, joined by OR."""
    assert sanitise("kubernetes setup").expression == '"kubernetes" OR "setup"'


def test_expression_replaces_alias_keys() -> None:
    """DSL-21: alias keys are replaced by their alternatives; tokens stay unexpanded."""
    result = sanitise("k8s AND mlx", {"k8s": ["kubernetes"], "mlx": ["machine learning"]})
    assert result == Sanitised(
        tokens=("k8s", "mlx"),
        expression='"kubernetes" OR "machine learning"',
    )


def test_nothing_left_gives_empty_expression() -> None:
    """DSL-21: no tokens give the empty expression."""
    assert sanitise("the AND of") == Sanitised(tokens=(), expression="")
