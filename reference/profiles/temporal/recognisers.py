"""The temporal profile's data (spec/data/profiles/temporal/recognisers.json, TEMPORAL-3,
TEMPORAL-4): loaded, never retyped; the sources are checked against the portable subset."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from reference.data import load_json
from reference.intent_regex import compile_pattern

DATA_FILE = "profiles/temporal/recognisers.json"
NAMES = ("relative_time", "relative_day", "last_week", "last_weekday")


@dataclass(frozen=True)
class Recognisers:
    """The compiled recognisers in order, and the words they resolve."""

    patterns: tuple[tuple[str, re.Pattern[str]], ...]
    count_words: dict[str, int]
    units: dict[str, str]
    weekdays: tuple[str, ...]
    ordering: tuple[tuple[tuple[str, ...], str], ...]


@cache
def recognisers() -> Recognisers:
    """Load and check the data file; raises ValueError when it is not the shape TEMPORAL-3 says."""
    data = load_json(DATA_FILE)
    names = tuple(r["name"] for r in data["recognisers"])
    if names != NAMES:
        raise ValueError(f"{DATA_FILE}: recognisers must be {NAMES}, got {names}")
    patterns = tuple(
        (r["name"], compile_pattern(r["source"], r["flags"])) for r in data["recognisers"]
    )
    return Recognisers(
        patterns=patterns,
        count_words={str(k): int(v) for k, v in data["countWords"].items()},
        units={str(k): str(v) for k, v in data["units"].items()},
        weekdays=tuple(data["weekdays"]),
        ordering=tuple((tuple(o["words"]), str(o["note"])) for o in data["ordering"]),
    )
