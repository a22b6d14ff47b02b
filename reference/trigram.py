"""Trigram fuzzy matching over chunk content, the last ladder rung (spec/trigram.md, TRI-*).

Pure functions over code points with exact integer arithmetic: similarity is a rational
intersection/union compared by cross-multiplication, so no port depends on float rounding.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, overload

import numpy as np
import numpy.typing as npt

from reference.text import codepoint_key, words
from reference.types import Candidate, InvalidInput

PAD = "$"


def trigrams(word: str) -> frozenset[str]:
    """TRI-2: the set of 3-code-point substrings of `$word$` (`a` gives {`$a$`}; `` gives {})."""
    padded = f"{PAD}{word}{PAD}"
    return frozenset(padded[i : i + 3] for i in range(len(padded) - 2))


def jaccard(a: frozenset[str], b: frozenset[str]) -> tuple[int, int]:
    """TRI-3: the Jaccard ratio as the exact pair (|a ∩ b|, |a ∪ b|), never as a float."""
    return len(a & b), len(a | b)


def is_similar(intersection: int, union: int) -> bool:
    """TRI-5: similar iff union > 0 and 10·intersection >= 3·union (exactly 3/10 is similar)."""
    return union > 0 and 10 * intersection >= 3 * union


def _greater(a: tuple[int, int], b: tuple[int, int]) -> bool:
    """TRI-3: a/b ratios compared by cross-multiplication; an empty union counts as 0."""
    ai, au = a
    bi, bu = b
    return ai * (bu or 1) > bi * (au or 1)


@dataclass(frozen=True)
class TrigramHit:
    """A chunk that passed TRI-5 with the (intersection, union) of its best pair (TRI-4)."""

    candidate: Candidate
    intersection: int
    union: int

    def to_json(self) -> dict[str, object]:
        return {
            "id": self.candidate.id,
            "path": self.candidate.path,
            "intersection": self.intersection,
            "union": self.union,
        }


def chunk_words(content: str, memo: dict[str, list[str]] | None = None) -> tuple[str, ...]:
    """TRI-1: the distinct words (TEXT-7) of a chunk's content, in first-occurrence order.

    Speed-up only: TEXT-7 is applied to each U+0020-separated piece (memoised across chunks).
    That equals words(content): U+0020 composes with nothing under NFC, is not case-ignorable
    (so Final_Sigma never looks across it) and always separates words.
    """
    cache: dict[str, list[str]] = {} if memo is None else memo
    found: dict[str, None] = {}
    for piece in content.split(" "):
        piece_words = cache.get(piece)
        if piece_words is None:
            piece_words = words(piece)
            cache[piece] = piece_words
        for word in piece_words:
            found.setdefault(word, None)
    return tuple(found)


def _order_key(hit: TrigramHit) -> tuple[Fraction, str, str]:
    """TRI-6: similarity descending (exact), then path, then id, both by code point."""
    return (
        -Fraction(hit.intersection, hit.union),
        codepoint_key(hit.candidate.path),
        codepoint_key(hit.candidate.id),
    )


class TrigramIndex:
    """TRI-1..7: trigram sets of every chunk's content words, computed once, searched many times.

    An inverted index (trigram -> words -> chunks) keeps a search proportional to the words that
    share a trigram with a token; pairs sharing none have similarity 0 and can never be a hit.
    """

    def __init__(self, chunks: Sequence[Candidate]) -> None:
        seen: set[str] = set()
        for chunk in chunks:
            if chunk.id in seen:
                raise InvalidInput(f"chunk id {chunk.id!r} appears more than once (TRI-1)")
            seen.add(chunk.id)
        self._chunks: tuple[Candidate, ...] = tuple(chunks)
        self._chunk_words: Sequence[Sequence[int]] = []
        self._vocab: dict[str, int] = {}
        self._word_grams: Sequence[frozenset[str]] = []
        self._postings: Sequence[Sequence[int]] = []
        self._by_gram: Mapping[str, Sequence[int]] = {}
        by_gram: dict[str, list[int]] = {}
        word_grams: list[frozenset[str]] = []
        chunk_words_: list[tuple[int, ...]] = []
        postings: list[list[int]] = []
        memo: dict[str, list[str]] = {}
        for position, chunk in enumerate(self._chunks):
            ids: list[int] = []
            for word in chunk_words(chunk.content, memo):
                wid = self._vocab.get(word)
                if wid is None:
                    wid = len(word_grams)
                    self._vocab[word] = wid
                    grams = trigrams(word)
                    word_grams.append(grams)
                    postings.append([])
                    for gram in grams:
                        by_gram.setdefault(gram, []).append(wid)
                postings[wid].append(position)
                ids.append(wid)
            chunk_words_.append(tuple(ids))
        self._chunk_words = chunk_words_
        self._postings = postings
        self._word_grams = word_grams
        self._by_gram = by_gram

    @classmethod
    def from_word_ids(
        cls,
        chunks: Sequence[Candidate],
        vocabulary: Sequence[str],
        word_ids: npt.NDArray[np.int32],
        offsets: npt.NDArray[np.int64],
        gram_index: GramIndex | None = None,
        postings: tuple[npt.NDArray[Any], npt.NDArray[np.int64]] | None = None,
    ) -> TrigramIndex:
        """TRI-1..7 over word lists computed earlier (stored by the index at index time):
        chunk i's distinct words, in first-occurrence order, are
        vocabulary[word_ids[offsets[i]:offsets[i + 1]]]. Searches equal TrigramIndex(chunks):
        word numbering never changes a result (tables are keyed, orders come from the chunk's
        word order and the query's token order). `gram_index` (gram -> word ids, stored too)
        saves computing every word's trigrams; without it, it is built here. `postings` (the
        output of word_postings for these word lists, stored too) saves the sort."""
        self = cls.__new__(cls)
        self._chunks = tuple(chunks)
        self._chunk_words = _Slices(word_ids, offsets)
        self._vocab = {}
        self._word_grams = _LazyGrams(vocabulary)
        self._by_gram = gram_index if gram_index is not None else GramIndex.build(vocabulary)
        if postings is None:
            postings = word_postings(word_ids, offsets, len(vocabulary))
        self._postings = _Slices(*postings)
        return self

    def __len__(self) -> int:
        return len(self._chunks)

    def _similar_words(self, token: str) -> dict[int, tuple[int, int]]:
        """Every vocabulary word similar to `token` (TRI-5), with its (intersection, union)."""
        grams = trigrams(token)
        shared: set[int] = set()
        for gram in grams:
            shared.update(self._by_gram.get(gram, ()))
        out: dict[int, tuple[int, int]] = {}
        for wid in shared:
            pair = jaccard(grams, self._word_grams[wid])
            if is_similar(*pair):
                out[wid] = pair
        return out

    def search(self, tokens: Sequence[str], limit: int) -> list[TrigramHit]:
        """TRI-4..7: chunks whose best (token, word) pair is similar, ordered, at most `limit`."""
        if limit < 1:
            raise InvalidInput(f"limit must be >= 1, got {limit}")
        per_token = [self._similar_words(token) for token in tokens]
        touched: set[int] = set()
        for table in per_token:
            for wid in table:
                touched.update(self._postings[wid])
        hits: list[TrigramHit] = []
        for position in sorted(touched):
            best = self._best_pair(per_token, self._chunk_words[position])
            if best is not None:
                hits.append(TrigramHit(self._chunks[position], best[0], best[1]))
        hits.sort(key=_order_key)
        return hits[:limit]

    @staticmethod
    def _best_pair(
        per_token: Iterable[dict[int, tuple[int, int]]], chunk_word_ids: Sequence[int]
    ) -> tuple[int, int] | None:
        """TRI-4: tokens in query order, words in first-occurrence order; the first best wins."""
        best: tuple[int, int] | None = None
        for table in per_token:
            for wid in chunk_word_ids:
                pair = table.get(wid)
                if pair is not None and (best is None or _greater(pair, best)):
                    best = pair
        return best


def word_postings(
    word_ids: npt.NDArray[Any], offsets: npt.NDArray[np.int64], n_words: int
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """(positions, starts): the chunk positions holding word w, ascending, are
    positions[starts[w]:starts[w + 1]], for chunk word lists given as flat ids and offsets."""
    holders = np.repeat(np.arange(len(offsets) - 1, dtype=np.int64), np.diff(offsets))
    order = np.argsort(word_ids, kind="stable")
    counts = np.bincount(word_ids, minlength=n_words)
    starts = np.concatenate(([0], np.cumsum(counts))).astype(np.int64)
    return holders[order], starts


class _LazyGrams(Sequence[frozenset[str]]):
    """TRI-2: the trigram set of vocabulary[i], computed when first asked for."""

    def __init__(self, vocabulary: Sequence[str]) -> None:
        self._vocabulary = vocabulary
        self._cache: dict[int, frozenset[str]] = {}

    def __len__(self) -> int:
        return len(self._vocabulary)

    @overload
    def __getitem__(self, i: int) -> frozenset[str]: ...
    @overload
    def __getitem__(self, i: slice) -> list[frozenset[str]]: ...
    def __getitem__(self, i: int | slice) -> frozenset[str] | list[frozenset[str]]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        grams = self._cache.get(i)
        if grams is None:
            grams = self._cache[i] = trigrams(self._vocabulary[i])
        return grams


class GramIndex(Mapping[str, Sequence[int]]):
    """Gram -> ids of the vocabulary words holding it (ascending), as sorted grams and a flat
    array with offsets: stored by the index at index time and loaded without a Python loop
    over the vocabulary."""

    def __init__(
        self, grams: Sequence[str], offsets: npt.NDArray[np.int64], wids: npt.NDArray[np.int32]
    ) -> None:
        self.grams = grams
        self.offsets = offsets
        self.wids = wids
        self._slices = _Slices(wids, offsets)

    @classmethod
    def build(cls, vocabulary: Sequence[str]) -> GramIndex:
        """TRI-2: the gram index of a vocabulary (word id = position)."""
        by_gram: dict[str, list[int]] = {}
        for wid, word in enumerate(vocabulary):
            for gram in trigrams(word):
                by_gram.setdefault(gram, []).append(wid)
        grams = sorted(by_gram)
        lengths = [len(by_gram[g]) for g in grams]
        offsets = np.concatenate(([0], np.cumsum(lengths, dtype=np.int64))).astype(np.int64)
        flat = [wid for g in grams for wid in by_gram[g]]
        return cls(grams, offsets, np.array(flat, dtype=np.int32))

    def __getitem__(self, gram: str) -> Sequence[int]:
        i = bisect_left(self.grams, gram)
        if i == len(self.grams) or self.grams[i] != gram:
            raise KeyError(gram)
        return self._slices[i]

    def __iter__(self) -> Iterator[str]:
        return iter(self.grams)

    def __len__(self) -> int:
        return len(self.grams)


class _Slices(Sequence[Sequence[int]]):
    """A list of int lists kept as one flat array and offsets (item i = flat[o[i]:o[i+1]])."""

    def __init__(self, flat: npt.NDArray[Any], offsets: npt.NDArray[np.int64]) -> None:
        self._flat = flat
        self._offsets = offsets

    def __len__(self) -> int:
        return len(self._offsets) - 1

    @overload
    def __getitem__(self, i: int) -> list[int]: ...
    @overload
    def __getitem__(self, i: slice) -> list[list[int]]: ...
    def __getitem__(self, i: int | slice) -> list[int] | list[list[int]]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        lo, hi = int(self._offsets[i]), int(self._offsets[i + 1])
        out: list[int] = self._flat[lo:hi].tolist()
        return out


def trigram_search(
    tokens: Sequence[str], chunks: Sequence[Candidate], limit: int
) -> list[TrigramHit]:
    """TRI-1..7 in one call: build a TrigramIndex over `chunks` and search it."""
    return TrigramIndex(chunks).search(tokens, limit)
