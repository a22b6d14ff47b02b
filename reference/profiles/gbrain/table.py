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
    markdown: re.Pattern[str]
    markdown_group: int
    typed: re.Pattern[str]
    typed_group: int
    window: int
    default_type: str
    #: (type, trigger words) in precedence order (GBRAIN-8).
    triggers: tuple[tuple[str, tuple[str, ...]], ...]


@cache
def link_table() -> LinkTable:
    """Load links.json (fails loudly when missing or malformed, GBRAIN-1)."""
    doc = load_json(DATA_FILE)
    try:
        pats = doc["patterns"]
        triggers = tuple(
            (str(t["type"]), tuple(str(w) for w in t["triggers"])) for t in doc["types"]
        )
        table = LinkTable(
            wikilink=re.compile(pats["wikilink"]["source"]),
            wikilink_group=int(pats["wikilink"]["target"]),
            markdown=re.compile(pats["markdown"]["source"]),
            markdown_group=int(pats["markdown"]["target"]),
            typed=re.compile(pats["typed"]["source"]),
            typed_group=int(pats["typed"]["label"]),
            window=int(doc["window"]),
            default_type=str(doc["defaultType"]),
            triggers=triggers,
        )
    except (KeyError, TypeError, ValueError, re.error) as exc:
        raise SpecDataError(f"{DATA_FILE} is malformed: {exc}") from exc
    if not triggers or table.window < 1:
        raise SpecDataError(f"{DATA_FILE} has no types or no window")
    return table
