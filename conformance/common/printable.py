"""Raw adapter text made safe to print (PROTO-37): control characters, ANSI/OSC escapes,
bidi controls and line breaks are shown escaped, so nothing an adapter writes can move the
cursor, set a window title or forge the `hrc:` footer in a terminal or a CI log.
"""

from __future__ import annotations

import hashlib
import unicodedata

#: Format characters that reorder or hide text (bidi overrides, zero-width) are escaped too.
_ALWAYS = frozenset("\u2028\u2029\u0085")


def _escape(ch: str) -> str:
    code = ord(ch)
    if ch == "\n":
        return "\\n"
    if ch == "\r":
        return "\\r"
    if ch == "\t":
        return "\\t"
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def printable(text: str) -> str:
    """`text` on one line with every control, format or separator character escaped
    (`\\u001b`, `\\n`, `\\u202e`); a backslash stays a backslash. Total: any str is accepted."""
    out: list[str] = []
    for ch in text:
        cat = unicodedata.category(ch)
        if ch in _ALWAYS or cat in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"):
            out.append(_escape(ch))
        else:
            out.append(ch)
    return "".join(out)


def bounded(text: str, limit: int) -> str:
    """`text` when it has at most `limit` characters; otherwise its first `limit` characters,
    how many were cut and the SHA-256 of the whole (UTF-8, surrogates escaped), so a report
    keeps a fixed size per case yet two different long texts stay distinguishable."""
    if len(text) <= limit:
        return text
    digest = hashlib.sha256(text.encode("utf-8", "backslashreplace")).hexdigest()
    return f"{text[:limit]}… ({len(text) - limit} more characters, sha256 {digest})"
