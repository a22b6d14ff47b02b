"""Broken ports of the trigram fallback (spec/trigram.md), registered on import."""

from __future__ import annotations

import re
import struct
from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any

from conformance.selftest.broken_ports.patching import (
    MUTANTS,
    _mod,
    mutant,
    set_attr,
    swap,
)

# -- trigram (TRI) -----------------------------------------------------------------------------


@mutant(
    "tri-threshold-strict",
    "TRI-5",
    "Jaccard threshold uses `>`: exactly 0.3 is rejected",
    seams=("reference.trigram.is_similar",),
)
def _tri_strict() -> None:
    swap(_mod("reference.trigram"), "is_similar", lambda i, u: u > 0 and 10 * i > 3 * u)


_F32_POINT_3: float = struct.unpack("f", struct.pack("f", 0.3))[0]


@mutant(
    "tri-threshold-f32",
    "TRI-5",
    "the ratio is compared with a 32-bit 0.3f",
    seams=("reference.trigram.is_similar",),
)
def _tri_f32() -> None:
    swap(_mod("reference.trigram"), "is_similar", lambda i, u: u > 0 and i / u >= _F32_POINT_3)


@mutant(
    "tri-utf8-byte-trigrams",
    "TRI-2",
    "trigrams are slices of UTF-8 bytes (Go, Rust)",
    seams=("reference.trigram.trigrams",),
)
def _tri_bytes() -> None:
    def trigrams(word: str) -> frozenset[str]:
        padded = f"${word}$".encode()
        return frozenset(padded[i : i + 3].decode("latin-1") for i in range(len(padded) - 2))

    swap(_mod("reference.trigram"), "trigrams", trigrams)


@mutant(
    "tri-no-padding",
    "TRI-2",
    "words are not padded with `$`, so short words have no trigram",
    seams=("reference.trigram.trigrams",),
)
def _tri_no_padding() -> None:
    swap(
        _mod("reference.trigram"),
        "trigrams",
        lambda word: frozenset(word[i : i + 3] for i in range(len(word) - 2)),
    )


@mutant(
    "tri-best-pair-last-wins",
    "TRI-4",
    "among equal ratios the last pair found is reported",
    seams=("reference.trigram._greater",),
)
def _tri_last_pair() -> None:
    def greater(a: tuple[int, int], b: tuple[int, int]) -> bool:
        return a[0] * (b[1] or 1) >= b[0] * (a[1] or 1)

    swap(_mod("reference.trigram"), "_greater", greater)


@mutant(
    "tri-ties-by-position",
    "TRI-6",
    "hits of equal similarity keep chunk order",
    seams=("reference.trigram._order_key",),
)
def _tri_ties() -> None:
    swap(
        _mod("reference.trigram"),
        "_order_key",
        lambda hit: (-Fraction(hit.intersection, hit.union),),
    )


@mutant(
    "tri-path-slugs",
    "TRI-1",
    "chunks are matched by their file-name slug, not their content",
    seams=("reference.trigram.TrigramIndex.__init__",),
)
def _tri_slugs() -> None:
    tri = _mod("reference.trigram")
    original = tri.TrigramIndex.__init__

    def slug(path: str) -> str:
        name = path.rsplit("/", 1)[-1].removesuffix(".md")
        return re.sub(r"[^0-9A-Za-z]+", " ", name)

    def init(self: Any, chunks: Sequence[Any]) -> None:
        original(self, [replace(c, content=slug(c.path)) for c in chunks])
        self._chunks = tuple(chunks)

    set_attr(tri.TrigramIndex, "__init__", init)


@mutant(
    "tri-duplicate-chunk-ids-accepted",
    "TRI-1",
    "a chunk list with a repeated id is accepted (the later chunk ignored)",
    seams=("reference.trigram.TrigramIndex.__init__",),
)
def _tri_duplicate_ids() -> None:
    tri = _mod("reference.trigram")
    original = tri.TrigramIndex.__init__

    def init(self: Any, chunks: Sequence[Any]) -> None:
        firsts = {c.id: c for c in reversed(chunks)}
        original(self, [c for c in chunks if firsts[c.id] is c])

    set_attr(tri.TrigramIndex, "__init__", init)


@mutant(
    "tri-default-candidate-k-10",
    "TRI-7",
    "trigram_search defaults candidateK to 10 (topK) instead of 60",
    seams=("conformance.adapters.ops.ladder.DEFAULT_CANDIDATE_K",),
)
def _tri_default_k() -> None:
    set_attr(_mod("conformance.adapters.ops.ladder"), "DEFAULT_CANDIDATE_K", 10)


@mutant(
    "tri-candidate-k-zero-rejected",
    "TRI-7",
    "trigram_search rejects candidateK <= 0 (the 2.x reading) instead of using 60",
    seams=("conformance.adapters.ops.ladder._candidate_k",),
)
def _tri_k_zero_rejected() -> None:
    ladder = _mod("conformance.adapters.ops.ladder")
    types = _mod("reference.types")

    def candidate_k(inp: Any) -> int:
        value = types.optional(inp, "candidateK", ladder.DEFAULT_CANDIDATE_K)
        return int(types.whole_number(value, "candidateK"))

    set_attr(ladder, "_candidate_k", candidate_k)


@mutant(
    "tri-slugs-and-default-candidate-k-10",
    "TRI-7",
    "two mistakes at once: chunks matched by their file-name slug, and candidateK defaulting to 10",
    seams=(
        "reference.trigram.TrigramIndex.__init__",
        "conformance.adapters.ops.ladder.DEFAULT_CANDIDATE_K",
    ),
)
def _tri_slugs_and_k10() -> None:
    MUTANTS["tri-path-slugs"].apply()
    MUTANTS["tri-default-candidate-k-10"].apply()


@mutant(
    "tri-pair-reduced",
    "TRI-3",
    "the Jaccard pair is reduced to lowest terms (3/9 is kept as 1/3)",
    seams=("reference.trigram.jaccard",),
)
def _tri_pair_reduced() -> None:
    import math

    trigram = _mod("reference.trigram")
    original = trigram.jaccard

    def jaccard(a: frozenset[str], b: frozenset[str]) -> tuple[int, int]:
        inter, union = original(a, b)
        g = math.gcd(inter, union) or 1
        return inter // g, union // g

    swap(trigram, "jaccard", jaccard)
