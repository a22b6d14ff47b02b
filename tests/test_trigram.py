"""Trigram fuzzy matching (spec/trigram.md, TRI-*)."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conformance.adapters.ops import registry
from reference.trigram import (
    TrigramHit,
    TrigramIndex,
    chunk_words,
    is_similar,
    jaccard,
    trigram_search,
    trigrams,
)
from reference.types import Candidate, InvalidInput


def chunk(cid: str, content: str, path: str | None = None, title: str = "") -> Candidate:
    return Candidate(id=cid, path=path if path is not None else f"{cid}.md", title=title,
                     content=content)


def pair(a: str, b: str) -> tuple[int, int]:
    return jaccard(trigrams(a), trigrams(b))


def ids(hits: Sequence[TrigramHit]) -> list[str]:
    return [h.candidate.id for h in hits]


# --- TRI-2: trigrams -------------------------------------------------------------------------


def test_trigrams_of_a_word_are_padded_three_code_point_substrings() -> None:
    """TRI-2: `cat` is padded to `$cat$` and gives `$ca`, `cat`, `at$`."""
    assert trigrams("cat") == {"$ca", "cat", "at$"}


def test_one_letter_word_has_one_trigram() -> None:
    """TRI-2: `a` gives {`$a$`}: no word is too short to have a trigram."""
    assert trigrams("a") == {"$a$"}


def test_empty_word_has_no_trigrams() -> None:
    """TRI-2: the empty string has no three-code-point substring of `$$`."""
    assert trigrams("") == frozenset()


def test_repeated_trigrams_count_once() -> None:
    """TRI-2: `aaaa` has four positions but three distinct trigrams."""
    assert trigrams("aaaa") == {"$aa", "aaa", "aa$"}


def test_astral_word_is_sliced_by_code_point() -> None:
    """TRI-2: a word of three astral code points has three trigrams, not six UTF-16 slices."""
    assert len(trigrams("\U0001d41c\U0001d41a\U0001d42d")) == 3


def test_decomposed_accent_is_its_own_code_point() -> None:
    """TRI-2: trigrams are over code points, not grapheme clusters (`e` + U+0301 is two)."""
    assert trigrams("e\u0301") == {"$e\u0301", "e\u0301$"}


# --- TRI-3, TRI-5: jaccard and threshold -------------------------------------------------------


def test_jaccard_is_the_unreduced_pair() -> None:
    """TRI-3: 6 of 20 stays (6, 20), never reduced to (3, 10)."""
    assert pair("abcdefghijklm", "abcdefgnopqrs") == (6, 20)


def test_exactly_three_tenths_is_similar() -> None:
    """TRI-5: `abcdef` ~ `abcdxyz` share 3 of 10 trigrams and that is similar."""
    assert pair("abcdef", "abcdxyz") == (3, 10)
    assert is_similar(3, 10)


def test_two_sevenths_is_not_similar() -> None:
    """TRI-5: 2/7 (0.2857…) is below the threshold."""
    assert pair("abcd", "abcxy") == (2, 7)
    assert not is_similar(2, 7)


def test_empty_union_is_not_similar() -> None:
    """TRI-5: with no trigrams at all nothing is similar, even though 10·0 >= 3·0."""
    assert pair("", "") == (0, 0)
    assert not is_similar(0, 0)


def test_accented_word_matches_plain_by_code_points() -> None:
    """TRI-5: `café` ~ `cafe` is 2 of 6 (similar); byte slicing would give 2 of 7."""
    assert pair("caf\u00e9", "cafe") == (2, 6)
    assert is_similar(2, 6)


def test_astral_words_sharing_no_code_point_trigram_are_dissimilar() -> None:
    """TRI-3: `𝐜𝐚𝐭` ~ `𝐜𝐨𝐭` is 0 of 6; UTF-16 slices would share surrogate fragments."""
    assert pair("\U0001d41c\U0001d41a\U0001d42d", "\U0001d41c\U0001d428\U0001d42d") == (0, 6)


@given(st.integers(0, 50), st.integers(1, 50))
def test_threshold_matches_exact_rational(i: int, u: int) -> None:
    """TRI-5: the integer test equals the exact comparison i/u >= 3/10."""
    assert is_similar(i, u) == (Fraction(i, u) >= Fraction(3, 10))


# --- TRI-1, TRI-4, TRI-6, TRI-7: search --------------------------------------------------------


def test_typo_finds_the_chunk_whose_content_has_the_word() -> None:
    """TRI-1: `kubernets` matches content word `kubernetes` (7 of 12)."""
    chunks = [chunk("c1", "Kubernetes setup"), chunk("c2", "pasta")]
    hits = trigram_search(["kubernets"], chunks, 10)
    assert [(h.candidate.id, h.intersection, h.union) for h in hits] == [("c1", 7, 12)]


def test_path_and_title_are_not_searched() -> None:
    """TRI-1: only content counts; a matching path or title gives no hit."""
    c = chunk("c1", "unrelated words", path="wiki/kubernetes.md", title="Kubernetes")
    assert trigram_search(["kubernetes"], [c], 10) == []


def test_content_is_folded_and_split_into_words() -> None:
    """TRI-1: content words are TEXT-7 words: folded, P∪S splits (`_` included)."""
    hits = trigram_search(["guide"], [chunk("c1", "SNAKE_GUIDE")], 10)
    assert [(h.intersection, h.union) for h in hits] == [(5, 5)]


def test_repeated_chunk_id_is_rejected() -> None:
    """TRI-1: chunk ids must be unique."""
    with pytest.raises(InvalidInput):
        TrigramIndex([chunk("c1", "a"), chunk("c1", "b")])


def test_best_pair_is_reported_not_the_first_similar_word() -> None:
    """TRI-4: `kubernet` (7/10) beats the earlier `kubernetes` (7/12)."""
    hits = trigram_search(["kubernets"], [chunk("c1", "kubernetes kubernet")], 10)
    assert (hits[0].intersection, hits[0].union) == (7, 10)


def test_equal_ratio_keeps_the_first_token() -> None:
    """TRI-4: tokens are the outer loop; (3, 9) from the first token beats a later (2, 6)."""
    c = chunk("c1", "cafe abcdxy")
    first = trigram_search(["abcdef", "caf\u00e9"], [c], 10)[0]
    second = trigram_search(["caf\u00e9", "abcdef"], [c], 10)[0]
    assert (first.intersection, first.union) == (3, 9)
    assert (second.intersection, second.union) == (2, 6)


def test_equal_ratio_keeps_the_first_word() -> None:
    """TRI-4: within one token, the first word in content order wins a tie of ratios."""
    a = trigram_search(["abcdef"], [chunk("c1", "abcdeuvwxy abcdxy")], 10)[0]
    b = trigram_search(["abcdef"], [chunk("c1", "abcdxy abcdeuvwxy")], 10)[0]
    assert (a.intersection, a.union) == (4, 12)
    assert (b.intersection, b.union) == (3, 9)


def test_order_is_similarity_then_path_then_id() -> None:
    """TRI-6: higher similarity first; equal ratios by path, then id, by code point."""
    chunks = [
        chunk("c2", "cafe", path="b.md"),
        chunk("c10", "cafe", path="b.md"),
        chunk("c3", "abcdxy", path="a.md"),
        chunk("c4", "abcdef", path="z.md"),
    ]
    assert ids(trigram_search(["abcdef", "caf\u00e9"], chunks, 10)) == ["c4", "c3", "c10", "c2"]


def test_path_order_is_code_point_not_utf16() -> None:
    """TRI-6: U+FF41 sorts before U+1D41A although UTF-16 puts the surrogate first."""
    chunks = [chunk("x", "cat", path="\U0001d41a.md"), chunk("y", "cat", path="\uff41.md")]
    assert ids(trigram_search(["cat"], chunks, 10)) == ["y", "x"]


def test_truncation_happens_after_ordering() -> None:
    """TRI-7: the best `limit` hits survive, whatever their input position."""
    chunks = [chunk("c1", "abcdxyz"), chunk("c2", "cafe"), chunk("c3", "abcdef")]
    assert ids(trigram_search(["abcdef"], chunks, 1)) == ["c3"]


def test_limit_below_one_is_rejected() -> None:
    """TRI-7: the search itself needs a limit of at least 1 (the operation maps <= 0 to 60)."""
    with pytest.raises(InvalidInput):
        trigram_search(["a"], [chunk("c1", "a")], 0)


def test_no_tokens_or_no_chunks_give_no_hits() -> None:
    """TRI-4: with no pair to compare there is no hit."""
    assert trigram_search([], [chunk("c1", "cat")], 5) == []
    assert trigram_search(["cat"], [], 5) == []


# --- the inverted index against a brute-force oracle -----------------------------------------


def _oracle(
    tokens: Sequence[str], chunks: Sequence[Candidate], limit: int
) -> list[tuple[str, int, int]]:
    """Direct reading of TRI-1..7 with Fractions and nested loops, no index."""
    from reference.text import codepoint_key, words

    found: list[tuple[Fraction, str, str, int, int]] = []
    for c in chunks:
        cw = list(dict.fromkeys(words(c.content)))
        best: tuple[int, int] | None = None
        for t in tokens:
            tt = {("$" + t + "$")[i : i + 3] for i in range(len(t))}
            for w in cw:
                ww = {("$" + w + "$")[i : i + 3] for i in range(len(w))}
                i, u = len(tt & ww), len(tt | ww)
                r = Fraction(i, u) if u else Fraction(0)
                if best is None or r > (Fraction(*best) if best[1] else 0):
                    best = (i, u)
        if best is not None and best[1] and Fraction(*best) >= Fraction(3, 10):
            found.append((Fraction(*best), c.path, c.id, best[0], best[1]))
    found.sort(key=lambda f: (-f[0], codepoint_key(f[1]), codepoint_key(f[2])))
    return [(f[2], f[3], f[4]) for f in found[:limit]]


_LETTERS = st.text(alphabet="abcde\u00e9\U0001d41a", min_size=1, max_size=6)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(_LETTERS, max_size=3),
    st.lists(st.lists(_LETTERS, max_size=5), max_size=6),
    st.integers(1, 4),
)
def test_index_agrees_with_brute_force(
    tokens: list[str], contents: list[list[str]], limit: int
) -> None:
    """TRI-4: the indexed search returns exactly what a nested-loop reading of TRI-1..7 gives."""
    chunks = [chunk(f"c{i}", " ".join(ws), path=f"p{i % 2}.md") for i, ws in enumerate(contents)]
    got = [(h.candidate.id, h.intersection, h.union) for h in trigram_search(tokens, chunks, limit)]
    assert got == _oracle(tokens, chunks, limit)


_TRICKY = st.text(
    alphabet="aΣς\u0301\u0130 .,_\u00a0\t\u200b\u001f\u0345e\u00e9\U0001d41a", max_size=20
)


@settings(max_examples=300, deadline=None)
@given(_TRICKY)
def test_chunk_words_equal_text_words(content: str) -> None:
    """TRI-1: the per-piece speed-up gives exactly the distinct TEXT-7 words of the content."""
    from reference.text import words

    assert chunk_words(content) == tuple(dict.fromkeys(words(content)))


def test_index_is_reusable_across_searches() -> None:
    """TRI-1: trigram sets are computed once; a second search sees the same chunks."""
    index = TrigramIndex([chunk("c1", "kubernetes"), chunk("c2", "pasta")])
    assert ids(index.search(["kubernets"], 5)) == ["c1"]
    assert ids(index.search(["pastas"], 5)) == ["c2"]


# --- operations --------------------------------------------------------------------------------

OPS = registry()


def test_trigrams_op_sorts_by_code_point() -> None:
    """TRI-2: the `trigrams` op lists the set sorted by TEXT-9 (astral after U+FF42)."""
    out = OPS["trigrams"]({"word": "\uff42\U0001d41a\uff42"})
    assert out == {"trigrams": ["$\uff42\U0001d41a", "\uff42\U0001d41a\uff42", "\U0001d41a\uff42$"]}


def test_jaccard_op_reports_pair_and_verdict() -> None:
    """TRI-5: the `jaccard` op answers intersection, union and similar."""
    assert OPS["jaccard"]({"a": "straße", "b": "strasse"}) == {
        "intersection": 3,
        "union": 10,
        "similar": True,
    }


def test_trigram_search_op_rejects_boolean_candidate_k() -> None:
    """TRI-7: `candidateK: true` is not an integer."""
    with pytest.raises(InvalidInput):
        OPS["trigram_search"]({"tokens": ["a"], "chunks": [], "candidateK": True})


def test_trigram_search_op_defaults_candidate_k_to_60() -> None:
    """TRI-7: without candidateK at most 60 hits come back."""
    chunks = [{"id": f"c{i:02d}", "path": "p.md", "content": "cat"} for i in range(61)]
    out = OPS["trigram_search"]({"tokens": ["cat"], "chunks": chunks})
    assert len(out["hits"]) == 60
    assert out["hits"][-1]["id"] == "c59"


@pytest.mark.parametrize("low", [0, -3, -0.5])
def test_trigram_search_op_candidate_k_at_or_below_zero_means_60(low: float) -> None:
    """TRI-7: candidateK <= 0 is the default 60 (PIPE-13): 61 matching chunks give 60 hits."""
    chunks = [{"id": f"c{i:02d}", "path": f"p{i:02d}.md", "content": "cat"} for i in range(61)]
    out = OPS["trigram_search"]({"tokens": ["cat"], "chunks": chunks, "candidateK": low})
    assert len(out["hits"]) == 60
