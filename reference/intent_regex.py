"""The portable regex subset of the intent tables and its Python reading (spec/intent.md, INTENT-3).

Sources are checked before they are compiled, so a table that needs an engine-specific
construct fails to load instead of answering differently in another language.
"""

from __future__ import annotations

import re

FLAGS = ("", "i")

_META = frozenset("\\^$.|?*+()[]{}")
_ESCAPABLE = _META | frozenset("-/")


def check_portable(source: str, flags: str = "") -> None:
    """INTENT-3: reject anything outside the portable ASCII subset; raise ValueError."""
    if flags not in FLAGS:
        raise ValueError(f"flags {flags!r} are not portable (only '' and 'i')")
    i, n = 0, len(source)
    prev_quantifiable = False
    while i < n:
        ch = source[i]
        if ord(ch) < 0x20 or ord(ch) > 0x7E:
            raise ValueError(f"non-ASCII or control character at {i}")
        if "A" <= ch <= "Z":
            raise ValueError(f"upper-case letter at {i}: patterns run on folded text")
        if ch == "\\":
            nxt = source[i + 1] if i + 1 < n else ""
            if nxt == "b":
                prev_quantifiable = False
            elif nxt == "s" or (nxt in _ESCAPABLE and nxt):
                prev_quantifiable = True
            else:
                raise ValueError(f"escape \\{nxt} is not portable")
            i += 2
            continue
        if ch in "$.":
            raise ValueError(f"{ch!r} is not portable")
        if ch == "(":
            if source[i : i + 3] != "(?:":
                raise ValueError("only non-capturing groups (?:...) are portable")
            i += 3
            prev_quantifiable = False
            continue
        if ch in "?*+{":
            if not prev_quantifiable:
                raise ValueError(f"quantifier at {i} follows nothing quantifiable")
            if ch == "{":
                end = source.find("}", i)
                if end < 0 or not re.fullmatch(r"[0-9]+(?:,[0-9]+)?", source[i + 1 : end]):
                    raise ValueError("only {n} and {n,m} are portable")
                i = end + 1
            else:
                i += 1
            prev_quantifiable = False
            continue
        if ch == "[":
            end = source.find("]", i)
            body = source[i + 1 : end] if end > 0 else ""
            if not body or not re.fullmatch(r"(?:0-9|a-z|[a-z0-9_/' ]|-$)+", body):
                raise ValueError(f"class at {i} is not portable")
            i = end + 1
            prev_quantifiable = True
            continue
        if ch in "|^":
            prev_quantifiable = False
        elif ch in ")]}":
            prev_quantifiable = ch == ")"
            if ch != ")":
                raise ValueError(f"unbalanced {ch!r} at {i}")
        else:
            prev_quantifiable = True
        i += 1


def compile_pattern(source: str, flags: str = "") -> re.Pattern[str]:
    """INTENT-3: Python reading: re.ASCII (ASCII \\b, \\s, case folding), re.IGNORECASE for `i`."""
    check_portable(source, flags)
    return re.compile(source, re.ASCII | (re.IGNORECASE if flags == "i" else 0))
