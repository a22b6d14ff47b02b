"""Broken ports of portability of text (spec/portability.md), registered on import."""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Callable
from typing import Any

from conformance.selftest.broken_ports.patching import (
    _mod,
    mutant,
    set_attr,
    set_entry,
    swap,
)

# -- portability (TEXT) ------------------------------------------------------------------------


@mutant(
    "text-zero-width-kept",
    "TEXT-1",
    "zero-width characters are not deleted",
    seams=("reference.text.strip_zero_width",),
)
def _text_zero_width_kept() -> None:
    swap(_mod("reference.text"), "strip_zero_width", lambda text: text)


@mutant(
    "text-zero-width-before-nfc",
    "TEXT-3",
    "zero-width deletion runs before NFC (kit 2.x), so e U+200B U+0301 composes to é",
    seams=("reference.text.normalise",),
)
def _text_zero_width_first() -> None:
    t = _mod("reference.text")

    def normalise(text: str) -> str:
        cleaned = t.nfc(t.controls_to_space(t.strip_zero_width(text)))
        return " ".join(t.split_whitespace(cleaned))

    swap(t, "normalise", normalise)


@mutant(
    "text-zero-width-deletes-word-joiner",
    "TEXT-1",
    "U+2060 WORD JOINER is deleted as zero-width (kit 2.x), which the anchor's set keeps",
    seams=("reference.text.ZERO_WIDTH",),
)
def _text_zero_width_2060() -> None:
    t = _mod("reference.text")
    swap(t, "ZERO_WIDTH", t.ZERO_WIDTH | {"\u2060"})


@mutant(
    "text-controls-kept",
    "TEXT-2",
    "control characters are kept instead of becoming spaces",
    seams=("reference.text.controls_to_space",),
)
def _text_controls_kept() -> None:
    swap(_mod("reference.text"), "controls_to_space", lambda text: text)


@mutant("text-nfc-missing", "TEXT-3", "text is never put in NFC", seams=("reference.text.nfc",))
def _text_nfc_missing() -> None:
    swap(_mod("reference.text"), "nfc", lambda text: text)


@mutant(
    "text-whitespace-ascii",
    "TEXT-4",
    "whitespace is ASCII only (Java/Go \\s): NBSP and U+3000 do not split words",
    seams=("reference.text.WHITESPACE",),
)
def _text_whitespace_ascii() -> None:
    set_attr(_mod("reference.text"), "WHITESPACE", frozenset("\t\n\x0b\x0c\r "))


@mutant(
    "text-lowercase-go",
    "TEXT-5",
    "Go strings.ToLower: per-rune mapping, İ becomes i and no final sigma",
    seams=("reference.text.lowercase",),
)
def _text_lowercase_go() -> None:
    def lowercase(text: str) -> str:
        return "".join("i" if ch == "\u0130" else ch.lower() for ch in text)

    swap(_mod("reference.text"), "lowercase", lowercase)


@mutant(
    "text-punct-runtime-tables",
    "TEXT-6",
    "P∪S comes from a newer runtime (Unicode 15/16), not the shipped 14.0 table",
    seams=("reference.text.is_punct_symbol",),
)
def _text_punct_runtime() -> None:
    newer = frozenset("\U0001fae9\U0001faf7\U0001f6dc\U0001fa76")
    t = _mod("reference.text")
    original = t.is_punct_symbol
    swap(t, "is_punct_symbol", lambda ch: ch in newer or original(ch))


@mutant(
    "text-length-utf16",
    "TEXT-8",
    "lengths count UTF-16 code units (JavaScript .length)",
    seams=("reference.text.length",),
)
def _text_length_utf16() -> None:
    swap(_mod("reference.text"), "length", lambda text: len(text.encode("utf-16-le")) // 2)


@mutant(
    "text-sort-utf16",
    "TEXT-9",
    "strings compare by UTF-16 code units (JavaScript sort, Java compareTo)",
    seams=("reference.text.codepoint_key",),
)
def _text_sort_utf16() -> None:
    def key(text: str) -> tuple[int, ...]:
        data = text.encode("utf-16-be")
        return tuple(int.from_bytes(data[i : i + 2], "big") for i in range(0, len(data), 2))

    swap(_mod("reference.text"), "codepoint_key", key)


@mutant(
    "text-sort-collation",
    "TEXT-9",
    "strings compare with a collator (localeCompare): case and accents folded first",
    seams=("reference.text.codepoint_key",),
)
def _text_sort_collation() -> None:
    def key(text: str) -> tuple[Any, ...]:
        base = unicodedata.normalize("NFD", text.casefold())
        stripped = "".join(ch for ch in base if not unicodedata.combining(ch))
        return (tuple(ord(c) for c in stripped), tuple(ord(c) for c in text))

    swap(_mod("reference.text"), "codepoint_key", key)


@mutant(
    "strongest-utf8-bytes",
    "TEXT-8",
    "the strongest term is chosen by UTF-8 byte length (Go len)",
    seams=("reference.strongest.length",),
)
def _strongest_bytes() -> None:
    set_attr(_mod("reference.strongest"), "length", lambda text: len(text.encode("utf-8")))


def _fifteen_digits(value: Any) -> Any:
    if isinstance(value, float):
        return float(f"{value:.15g}")
    if isinstance(value, dict):
        return {k: _fifteen_digits(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_fifteen_digits(v) for v in value]
    return value


@mutant(
    "numbers-written-15-digits",
    "TEXT-12",
    "floats are written with 15 significant digits (printf %.15g), a form that does not round-trip",
    seams=("conformance.adapters.ops._REGISTRY",),
)
def _numbers_15_digits() -> None:
    ops = _mod("conformance.adapters.ops")
    table: dict[str, Callable[[Any], Any]] = ops._REGISTRY
    for name, handler in list(table.items()):

        def shortened(inp: Any, handler: Callable[[Any], Any] = handler) -> Any:
            return _fifteen_digits(handler(inp))

        set_entry(ops, "_REGISTRY", name, shortened)


@mutant(
    "text-punctuation-deleted",
    "TEXT-7",
    "punctuation and symbols are deleted instead of becoming spaces (snake_case -> snakecase)",
    seams=("reference.text.punct_symbol_to_space",),
)
def _text_punct_deleted() -> None:
    t = _mod("reference.text")
    swap(t, "punct_symbol_to_space", lambda s: "".join(c for c in s if not t.is_punct_symbol(c)))


def _nulled(value: Any) -> Any:
    """`value` with every non-finite float replaced by None, as JSON.stringify writes it."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _nulled(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_nulled(v) for v in value]
    return value


def _wrap_every_handler(change: Callable[[Any], Any]) -> None:
    ops = _mod("conformance.adapters.ops")
    table: dict[str, Callable[[Any], Any]] = ops._REGISTRY
    for name, handler in list(table.items()):

        def changed(inp: Any, handler: Callable[[Any], Any] = handler) -> Any:
            return change(handler(inp))

        set_entry(ops, "_REGISTRY", name, changed)


@mutant(
    "text-non-finite-written-null",
    "TEXT-11",
    "an overflowing score is written as null (JavaScript's JSON.stringify), not invalid_input",
    seams=("conformance.adapters.ops._REGISTRY",),
)
def _non_finite_null() -> None:
    _wrap_every_handler(_nulled)


@mutant(
    "text-non-finite-encoder-crash",
    "TEXT-11",
    "an overflowing score reaches the JSON encoder, which fails: internal_error, not invalid_input",
    seams=("conformance.adapters.ops._REGISTRY",),
)
def _non_finite_crash() -> None:
    def crash_on_overflow(output: Any) -> Any:
        if _nulled(output) != output:
            raise ValueError("Out of range float values are not JSON compliant")
        return output

    _wrap_every_handler(crash_on_overflow)


@mutant(
    "vector-similarity-float32",
    "TEXT-13",
    "the similarity is computed in single precision (a Float32Array port): within 1e-7 of the "
    "binary64 value, which a tolerant comparator would pass",
    seams=("reference.backends.vector.similarity_float",),
)
def _similarity_float32() -> None:
    import struct

    vector = _mod("reference.backends.vector")
    original = vector.similarity_float

    def similarity_float(dot: int, query_norm2: int, chunk_norm2: int) -> float:
        value = original(dot, query_norm2, chunk_norm2)
        return float(struct.unpack("<f", struct.pack("<f", value))[0])

    swap(vector, "similarity_float", similarity_float)
