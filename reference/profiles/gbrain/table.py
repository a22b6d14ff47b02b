"""The gbrain link table: patterns, trigger words, window (spec/profiles/gbrain.md GBRAIN-1)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from reference.data import SpecDataError, load_json

DATA_FILE = "profiles/gbrain/links.json"


@dataclass(frozen=True)
class LinkTable:
    """GBRAIN-1: the compiled patterns, their group numbers and the inference rule's data."""

    wikilink: re.Pattern[str]
    wikilink_group: int
    wikilink_text: int
    markdown: re.Pattern[str]
    markdown_group: int
    markdown_text: int
    typed: re.Pattern[str]
    typed_group: int
    window: int
    default_type: str
    #: (type, compiled regex) in precedence order (GBRAIN-8).
    types: tuple[tuple[str, re.Pattern[str]], ...]
    #: gbrain's DIR_PATTERN directories (GBRAIN-8: which wikilinks are looked up by their text)
    directories: frozenset[str]


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
            wikilink=re.compile(pats["wikilink"]["source"]),
            wikilink_group=int(pats["wikilink"]["target"]),
            wikilink_text=int(pats["wikilink"]["text"]),
            markdown=re.compile(pats["markdown"]["source"]),
            markdown_group=int(pats["markdown"]["target"]),
            markdown_text=int(pats["markdown"]["text"]),
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
