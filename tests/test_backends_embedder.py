"""The conformance embedder hrc-hash-v1: features, FNV-1a buckets, counts (BACKEND-20..24)."""

from __future__ import annotations

from reference.backends.embedder import (
    DIMENSION,
    NAME,
    HashEmbedder,
    bucket,
    features,
    fnv1a_32,
    word_features,
)


def nonzero(text: str) -> dict[int, int]:
    return {i: c for i, c in enumerate(HashEmbedder().embed_counts(text)) if c}


def test_name_and_dimension() -> None:
    """BACKEND-20: the embedder is named hrc-hash-v1 and has 256 dimensions."""
    emb = HashEmbedder()
    assert (emb.name, NAME, DIMENSION) == ("hrc-hash-v1", "hrc-hash-v1", 256)
    assert len(emb.embed("anything at all")) == 256


def test_word_features_are_padded_code_point_trigrams() -> None:
    """BACKEND-21: `$word$` windows of three code points; `a` gives `$a$`."""
    assert word_features("cat") == ["$ca", "cat", "at$"]
    assert word_features("a") == ["$a$"]
    assert word_features("𝐜𝐚") == ["$𝐜𝐚", "𝐜𝐚$"]


def test_features_use_the_words_of_the_text_with_multiplicity() -> None:
    """BACKEND-21: words per TEXT-7 (folded, punctuation split), repeated words count again."""
    assert features("Cat, cat!") == ["$ca", "cat", "at$", "$ca", "cat", "at$"]
    assert features("!!! $") == []


def test_fnv1a_standard_check_value() -> None:
    """BACKEND-22: fnv1a32("a") = 3826002220 and the empty input gives the offset basis."""
    assert fnv1a_32(b"a") == 3826002220
    assert fnv1a_32(b"") == 2166136261


def test_fnv1a_of_dollar_ca_and_its_bucket() -> None:
    """BACKEND-22: fnv1a32("$ca") = 456383555 (0x1B33DC43), bucket 67."""
    assert fnv1a_32(b"$ca") == 456383555 == 0x1B33DC43
    assert bucket("$ca") == 67


def test_bucket_hashes_utf8_bytes() -> None:
    """BACKEND-22: `afé` is hashed over the bytes 61 66 C3 A9, giving bucket 106."""
    assert "afé".encode() == b"\x61\x66\xc3\xa9"
    assert bucket("afé") == fnv1a_32(b"\x61\x66\xc3\xa9") % 256 == 106


def test_counts_of_cat() -> None:
    """BACKEND-23: `cat` → {7: 1, 67: 1, 196: 1}; `Cat, cat!` doubles each count."""
    assert nonzero("cat") == {7: 1, 67: 1, 196: 1}
    assert nonzero("Cat, cat!") == {7: 2, 67: 2, 196: 2}


def test_counts_of_cafe_and_a() -> None:
    """BACKEND-23: `café` → {67, 106, 243, 253} once each; `a` → {182: 1}."""
    assert nonzero("café") == {67: 1, 106: 1, 243: 1, 253: 1}
    assert nonzero("a") == {182: 1}


def test_text_without_words_is_the_zero_vector() -> None:
    """BACKEND-23: a text without words embeds to 256 zeros."""
    assert HashEmbedder().embed_counts("  !!! ") == [0] * 256


def test_embed_returns_the_counts_as_exact_floats() -> None:
    """BACKEND-23: embed() is embed_counts() converted to float, value for value."""
    emb = HashEmbedder()
    text = "kubernetes setup notes, kubernetes"
    assert emb.embed(text) == [float(c) for c in emb.embed_counts(text)]
    assert all(isinstance(x, float) for x in emb.embed(text))


def test_normalisation_makes_equivalent_texts_equal() -> None:
    """BACKEND-24: texts equal after TEXT-1..5 (NFC, case, zero-width) embed identically."""
    emb = HashEmbedder()
    assert emb.embed_counts("Cafe\u0301\u200b") == emb.embed_counts("café")
