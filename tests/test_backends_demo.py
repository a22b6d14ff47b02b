"""The demo corpus on the real backends: what the four demo queries rely on (BACKEND-41)."""

from __future__ import annotations

from functools import cache

import pytest

from reference.backends.indexer import CorpusBackends, corpus_dir, open_corpus
from reference.text import words


@cache
def demo() -> CorpusBackends:
    return open_corpus("demo")


def trigram_set(word: str) -> set[str]:
    padded = f"${word}$"
    return {padded[i : i + 3] for i in range(len(padded) - 2)}


def similar(a: str, b: str) -> bool:
    """Jaccard of padded trigram sets >= 0.3, tested in integers."""
    ta, tb = trigram_set(a), trigram_set(b)
    return 10 * len(ta & tb) >= 3 * len(ta | tb)


def ids(expression: str, limit: int = 60) -> list[str]:
    return [c.id for c in demo().index.search_bm25(expression, limit)]


def vector_ids(query: str, limit: int = 60) -> list[str]:
    corpus = demo()
    return [c.id for c in corpus.vectors.search_vector(corpus.embedder.embed(query), limit)]


def test_demo_corpus_is_indexed_with_every_backend() -> None:
    """BACKEND-41: every file indexed; vectors for every chunk; hrc-lexical-v1 configured."""
    corpus = demo()
    files = [p for p in corpus_dir("demo").rglob("*") if p.suffix in (".md", ".txt")]
    assert len(corpus.report.added) == len(files) >= 100
    assert len(corpus.vectors) == len(corpus.index.chunks())
    assert (corpus.embedder.name, corpus.reranker.name) == ("hrc-hash-v1", "hrc-lexical-v1")


def test_demo_corpus_has_the_promised_variety() -> None:
    """BACKEND-41: preference notes, dated facts, roll-ups, near-duplicate slugs, non-ASCII."""
    paths = {c.path for c in demo().index.chunks()}
    contents = "\n".join(c.content for c in demo().index.chunks())
    assert any(p.startswith("memory/global/user-preference-") for p in paths)
    assert "[date: 2024-05-01]" in contents
    assert {"projects/kubernetes/kubernetes-setup.md",
            "projects/kubernetes/kubernetes-setup-notes.md"} <= paths
    assert all(s in contents for s in ("café", "Zürich", "東京"))
    assert sum(1 for c in demo().index.chunks() if len(c.content) > 800) >= 3


def test_ladder_query_initial_and_expression_has_zero_hits() -> None:
    """BACKEND-41: `kubernetes AND helicopter` compiles to an AND that matches nothing."""
    assert ids('"kubernetes" AND "helicopter"') == []


def test_ladder_query_strongest_term_has_hits() -> None:
    """BACKEND-41: the strongest term `kubernetes` alone has hits (the ladder stops there)."""
    assert len(ids('"kubernetes"')) >= 5


@pytest.mark.parametrize(("typo", "word"), [("kubernets", "kubernetes"), ("postgress", "postgres")])
def test_typo_has_no_fts_hits_but_a_trigram_neighbour(typo: str, word: str) -> None:
    """BACKEND-41: the typo matches no FTS term; a content word is trigram-similar (>= 0.3)."""
    assert ids(f'"{typo}"') == []
    content_words = {w for c in demo().index.chunks() for w in words(c.content)}
    assert typo not in content_words
    assert word in content_words and similar(typo, word)


def test_unanimity_query_legs_agree_on_two_of_top_three() -> None:
    """BACKEND-41: for `sourdough starter` BM25 and vector top-3 share at least two ids."""
    bm25 = ids('"sourdough" OR "starter"')[:3]
    vec = vector_ids("sourdough starter")[:3]
    assert len(bm25) == len(vec) == 3
    assert len(set(bm25) & set(vec)) >= 2


def test_preference_query_memory_note_is_not_first_before_intent() -> None:
    """BACKEND-41: for `tea`/`prefer` BM25 ranks raw tea notes above the memory note."""
    got = ids('"tea" OR "prefer"')
    note = "memory/global/user-preference-tea.md#0"
    assert note in got[:5] and got.index(note) > 0
    assert not got[0].startswith("memory/")


def test_fact_query_dated_fact_is_below_a_rollup_before_intent() -> None:
    """BACKEND-41: for `upgrade`/`postgres` a recap outranks the dated fact note in BM25."""
    got = ids('"upgrade" OR "postgres"')
    fact = "memory/facts/fact-postgres-16-upgrade.md#0"
    recap = "projects/postgres/weekly-recap-2024-w18.md#0"
    assert got.index(recap) < got.index(fact) < 10
    chunks = {c.id: c for c in demo().index.chunks()}
    assert "[date: " in chunks[fact].content
    assert "recap" in chunks[recap].content.lower() and len(chunks[recap].content) > 240


def test_anchor_preference_query_memory_notes_are_not_first_before_intent() -> None:
    """BACKEND-41: for `recommend`/`tea` BM25 ranks raw tea notes above both preference notes."""
    got = ids('"recommend" OR "tea"')
    notes = [f"memory/global/user-preference-{n}.md#0" for n in ("tea", "tea-shop")]
    assert all(n in got[:5] for n in notes)
    assert got[:2] == ["recipes/iced-tea.md#0", "travel/kyoto-tea-ceremony.md#0"]


def test_anchor_fact_query_dated_fact_is_below_plan_recap_and_overview_before_intent() -> None:
    """BACKEND-41: for `completed`/`postgres`/`upgrade` the dated fact is fourth in BM25."""
    got = ids('"completed" OR "postgres" OR "upgrade"')
    assert got.index("memory/facts/fact-postgres-16-upgrade.md#0") == 3
    assert got[:3] == [
        "projects/postgres/postgres-upgrade-plan.md#0",
        "projects/postgres/weekly-recap-2024-w18.md#0",
        "projects/postgres/overview.md#0",
    ]
