"""Text primitives every stage shares: the portability rules of spec/portability.md (TEXT-*).

Pure functions; the P∪S table is loaded from spec/data/punct_symbol.json, never from the
runtime's Unicode database, so every port gets the same answer.
"""

from __future__ import annotations

import bisect
import unicodedata
from collections.abc import Sequence
from functools import cache

from reference.data import SpecDataError, load_json

# TEXT-1: deleted right after NFC (TEXT-3); the anchor's set: U+2060 and U+00AD are kept.
ZERO_WIDTH = frozenset("\u200b\u200c\u200d\ufeff")

# TEXT-4: Unicode White_Space, exactly these 25 code points.
WHITESPACE = frozenset(
    "\t\n\x0b\x0c\r \x85\xa0\u1680"
    "\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000"
)


def is_control(ch: str) -> bool:
    """TEXT-2: C0 and C1 controls (U+0000–U+001F, U+007F–U+009F)."""
    cp = ord(ch)
    return cp <= 0x1F or 0x7F <= cp <= 0x9F


#: Every character is_control accepts (all below U+00A0), for a text-wide test in C.
_CONTROLS = frozenset(ch for ch in map(chr, range(0xA0)) if is_control(ch))


def strip_zero_width(text: str) -> str:
    """TEXT-1: delete U+200B, U+200C, U+200D and U+FEFF."""
    if ZERO_WIDTH.isdisjoint(text):
        return text  # nothing to delete, found in C (issue 40)
    return "".join(ch for ch in text if ch not in ZERO_WIDTH)


@cache
def _bare_controls(whitespace: frozenset[str]) -> frozenset[str]:
    """The control characters that are not White_Space."""
    return _CONTROLS - whitespace


def controls_to_space(text: str) -> str:
    """TEXT-2: every control character that is not whitespace becomes U+0020."""
    # the ones present are found and replaced in C (issue 40)
    spaces = {ord(ch): " " for ch in _bare_controls(WHITESPACE).intersection(text)}
    return text.translate(spaces) if spaces else text


#: A run of this many non-starters sends nfc() through the pre-ordered path.
_LONG_MARK_RUN = 32


def _has_long_mark_run(text: str) -> bool:
    if max(text, default="") < "\u0300":
        return False  # no combining mark can be below U+0300 (issue 40: found in C)
    run = 0
    for ch in text:
        if ch < "\u0300" or not unicodedata.combining(ch):
            run = 0
        else:
            run += 1
            if run >= _LONG_MARK_RUN:
                return True
    return False


def nfc(text: str) -> str:
    """TEXT-3: Unicode Normalization Form C.

    unicodedata's canonical reordering is an insertion sort, quadratic in a run of combining
    marks of alternating classes (issue 39). For a long run the canonical decomposition is
    built here, a character at a time, and each run of non-starters stably sorted by its
    combining class (which is what canonical ordering is); NFC of that text is NFC of the
    original, and its reordering then has nothing left to move."""
    if text.isascii() or not _has_long_mark_run(text):
        return unicodedata.normalize("NFC", text)
    out: list[str] = []
    run: list[str] = []
    for ch in "".join(unicodedata.normalize("NFD", c) for c in text):
        if unicodedata.combining(ch):
            run.append(ch)
            continue
        if run:
            out.extend(sorted(run, key=unicodedata.combining))
            run = []
        out.append(ch)
    out.extend(sorted(run, key=unicodedata.combining))
    return unicodedata.normalize("NFC", "".join(out))


def lowercase(text: str) -> str:
    """TEXT-5: full default lowercasing without locale (SpecialCasing + Final_Sigma)."""
    return text.lower()


@cache
def _beyond_space(whitespace: frozenset[str]) -> frozenset[str] | None:
    """The White_Space characters other than U+0020, when U+0020 is one of them."""
    return whitespace - {" "} if " " in whitespace else None


def split_whitespace(text: str) -> list[str]:
    """TEXT-4: split on runs of White_Space; empty pieces are dropped."""
    others = _beyond_space(WHITESPACE)
    if others is not None and others.isdisjoint(text):
        # U+0020 is the only White_Space present: the same pieces, split in C (issue 40)
        return [piece for piece in text.split(" ") if piece]
    out: list[str] = []
    cur: list[str] = []
    for ch in text:
        if ch in WHITESPACE:
            if cur:
                out.append("".join(cur))
                cur = []
        else:
            cur.append(ch)
    if cur:
        out.append("".join(cur))
    return out


def normalise(text: str) -> str:
    """TEXT-3, TEXT-1, TEXT-2, TEXT-4 in that order (the anchor's): NFC, zero-width deletion,
    controls to space, whitespace collapse.

    Case is kept: the query DSL needs to see upper-case operators.
    """
    return " ".join(split_whitespace(controls_to_space(strip_zero_width(nfc(text)))))


def fold(text: str) -> str:
    """normalise() then lowercase(): the form intent regexes and sanitisation read (TEXT-5)."""
    return lowercase(normalise(text))


@cache
def _punct_symbol_ranges() -> tuple[tuple[int, ...], tuple[int, ...]]:
    doc = load_json("punct_symbol.json")
    try:
        ranges = [(int(a), int(b)) for a, b in doc["ranges"]]
    except (KeyError, TypeError, ValueError) as exc:
        raise SpecDataError(f"punct_symbol.json is malformed: {exc}") from exc
    if not ranges:
        raise SpecDataError("punct_symbol.json has no ranges")
    return tuple(a for a, _ in ranges), tuple(b for _, b in ranges)


def is_punct_symbol(ch: str) -> bool:
    """TEXT-6: membership in the shipped P∪S table (Unicode 14.0), not the runtime's tables."""
    starts, ends = _punct_symbol_ranges()
    cp = ord(ch)
    i = bisect.bisect_right(starts, cp) - 1
    return i >= 0 and cp <= ends[i]


def punct_symbol_to_space(text: str) -> str:
    """TEXT-6: every P∪S code point becomes U+0020."""
    # asked once per distinct character, replaced in C (issue 40)
    spaces = {ord(ch): " " for ch in set(text) if is_punct_symbol(ch)}
    return text.translate(spaces) if spaces else text


def words(text: str) -> list[str]:
    """TEXT-7: fold, replace P∪S with spaces, split on whitespace. Used by sanitise and trigrams."""
    return split_whitespace(punct_symbol_to_space(fold(text)))


def length(text: str) -> int:
    """TEXT-8: length in Unicode code points (Python str is a code point sequence)."""
    return len(text)


def codepoint_key(text: str) -> str:
    """TEXT-9: sort key comparing strings by code point (equal to UTF-8 byte order).

    Python compares `str` by code point already, so the key is the string itself; ports in
    languages that compare UTF-16 units (JavaScript, Java) need a real comparator here.
    """
    return text


def sort_codepoint(items: Sequence[str]) -> list[str]:
    """TEXT-9: strings sorted ascending by code point."""
    return sorted(items, key=codepoint_key)
