"""Stopwords of the query DSL and their data file (spec/query-dsl.md DSL-10, DSL-11)."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator

import pytest

from reference import text
from reference.data import SpecDataError, data_path, kit_root
from reference.query import is_stopword
from reference.query import stopwords as stopwords_module


@pytest.fixture
def fresh_cache() -> Iterator[None]:
    stopwords_module.stopword_set.cache_clear()
    yield
    stopwords_module.stopword_set.cache_clear()


def _spec_text() -> str:
    return (kit_root() / "spec" / "query-dsl.md").read_text(encoding="utf-8")


def _doc() -> dict[str, object]:
    doc = json.loads(data_path("stopwords.json").read_text(encoding="utf-8"))
    assert isinstance(doc, dict)
    return doc


def test_words_of_at_most_two_code_points_are_stopwords() -> None:
    """DSL-10: length <= 2 in code points makes a stopword, including astral and CJK pairs."""
    assert all(is_stopword(w) for w in ["", "a", "ok", "\u65e5\u672c", "\U0001d41c\U0001d41a"])


def test_three_code_points_not_listed_is_not_a_stopword() -> None:
    """DSL-10: a three-code-point word that is not listed is not a stopword."""
    assert not is_stopword("\u6771\u4eac\u90fd")
    assert not is_stopword("cat")


def test_listed_words_are_stopwords() -> None:
    """DSL-10: listed English and Dutch words are stopwords."""
    assert all(is_stopword(w) for w in ["the", "and", "not", "because", "niet", "omdat"])


def test_comparison_is_exact_not_folded() -> None:
    """DSL-10: the word is compared as given, so The is not a stopword."""
    assert not is_stopword("The")


def test_file_hash_matches_the_spec() -> None:
    """DSL-11: the SHA-256 of spec/data/stopwords.json is the one stated in the spec."""
    stated = re.search(r"SHA-256\s+`([0-9a-f]{64})`", _spec_text())
    assert stated is not None
    digest = hashlib.sha256(data_path("stopwords.json").read_bytes()).hexdigest()
    assert digest == stated.group(1)


def test_file_word_counts_match_the_spec() -> None:
    """DSL-11: the spec states how many words each list holds."""
    doc = _doc()
    spec = _spec_text()
    for lang in ("en", "nl"):
        words = doc[lang]
        assert isinstance(words, list)
        assert f"`{lang}` ({len(words)} words)" in spec


@pytest.mark.parametrize("lang", ["en", "nl"])
def test_listed_words_are_folded_long_sorted_and_unique(lang: str) -> None:
    """DSL-11: every listed word is folded, has >= 3 code points; lists are sorted and unique."""
    words = _doc()[lang]
    assert isinstance(words, list)
    assert all(isinstance(w, str) and text.fold(w) == w and text.length(w) >= 3 for w in words)
    assert words == text.sort_codepoint(sorted(set(words)))


def test_operator_words_are_listed() -> None:
    """DSL-11: and, or and not are in the English list."""
    en = _doc()["en"]
    assert isinstance(en, list)
    assert {"and", "or", "not"} - set(en) == {"or"}  # "or" is short: a stopword by length
    assert is_stopword("or")


def test_missing_file_fails_loudly(fresh_cache: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """DSL-11: a missing stopword file raises instead of meaning an empty list."""
    monkeypatch.setattr(stopwords_module, "STOPWORDS_FILE", "no-such-stopwords.json")
    with pytest.raises(SpecDataError):
        is_stopword("kubernetes")
