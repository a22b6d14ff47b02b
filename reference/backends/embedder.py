"""The conformance embedder `hrc-hash-v1` (spec/backends.md, BACKEND-20..BACKEND-24).

A bag of hashed, `$`-padded code-point trigrams of the words of a text: no model, no
floating point, identical integers in every language. Only meant to make the vector leg
replayable; it captures spelling overlap, not meaning.
"""

from __future__ import annotations

from functools import lru_cache

from reference.text import words

NAME = "hrc-hash-v1"
DIMENSION = 256
FNV_OFFSET_BASIS = 2166136261
FNV_PRIME = 16777619
_MASK32 = 0xFFFFFFFF


def fnv1a_32(data: bytes) -> int:
    """BACKEND-22: 32-bit FNV-1a (xor the byte, then multiply, both mod 2^32)."""
    h = FNV_OFFSET_BASIS
    for byte in data:
        h ^= byte
        h = (h * FNV_PRIME) & _MASK32
    return h


def word_features(word: str) -> list[str]:
    """BACKEND-21: every 3-code-point window of `$word$`, left to right (`a` gives `$a$`)."""
    padded = "$" + word + "$"
    return [padded[i : i + 3] for i in range(len(padded) - 2)]


def features(text: str) -> list[str]:
    """BACKEND-21: the features of every word of the text (TEXT-7), with multiplicity."""
    out: list[str] = []
    for word in words(text):
        out.extend(word_features(word))
    return out


def bucket(feature: str) -> int:
    """BACKEND-22: FNV-1a of the feature's UTF-8 bytes, modulo the dimension (256)."""
    return fnv1a_32(feature.encode("utf-8")) % DIMENSION


@lru_cache(maxsize=1 << 16)
def word_buckets(word: str) -> tuple[int, ...]:
    """The buckets of one word's features, in order (cached: words repeat across texts)."""
    return tuple(bucket(f) for f in word_features(word))


class HashEmbedder:
    """`hrc-hash-v1`: per-bucket feature counts (BACKEND-20..BACKEND-24)."""

    name: str = NAME
    dimension: int = DIMENSION

    def embed_counts(self, text: str) -> list[int]:
        """BACKEND-23: the integer count of features per bucket, length 256."""
        counts = [0] * DIMENSION
        for word in words(text):
            for b in word_buckets(word):
                counts[b] += 1
        return counts

    def embed(self, text: str) -> list[float]:
        """BACKEND-23: the same counts as floats (the Embedder protocol's type); exact."""
        return [float(c) for c in self.embed_counts(text)]
