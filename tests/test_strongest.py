"""The strongest term (spec/ladder.md LADDER-8, LADDER-9)."""

from __future__ import annotations

import pytest

from conformance.adapters.ops import registry
from reference.strongest import ladder_stopwords, strongest_term

OPS = registry()


def term(query: str) -> str:
    result: str = OPS["strongest_term"]({"query": query})["term"]
    return result


def test_longest_word_wins() -> None:
    """LADDER-8: the longest word by code points is the strongest."""
    assert strongest_term(["helm", "kubernetes", "setup"]) == "kubernetes"


def test_ties_go_to_the_leftmost() -> None:
    """LADDER-8: `pasta` and `pizza` tie at 5; the leftmost wins (TEXT-10)."""
    assert strongest_term(["pasta", "pizza"]) == "pasta"


def test_length_counts_code_points_not_utf16_units() -> None:
    """LADDER-8: `𝐜𝐚𝐭` is 3 code points (6 UTF-16 units), so `dogs` is longer."""
    assert strongest_term(["\U0001d41c\U0001d41a\U0001d42d", "dogs"]) == "dogs"


def test_length_counts_code_points_not_bytes() -> None:
    """LADDER-8: `über` is 4 code points (5 bytes) and ties `kino`, which is leftmost."""
    assert strongest_term(["kino", "\u00fcber"]) == "kino"


def test_stopwords_are_never_strongest() -> None:
    """LADDER-8: a listed stopword is skipped even when it is the longest word."""
    assert strongest_term(["recommendations", "helm"]) == "helm"
    assert strongest_term(["themselves", "helm"], "hrc-1.0") == "helm"


def test_short_words_are_stopwords() -> None:
    """LADDER-8: words of two code points are stopwords; `ok 𝐜𝐚` has no strongest term."""
    assert strongest_term(["ok", "\U0001d41c\U0001d41a"]) == ""


def test_no_words_give_empty_string() -> None:
    """LADDER-8: nothing eligible gives ""."""
    assert strongest_term([]) == ""


def test_phrase_words_are_eligible() -> None:
    """LADDER-9: the sanitised words include a phrase's words, so `kubernetes` wins."""
    assert term('"kubernetes cluster" setup') == "kubernetes"


def test_the_ladder_has_its_own_stopword_set() -> None:
    """LADDER-8: under `anchor` the ladder's STOP_WORDS apply, not the DSL lists."""
    assert term("weekend plans") == "plans"  # weekend: ladder only
    assert term("between us") == "between"  # between: DSL list only
    assert strongest_term(["weekend", "plans"], "hrc-1.0") == "weekend"  # hrc-1.0 keeps 1.0


def test_words_split_on_punctuation_not_strip_set() -> None:
    """LADDER-9: `x-ray` gives the words x and ray (TEXT-7), not the DSL term xray."""
    assert term("c++ x-ray") == "ray"


def test_prefix_tokens_are_eligible_without_star() -> None:
    """LADDER-9: `kubernetes*` contributes its text `kubernetes`."""
    assert term("kubernetes* dns") == "kubernetes"


def test_negated_terms_are_eligible() -> None:
    """LADDER-9: tokens count whatever their operator, NOT included."""
    assert term("helm NOT kubernetes") == "kubernetes"


def test_operator_keywords_are_not_terms() -> None:
    """LADDER-9: AND/OR/NOT are operators, and with operators stopwords still never win."""
    assert term("recommendations AND helm") == "helm"


def test_query_is_normalised_before_measuring() -> None:
    """LADDER-9: `cafe` + U+0301 is NFC `café` (4), tying `bars`, which is leftmost."""
    assert term("bars cafe\u0301") == "bars"


def test_ladder_stopwords_are_the_anchors_verbatim_data_with_provenance() -> None:
    """LADDER-8: spec/data/stopwords-ladder.json: 94 distinct words, folded, with provenance."""
    import json
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "spec" / "data" / "stopwords-ladder.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    words = doc["words"]
    assert len(words) == len(set(words)) == 94
    assert all(w == w.lower() and " " not in w for w in words)
    assert words[:4] == ["the", "a", "an", "and"]  # the anchor's source order, not sorted
    prov = doc["provenance"]
    assert (prov["repository"], prov["commit"], prov["licence"]) == (
        "jeffs-brain/memory",
        "22a586e",
        "Apache-2.0",
    )
    assert prov["paths"] == ["sdks/ts/memory/src/retrieval/retry.ts"]
    assert ladder_stopwords() == frozenset(words)


def test_a_missing_ladder_file_fails_loudly(monkeypatch: pytest.MonkeyPatch) -> None:
    """LADDER-8: without its data file the strongest term raises; it never runs unfiltered."""
    from reference import strongest
    from reference.data import SpecDataError

    def missing(name: str) -> object:
        raise SpecDataError(f"{name} is missing")

    strongest.ladder_stopwords.cache_clear()
    monkeypatch.setattr(strongest, "load_json", missing)
    try:
        with pytest.raises(SpecDataError):
            strongest.strongest_term(["weekend", "plans"])
    finally:
        monkeypatch.undo()
        strongest.ladder_stopwords.cache_clear()
