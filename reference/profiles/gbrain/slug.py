"""JavaScript string semantics gbrain's link grammar relies on (spec/profiles/gbrain.md GBRAIN-1,
GBRAIN-6): white space, `trim`, `decodeURIComponent` and the code's `slugifyPath`."""

from __future__ import annotations

import re
import unicodedata

#: JavaScript's white space and line terminators (`\s`, `String.prototype.trim`).
JS_SPACE = (
    "\t\n\v\f\r \u00a0\u1680"
    + "".join(chr(c) for c in range(0x2000, 0x200B))
    + "\u2028\u2029\u202f\u205f\u3000\ufeff"
)
_JS_SPACE_RUN = re.compile("[" + JS_SPACE + "]+")
_HEX = frozenset("0123456789abcdefABCDEF")
#: the general categories of the code's SLUG_WORD_CHARS (`\p{Ll}\p{Lm}\p{Lo}\p{M}\p{N}`)
_SLUG_WORD = frozenset({"Ll", "Lm", "Lo", "Mn", "Mc", "Me", "Nd", "Nl", "No"})
_SLUG_KEEP = frozenset("._-" + JS_SPACE)
_DASHES = re.compile("-+")


def utf16_len(text: str) -> int:
    """Length of `text` in UTF-16 code units (a code point above U+FFFF counts two)."""
    return len(text) + sum(1 for ch in text if ord(ch) > 0xFFFF)


def js_trim(text: str) -> str:
    """`String.prototype.trim`: JavaScript white space off both ends."""
    return text.strip(JS_SPACE)


def js_space_collapse(text: str) -> str:
    """`.replace(/\\s+/g, ' ')`: every run of JavaScript white space becomes one space."""
    return _JS_SPACE_RUN.sub(" ", text)


def decode_uri_component(text: str) -> str | None:
    """`decodeURIComponent`, or None where JavaScript throws (a `%` without two hex digits,
    escapes that are not well-formed UTF-8: overlong forms, surrogates, beyond U+10FFFF)."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        if text[i] != "%":
            out.append(text[i])
            i += 1
            continue
        run = bytearray()
        while i < n and text[i] == "%":
            pair = text[i + 1 : i + 3]
            if len(pair) < 2 or not set(pair) <= _HEX:
                return None
            run.append(int(pair, 16))
            i += 3
        try:
            out.append(run.decode("utf-8"))
        except UnicodeDecodeError:
            return None
    return "".join(out)


def percent_decoded(target: str) -> str:
    """GBRAIN-6: a target holding `%` is decoded; a malformed one stays as it is."""
    if "%" not in target:
        return target
    decoded = decode_uri_component(target)
    return target if decoded is None else decoded


def _js_lower(text: str) -> str:
    """`String.prototype.toLowerCase`: full lowercase mapping, Final_Sigma included (Python's
    `str.lower` does the same)."""
    return text.lower()


def slugify_segment(segment: str) -> str:
    """GBRAIN-6: the code's `slugifySegment` (sync.ts:574-592)."""
    text = unicodedata.normalize("NFD", segment)
    text = "".join(
        ch for ch in text if not ("\u0300" <= ch <= "\u036f" or "\u0591" <= ch <= "\u05c7")
    )
    text = _js_lower(unicodedata.normalize("NFC", text))
    text = "".join(ch for ch in text if ch in _SLUG_KEEP or unicodedata.category(ch) in _SLUG_WORD)
    text = _DASHES.sub("-", _JS_SPACE_RUN.sub("-", text))
    if text.startswith("-"):
        text = text[1:]
    if text.endswith("-"):
        text = text[:-1]
    return text


def slugify_path(path: str) -> str:
    """GBRAIN-6: the code's `slugifyPath` (sync.ts:602-607): a final `.md` or `.mdx` (any
    case) cut, `\\` read as `/`, one leading `./` or `/` cut, each segment slugified, empty
    segments dropped."""
    lowered = path[-4:].lower()
    if lowered.endswith(".md"):
        path = path[:-3]
    elif lowered == ".mdx":
        path = path[:-4]
    path = path.replace("\\", "/")
    if path.startswith("./"):
        path = path[2:]
    elif path.startswith("/"):
        path = path[1:]
    return "/".join(s for s in (slugify_segment(seg) for seg in path.split("/")) if s)
