"""Named intent rule tables: loading, checking and condition evaluation (spec/intent.md).

`anchor` (the default, the anchor's verbatim patterns) and `hrc-1.0` (the table of spec 1.0.0)
live in spec/data/intent-<name>.json and are loaded, never retyped (INTENT-1); a missing or
malformed file fails loudly.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any, TypeAlias

from reference.data import SpecDataError, load_json
from reference.intent_regex import compile_pattern
from reference.types import InvalidInput

PREFERENCE = "preference"
CONCRETE_FACT = "concrete-fact"
FAMILIES = (PREFERENCE, CONCRETE_FACT)
LONG_CONTENT = "long_content"
TARGETS = ("path", "text")
TABLES = ("anchor", "hrc-1.0")
DEFAULT_TABLE = "anchor"
_KEYS = ("all", "any", "none")


@dataclass(frozen=True)
class Condition:
    """INTENT-6: all of `all`, at least one of `any` (none given: true), none of `none`."""

    all: tuple[Member, ...] = ()
    any: tuple[Member, ...] = ()
    none: tuple[Member, ...] = ()


Member: TypeAlias = "str | Condition"


@dataclass(frozen=True)
class Pattern:
    """A named regex of a table (INTENT-2); `target` is query, path or text."""

    name: str
    target: str
    source: str
    flags: str
    regex: re.Pattern[str]


@dataclass(frozen=True)
class Family:
    """INTENT-4: a family is on when its condition over the query patterns holds."""

    name: str
    condition: Condition


@dataclass(frozen=True)
class Rule:
    """INTENT-6: a named document rule with its family, condition and multiplier."""

    name: str
    family: str
    condition: Condition
    multiplier: float


@dataclass(frozen=True)
class Table:
    """A loaded rule table (INTENT-1)."""

    name: str
    query_patterns: tuple[Pattern, ...]
    families: tuple[Family, ...]
    document_patterns: tuple[Pattern, ...]
    rules: tuple[Rule, ...]
    long_content_length: int | None


def holds(cond: Condition, truth: Mapping[str, bool]) -> bool:
    """INTENT-6: evaluate a (nested) condition against the truth of every predicate."""

    def one(m: Member) -> bool:
        return truth[m] if isinstance(m, str) else holds(m, truth)

    return (
        all(one(m) for m in cond.all)
        and (not cond.any or any(one(m) for m in cond.any))
        and not any(one(m) for m in cond.none)
    )


def names_in(cond: Condition) -> set[str]:
    """Every predicate name a condition refers to, nested ones included."""
    out: set[str] = set()
    for m in cond.all + cond.any + cond.none:
        out |= {m} if isinstance(m, str) else names_in(m)
    return out


def _condition(raw: Any, what: str) -> Condition:
    if not isinstance(raw, dict) or set(raw) - set(_KEYS):
        raise SpecDataError(f"intent table: {what} is not a condition")
    parts: dict[str, tuple[Member, ...]] = {}
    for key in _KEYS:
        members = raw.get(key, [])
        if not isinstance(members, list):
            raise SpecDataError(f"intent table: {what}.{key} must be a list")
        parts[key] = tuple(
            m if isinstance(m, str) else _condition(m, f"{what}.{key}") for m in members
        )
    return Condition(**parts)


def _pattern(raw: Any, target: str) -> Pattern:
    flags = raw.get("flags", "")
    return Pattern(raw["name"], target, raw["source"], flags, compile_pattern(raw["source"], flags))


def _check(t: Table) -> None:
    """INTENT-1: names unique and defined, both families present in label order."""
    qnames = [p.name for p in t.query_patterns]
    dnames = [p.name for p in t.document_patterns]
    if len(set(qnames + dnames)) != len(qnames + dnames) or LONG_CONTENT in qnames + dnames:
        raise SpecDataError(f"intent-{t.name}.json: pattern names must be unique")
    if not qnames or not dnames or not t.rules:
        raise SpecDataError(f"intent-{t.name}.json: empty table")
    if tuple(f.name for f in t.families) != FAMILIES:
        raise SpecDataError(f"intent-{t.name}.json: families must be {FAMILIES}")
    for f in t.families:
        if not names_in(f.condition) <= set(qnames):
            raise SpecDataError(f"intent-{t.name}.json: family {f.name!r} names an unknown pattern")
    predicates = set(dnames) | ({LONG_CONTENT} if t.long_content_length is not None else set())
    for p in t.document_patterns:
        if p.target not in TARGETS:
            raise SpecDataError(f"intent-{t.name}.json: unknown target {p.target!r}")
    for r in t.rules:
        if r.family not in FAMILIES or not names_in(r.condition) <= predicates:
            raise SpecDataError(f"intent-{t.name}.json: rule {r.name!r} is malformed")


def parse_table(doc: Any) -> Table:
    """INTENT-1: build a Table from a parsed data file; SpecDataError when malformed."""
    try:
        name = doc["name"]
        long_len = doc.get("longContentLength")
        if long_len is not None and (
            not isinstance(long_len, int) or isinstance(long_len, bool) or long_len < 1
        ):
            raise SpecDataError(f"intent-{name}.json: longContentLength must be an integer >= 1")
        t = Table(
            name=name,
            query_patterns=tuple(_pattern(p, "query") for p in doc["queryPatterns"]),
            families=tuple(
                Family(f["name"], _condition({k: f[k] for k in _KEYS if k in f}, f["name"]))
                for f in doc["families"]
            ),
            document_patterns=tuple(_pattern(p, p["target"]) for p in doc["documentPatterns"]),
            rules=tuple(
                Rule(
                    name=r["name"],
                    family=r["family"],
                    condition=_condition({k: r[k] for k in _KEYS if k in r}, r["name"]),
                    multiplier=float(r["multiplier"]),
                )
                for r in doc["rules"]
            ),
            long_content_length=long_len,
        )
    except (KeyError, TypeError, ValueError, AttributeError, re.error) as exc:
        raise SpecDataError(f"intent table is malformed: {exc}") from exc
    _check(t)
    return t


def check_table_name(value: Any) -> str:
    """OP-2, PIPE-1: a known table name, else invalid_input (INTENT-13)."""
    if not isinstance(value, str) or value not in TABLES:
        raise InvalidInput(f"intent table must be one of {', '.join(TABLES)}, got {value!r}")
    return value


@cache
def table(name: str = DEFAULT_TABLE) -> Table:
    """INTENT-1, INTENT-13: the named table from spec/data/intent-<name>.json."""
    t = parse_table(load_json(f"intent-{check_table_name(name)}.json"))
    if t.name != name:
        raise SpecDataError(f"intent-{name}.json names itself {t.name!r}")
    return t
