"""Stopwords of the query DSL, their named lists and data files (spec/query-dsl.md DSL-10, DSL-11,
DSL-22)."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from reference import text
from reference.data import SpecDataError, data_path, kit_root
from reference.query import is_stopword
from reference.query import stopwords as stopwords_module
from reference.types import InvalidInput

ANCHOR_NOTES = Path("/work/shared/notes/anchor-data")
FILES = {"anchor": "stopwords-anchor.json", "hrc-1.0": "stopwords-hrc-1.0.json"}


@pytest.fixture
def fresh_cache() -> Iterator[None]:
    stopwords_module.stopword_set.cache_clear()
    yield
    stopwords_module.stopword_set.cache_clear()


def _spec_text() -> str:
    return (kit_root() / "spec" / "query-dsl.md").read_text(encoding="utf-8")


def _doc(name: str = "anchor") -> dict[str, object]:
    doc = json.loads(data_path(FILES[name]).read_text(encoding="utf-8"))
    assert isinstance(doc, dict)
    return doc


def test_words_of_at_most_two_code_points_are_stopwords() -> None:
    """DSL-10: length <= 2 in code points makes a stopword, including astral and CJK pairs."""
    for name in FILES:
        words = ["", "a", "ok", "\u65e5\u672c", "\U0001d41c\U0001d41a"]
        assert all(is_stopword(w, name) for w in words)


def test_three_code_points_not_listed_is_not_a_stopword() -> None:
    """DSL-10: a three-code-point word that is not listed is not a stopword."""
    assert not is_stopword("\u6771\u4eac\u90fd")
    assert not is_stopword("cat")


def test_listed_words_are_stopwords() -> None:
    """DSL-10: listed English and Dutch words are stopwords, in each named list."""
    assert all(is_stopword(w) for w in ["the", "and", "because", "niet", "omdat", "buiten"])
    assert all(is_stopword(w, "hrc-1.0") for w in ["the", "and", "not", "because", "niet"])


def test_comparison_is_exact_not_folded() -> None:
    """DSL-10: the word is compared as given, so The is not a stopword."""
    assert not is_stopword("The")


def test_lists_differ_in_both_directions() -> None:
    """DSL-11, DSL-22: anchor-only words and hrc-1.0-only words, each way round."""
    for word in ["near", "tips", "please", "buiten"]:
        assert is_stopword(word) and not is_stopword(word, "hrc-1.0")
    for word in ["not", "however", "dont", "daar"]:
        assert not is_stopword(word) and is_stopword(word, "hrc-1.0")


def test_default_list_is_anchor() -> None:
    """DSL-22: absent or null means anchor; unknown names are invalid input."""
    assert stopwords_module.DEFAULT_LIST == "anchor"
    assert stopwords_module.check_list(None) == "anchor"
    assert stopwords_module.check_list("hrc-1.0") == "hrc-1.0"
    for bad in ["Anchor", "", "hrc-2.0", 1, ["anchor"]]:
        with pytest.raises(InvalidInput):
            stopwords_module.check_list(bad)


@pytest.mark.parametrize("name", sorted(FILES))
def test_file_hash_matches_the_spec(name: str) -> None:
    """DSL-11: the SHA-256 of each list's file is the one stated next to its name in the spec."""
    stated = re.search(
        r"`spec/data/" + re.escape(FILES[name]) + r"` \(SHA-256\s+`([0-9a-f]{64})`", _spec_text()
    )
    assert stated is not None
    digest = hashlib.sha256(data_path(FILES[name]).read_bytes()).hexdigest()
    assert digest == stated.group(1)


@pytest.mark.parametrize("name", sorted(FILES))
def test_file_word_counts_match_the_spec(name: str) -> None:
    """DSL-11: the spec states how many words each list holds."""
    doc = _doc(name)
    spec = _spec_text()
    for lang in ("en", "nl"):
        words = doc[lang]
        assert isinstance(words, list)
        assert f"`{lang}` ({len(words)} words)" in spec


@pytest.mark.parametrize("name", sorted(FILES))
@pytest.mark.parametrize("lang", ["en", "nl"])
def test_listed_words_are_folded_ascii_sorted_and_unique(name: str, lang: str) -> None:
    """DSL-11: every listed word is folded ASCII without spaces; lists are sorted and unique."""
    words = _doc(name)[lang]
    assert isinstance(words, list)
    assert all(isinstance(w, str) and text.fold(w) == w for w in words)
    assert all(w.isascii() and " " not in w and w for w in words)
    assert words == text.sort_codepoint(sorted(set(words)))


@pytest.mark.parametrize("lang", ["en", "nl"])
def test_hrc_words_have_three_code_points(lang: str) -> None:
    """DSL-11: every hrc-1.0 word has at least 3 code points."""
    words = _doc("hrc-1.0")[lang]
    assert isinstance(words, list)
    assert all(text.length(w) >= 3 for w in words)


def test_anchor_short_entries_change_nothing() -> None:
    """DSL-11: the anchor lists 1-2 code point words; they are stopwords by length anyway."""
    short = [w for lang in ("en", "nl") for w in _doc()[lang] if text.length(w) <= 2]  # type: ignore[attr-defined]
    assert {"a", "am", "ik"} <= set(short)
    assert all(text.length(w) <= stopwords_module.MAX_SHORT_LENGTH for w in short)


def test_anchor_file_is_the_anchor_data_verbatim() -> None:
    """DSL-11: the anchor lists equal the anchor's fixtures, word for word and in order."""
    if not ANCHOR_NOTES.is_dir():
        pytest.skip("the anchor's fixtures are only present on the authoring machine")
    doc = _doc()
    for lang in ("en", "nl"):
        anchor = json.loads((ANCHOR_NOTES / f"stopwords-{lang}.json").read_text(encoding="utf-8"))
        assert doc[lang] == anchor


def test_anchor_provenance_recorded() -> None:
    """DSL-11: the anchor file records where its words come from."""
    prov = _doc()["provenance"]
    assert isinstance(prov, dict)
    assert prov["repository"] == "jeffs-brain/memory"
    assert prov["commit"] == "22a586e"
    assert prov["licence"] == "Apache-2.0"
    assert prov["paths"] == ["spec/fixtures/stopwords/en.json", "spec/fixtures/stopwords/nl.json"]
    assert isinstance(_doc("hrc-1.0")["provenance"], dict)


def test_operator_words() -> None:
    """DSL-11: and is listed in both; not only in hrc-1.0; or is a stopword by its length."""
    en, old = _doc()["en"], _doc("hrc-1.0")["en"]
    assert isinstance(en, list) and isinstance(old, list)
    assert "and" in en and "not" not in en and "or" in en
    assert {"and", "not"} <= set(old) and "or" not in old
    assert is_stopword("or", "hrc-1.0")


def test_old_file_name_is_gone() -> None:
    """DSL-11: the 1.0 file name is removed, so a port loading it fails loudly."""
    assert not (kit_root() / "spec" / "data" / "stopwords.json").exists()


def test_missing_file_fails_loudly(fresh_cache: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """DSL-11: a missing stopword file raises instead of meaning an empty list."""
    monkeypatch.setitem(stopwords_module.LIST_FILES, "anchor", "no-such-stopwords.json")
    with pytest.raises(SpecDataError):
        is_stopword("kubernetes")


def test_request_names_the_list() -> None:
    """DSL-22, PIPE-1: the request's stopwordList, absent or null meaning anchor."""
    from reference.request import parse_request

    assert parse_request({"query": "q"}).stopword_list == "anchor"
    assert parse_request({"query": "q", "stopwordList": None}).stopword_list == "anchor"
    assert parse_request({"query": "q", "stopwordList": "hrc-1.0"}).stopword_list == "hrc-1.0"
    with pytest.raises(InvalidInput, match=r"request\.stopwordList"):
        parse_request({"query": "q", "stopwordList": "english"})
