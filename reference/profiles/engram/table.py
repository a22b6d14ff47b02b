"""The engram intent channels: the seed's four patterns, the default and the weight table
(spec/profiles/engram.md ENGRAM-1..3), loaded from spec/data/profiles/engram/intent.json."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Any

from reference.data import SpecDataError, load_json
from reference.intent_regex import check_portable
from reference.text import fold

DATA_FILE = "profiles/engram/intent.json"
CHANNELS = ("vector", "bm25", "graph")


@dataclass(frozen=True)
class Table:
    """Patterns in the seed's order, the default class and each class's channel weights."""

    patterns: tuple[tuple[str, re.Pattern[str]], ...]
    sources: tuple[tuple[str, str], ...]
    default: str
    weights: dict[str, dict[str, float]]


def as_grouping(source: str) -> str:
    """ENGRAM-2: the seed's capturing `(` read as the grouping `(?:`, for the INTENT-3 check."""
    out: list[str] = []
    i = 0
    while i < len(source):
        ch = source[i]
        if ch == "\\":
            out.append(source[i : i + 2])
            i += 2
            continue
        out.append("(?:" if ch == "(" and not source.startswith("(?", i) else ch)
        i += 1
    return "".join(out)


def _weights(raw: Any, name: str) -> dict[str, float]:
    if not isinstance(raw, dict) or sorted(raw) != sorted(CHANNELS):
        raise SpecDataError(f"{DATA_FILE}: weights of {name!r} need exactly {CHANNELS}")
    out: dict[str, float] = {}
    for ch in CHANNELS:
        v = raw[ch]
        if isinstance(v, bool) or not isinstance(v, int | float) or v < 0:
            raise SpecDataError(f"{DATA_FILE}: weight {name}.{ch} must be a number >= 0")
        out[ch] = float(v)
    return out


@cache
def table() -> Table:
    """ENGRAM-1: the data file, checked; a missing or malformed file fails loudly."""
    data = load_json(DATA_FILE)
    try:
        raw_patterns = data["patterns"]
        default = data["default"]
        raw_weights = data["weights"]
    except (KeyError, TypeError) as exc:
        raise SpecDataError(f"{DATA_FILE}: missing {exc}") from exc
    patterns: list[tuple[str, re.Pattern[str]]] = []
    sources: list[tuple[str, str]] = []
    for p in raw_patterns:
        name, source = p["name"], p["source"]
        try:
            check_portable(as_grouping(source))
        except ValueError as exc:
            raise SpecDataError(f"{DATA_FILE}: pattern {name!r}: {exc}") from exc
        patterns.append((name, re.compile(source, re.ASCII)))
        sources.append((name, source))
    names = [n for n, _ in patterns] + [default]
    if not isinstance(raw_weights, dict) or sorted(raw_weights) != sorted(names):
        raise SpecDataError(f"{DATA_FILE}: weights must name exactly {names}")
    weights = {n: _weights(raw_weights[n], n) for n in names}
    return Table(tuple(patterns), tuple(sources), default, weights)


@dataclass(frozen=True)
class Classification:
    """ENGRAM-3: the winning class, every matching pattern in table order, and its weights."""

    intent: str
    matched: tuple[str, ...]
    weights: dict[str, float]


def counts(text: str) -> list[tuple[str, int]]:
    """ENGRAM-3: each pattern's number of non-overlapping matches in `text`, in table order."""
    return [(name, sum(1 for _ in rx.finditer(text))) for name, rx in table().patterns]


def classify(query: str) -> Classification:
    """ENGRAM-2, ENGRAM-3: patterns searched in fold(query); the class with the most matches
    wins, ties to table order (engram's `max(scores, key=scores.get)`)."""
    t = table()
    text = fold(query)
    per = counts(text)
    matched = tuple(name for name, n in per if n > 0)
    best = max((n for _, n in per), default=0)
    intent = next(name for name, n in per if n == best) if best > 0 else t.default
    return Classification(intent, matched, dict(t.weights[intent]))
