"""Reference reranker hrc-lexical-v1 and the optional cross-encoder's error (BACKEND-33..35)."""

from __future__ import annotations

import sys

import pytest

from reference.backends.cross_encoder import CrossEncoderReranker, CrossEncoderUnavailable
from reference.backends.lexical_reranker import (
    LexicalReranker,
    candidate_terms,
    overlap_score,
    query_terms,
)
from reference.backends.protocols import RerankEntry
from reference.types import Candidate

HEAD = [
    Candidate("c1", "a.md", title="Tea", content="I like green tea"),
    Candidate("c2", "b.md", summary="Green TEA preferences", content="x"),
    Candidate("c3", "c.md", content="coffee only"),
]


def no_stopwords(word: str) -> bool:
    return False


def test_name_and_one_entry_per_head_item_in_head_order() -> None:
    """BACKEND-33: named hrc-lexical-v1; every head id once, in head order."""
    rr = LexicalReranker(no_stopwords)
    entries = rr.rerank("green tea", HEAD)
    assert rr.name == "hrc-lexical-v1"
    assert [e.id for e in entries] == ["c1", "c2", "c3"]


def test_empty_head_gives_no_entries() -> None:
    """BACKEND-33: an empty head gives an empty answer, not an error."""
    assert LexicalReranker(no_stopwords).rerank("tea", []) == []


def test_query_terms_drop_stopwords_with_the_dsl_rule() -> None:
    """BACKEND-34: Q is the set of query words that are not DSL stopwords."""
    assert query_terms("What tea do I prefer, tea?", LexicalReranker()._is_stopword) == {
        "tea",
        "prefer",
    }


def test_candidate_terms_cover_title_summary_and_content() -> None:
    """BACKEND-34: D is the union of the words of title, summary and content (folded)."""
    assert candidate_terms(HEAD[1]) == {"green", "tea", "preferences", "x"}


def test_score_is_share_of_query_terms_found() -> None:
    """BACKEND-35: |Q ∩ D| / |Q| as one float division; the spec's 2/3 example."""
    q = frozenset({"green", "tea", "preferences"})
    d = candidate_terms(HEAD[0])
    assert overlap_score(q, d) == 2 / 3 == 0.6666666666666666


def test_empty_query_terms_score_zero() -> None:
    """BACKEND-35: a query of stopwords only scores 0.0 for every candidate."""
    entries = LexicalReranker().rerank("what do I", HEAD)
    assert [e.score for e in entries] == [0.0, 0.0, 0.0]


def test_reranker_is_deterministic() -> None:
    """BACKEND-35: the same query and head always give the same entries."""
    rr = LexicalReranker()
    first = rr.rerank("green tea preferences", HEAD)
    assert first == rr.rerank("green tea preferences", HEAD)
    assert first == [RerankEntry("c1", 2 / 3), RerankEntry("c2", 1.0), RerankEntry("c3", 0.0)]


def test_cross_encoder_without_extra_names_the_package(monkeypatch: pytest.MonkeyPatch) -> None:
    """BACKEND-33: the optional cross-encoder fails clearly, naming its missing extra."""
    monkeypatch.setitem(sys.modules, "sentence_transformers", None)  # import now fails
    with pytest.raises(CrossEncoderUnavailable, match="sentence-transformers"):
        CrossEncoderReranker("some/model").rerank("q", HEAD)
