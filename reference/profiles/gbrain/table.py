"""The gbrain link table: patterns, type regexes, window (spec/profiles/gbrain.md GBRAIN-1)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from reference.data import SpecDataError, load_json

from .slug import JS_SPACE

DATA_FILE = "profiles/gbrain/links.json"


@dataclass(frozen=True)
class Pattern:
    """One link pattern of links.json and the numbers of its capturing groups (0: none)."""

    regex: re.Pattern[str]
    target: int
    text: int


@dataclass(frozen=True)
class LinkTable:
    """GBRAIN-1: the compiled patterns, their group numbers and the inference rule's data."""

    #: gbrain's passes (GBRAIN-5): ENTITY_REF_RE, SAME_DIR_MD_RE, QUALIFIED_WIKILINK_RE,
    #: WIKILINK_RE, MARKDOWN_LABEL_WIKILINK_RE, WIKILINK_GENERIC_RE
    markdown: Pattern
    same_dir: Pattern
    qualified: Pattern
    wikilink: Pattern
    label_wikilink: Pattern
    generic: Pattern
    typed: re.Pattern[str]
    typed_group: int
    window: int
    default_type: str
    #: (type, compiled regex) in precedence order (GBRAIN-8).
    types: tuple[tuple[str, re.Pattern[str]], ...]
    #: gbrain's DIR_PATTERN directories (GBRAIN-5, pass 2b)
    directories: frozenset[str]


_JS_SPACE_CLASS = "".join(f"\\u{ord(c):04x}" for c in JS_SPACE)


def js_link_regex(source: str) -> str:
    """GBRAIN-1: a link pattern's JavaScript source for Python's `re`: `\\s` (only inside a
    class in these patterns) is JavaScript's white space, spelled out; nothing else changes."""
    out: list[str] = []
    i, in_class = 0, False
    while i < len(source):
        ch = source[i]
        if ch == "\\":
            pair = source[i : i + 2]
            if pair == "\\s":
                if not in_class:
                    raise ValueError(f"\\s outside a class in {source!r}")
                out.append(_JS_SPACE_CLASS)
            else:
                out.append(pair)
            i += 2
            continue
        if ch == "[" and not in_class:
            in_class = True
        elif ch == "]" and in_class:
            in_class = False
        out.append(ch)
        i += 1
    return "".join(out)


def _pattern(entry: dict[str, object]) -> Pattern:
    return Pattern(
        re.compile(js_link_regex(str(entry["source"]))),
        int(str(entry.get("target", 0))),
        int(str(entry.get("text", 0))),
    )


def _compile(entry: dict[str, str]) -> re.Pattern[str]:
    """A type regex read as JavaScript reads it without flag `u` (GBRAIN-1): `\\b` and `i`
    are ASCII-only, hence re.ASCII; flag `i` is re.IGNORECASE."""
    flags = re.ASCII | (re.IGNORECASE if "i" in entry["flags"] else 0)
    if set(entry["flags"]) - {"i"}:
        raise ValueError(f"unknown flags {entry['flags']!r}")
    return re.compile(entry["source"], flags)


@cache
def link_table() -> LinkTable:
    """Load links.json (fails loudly when missing or malformed, GBRAIN-1)."""
    doc = load_json(DATA_FILE)
    try:
        pats = doc["patterns"]
        types = tuple((str(t["type"]), _compile(t)) for t in doc["types"])
        table = LinkTable(
            markdown=_pattern(pats["markdown"]),
            same_dir=_pattern(pats["sameDir"]),
            qualified=_pattern(pats["qualified"]),
            wikilink=_pattern(pats["wikilink"]),
            label_wikilink=_pattern(pats["labelWikilink"]),
            generic=_pattern(pats["generic"]),
            typed=re.compile(pats["typed"]["source"]),
            typed_group=int(pats["typed"]["label"]),
            window=int(doc["window"]),
            default_type=str(doc["defaultType"]),
            types=types,
            directories=frozenset(str(d) for d in doc["directories"]),
        )
    except (KeyError, TypeError, ValueError, re.error) as exc:
        raise SpecDataError(f"{DATA_FILE} is malformed: {exc}") from exc
    if not types or table.window < 1:
        raise SpecDataError(f"{DATA_FILE} has no types or no window")
    return table
