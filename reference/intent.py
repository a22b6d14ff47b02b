"""Intent detection and reweighting of the fused list (spec/intent.md, INTENT-*; D13, D18).

The rule table lives in spec/data/intent.json and is loaded, never retyped. Regexes run on
folded text with ASCII word boundaries and no flags, so every engine agrees (INTENT-3).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache
from typing import Any

from reference.data import SpecDataError, load_json
from reference.rrf import Fused
from reference.text import fold, length, normalise
from reference.types import Candidate

PREFERENCE = "preference"
CONCRETE_FACT = "concrete-fact"
FAMILIES = (PREFERENCE, CONCRETE_FACT)
LONG_CONTENT = "long_content"
TARGETS = ("path", "text")

_META = frozenset("\\^$.|?*+()[]{}")
_ESCAPABLE = _META | frozenset("-/")
_CLASS_SINGLES = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_-/' ")


@dataclass(frozen=True)
class Intent:
    """INTENT-4: which families the query belongs to, and the trace label."""

    preference: bool
    concrete_fact: bool
    label: str


@dataclass(frozen=True)
class Adjustment:
    """INTENT-8: the multiplier applied to one fused item and the rules that produced it."""

    id: str
    multiplier: float
    rules: tuple[str, ...]


@dataclass(frozen=True)
class Pattern:
    """A named regex of the table (INTENT-2); `target` is query, path or text."""

    name: str
    family: str
    target: str
    source: str
    regex: re.Pattern[str]


@dataclass(frozen=True)
class Rule:
    """INTENT-6: a named document rule with its family, condition and multiplier."""

    name: str
    family: str
    all: tuple[str, ...]
    any: tuple[str, ...]
    none: tuple[str, ...]
    multiplier: float


@dataclass(frozen=True)
class Table:
    """The loaded rule table (INTENT-1)."""

    query_patterns: tuple[Pattern, ...]
    document_patterns: tuple[Pattern, ...]
    rules: tuple[Rule, ...]
    long_content_length: int


def check_portable(source: str) -> None:
    """INTENT-3: reject anything outside the portable ASCII subset; raise ValueError."""
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
            elif nxt in _ESCAPABLE and nxt:
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


def compile_pattern(source: str) -> re.Pattern[str]:
    """INTENT-3: Python reading of a portable source: re.ASCII (ASCII \\b), nothing else."""
    check_portable(source)
    return re.compile(source, re.ASCII)


def _names(raw: Any, what: str) -> tuple[str, ...]:
    if not isinstance(raw, list) or not all(isinstance(x, str) for x in raw):
        raise SpecDataError(f"intent.json: {what} must be a list of names")
    return tuple(raw)


def _parse(doc: Any) -> Table:
    try:
        qps = tuple(
            Pattern(p["name"], p["family"], "query", p["source"], compile_pattern(p["source"]))
            for p in doc["queryPatterns"]
        )
        dps = tuple(
            Pattern(p["name"], "", p["target"], p["source"], compile_pattern(p["source"]))
            for p in doc["documentPatterns"]
        )
        rules = tuple(
            Rule(
                name=r["name"],
                family=r["family"],
                all=_names(r["all"], "all"),
                any=_names(r["any"], "any"),
                none=_names(r["none"], "none"),
                multiplier=float(r["multiplier"]),
            )
            for r in doc["rules"]
        )
        long_len = doc["longContentLength"]
    except (KeyError, TypeError, ValueError, re.error) as exc:
        raise SpecDataError(f"intent.json is malformed: {exc}") from exc
    names = [p.name for p in qps + dps]
    predicates = {p.name for p in dps} | {LONG_CONTENT}
    if len(set(names)) != len(names) or LONG_CONTENT in names:
        raise SpecDataError("intent.json: pattern names must be unique")
    if not qps or not dps or not rules:
        raise SpecDataError("intent.json: empty table")
    for p in qps:
        if p.family not in FAMILIES:
            raise SpecDataError(f"intent.json: unknown family {p.family!r}")
    for p in dps:
        if p.target not in TARGETS:
            raise SpecDataError(f"intent.json: unknown target {p.target!r}")
    for r in rules:
        if r.family not in FAMILIES or not set(r.all + r.any + r.none) <= predicates:
            raise SpecDataError(f"intent.json: rule {r.name!r} is malformed")
    if not isinstance(long_len, int) or isinstance(long_len, bool) or long_len < 1:
        raise SpecDataError("intent.json: longContentLength must be a positive integer")
    return Table(qps, dps, rules, long_len)


@cache
def table() -> Table:
    """INTENT-1: the rule table from spec/data/intent.json (fails loudly when missing)."""
    return _parse(load_json("intent.json"))


def patterns() -> dict[str, str]:
    """INTENT-2: every pattern source by name, query patterns first, in file order."""
    t = table()
    return {p.name: p.source for p in t.query_patterns + t.document_patterns}


def make_label(preference: bool, concrete_fact: bool) -> str:
    """INTENT-4: "", "preference", "concrete-fact" or "preference+concrete-fact"."""
    return "+".join(
        name for name, on in ((PREFERENCE, preference), (CONCRETE_FACT, concrete_fact)) if on
    )


def detect(query: str) -> Intent:
    """INTENT-4, INTENT-12: a family is on when any of its query patterns matches fold(query)."""
    folded = fold(query)
    on = {f: False for f in FAMILIES}
    for p in table().query_patterns:
        if not on[p.family] and p.regex.search(folded):
            on[p.family] = True
    pref, fact = on[PREFERENCE], on[CONCRETE_FACT]
    return Intent(preference=pref, concrete_fact=fact, label=make_label(pref, fact))


def document_text(c: Candidate) -> str:
    """INTENT-5: fold(path + "\\n" + title + "\\n" + summary + "\\n" + content)."""
    return fold("\n".join((c.path, c.title, c.summary, c.content)))


def predicates(c: Candidate) -> dict[str, bool]:
    """INTENT-5, INTENT-6: truth value of every document pattern and of long_content."""
    t = table()
    texts = {"path": fold(c.path), "text": document_text(c)}
    out = {p.name: p.regex.search(texts[p.target]) is not None for p in t.document_patterns}
    out[LONG_CONTENT] = length(normalise(c.content)) > t.long_content_length
    return out


def matching_rules(intent: Intent, c: Candidate) -> list[Rule]:
    """INTENT-6: the rules of the detected families whose condition holds, in table order."""
    active = {PREFERENCE: intent.preference, CONCRETE_FACT: intent.concrete_fact}
    rules = [r for r in table().rules if active[r.family]]
    if not rules:
        return []
    truth = predicates(c)
    return [
        r
        for r in rules
        if all(truth[n] for n in r.all)
        and (not r.any or any(truth[n] for n in r.any))
        and not any(truth[n] for n in r.none)
    ]


def apply_multipliers(score: float, multipliers: Sequence[float]) -> float:
    """INTENT-7: ((score × m1) × m2) … at run time, never score × (m1 × m2)."""
    for m in multipliers:
        score = score * m
    return score


def reweight(intent: Intent, fused: Sequence[Fused]) -> tuple[list[Fused], list[Adjustment]]:
    """INTENT-6..INTENT-10: multiply matching items, then re-sort by exact value, fused rank."""
    if not (intent.preference or intent.concrete_fact):
        return list(fused), []  # INTENT-10: nothing detected, nothing changes.
    out: list[tuple[Fraction, int, Fused]] = []
    adjustments: list[Adjustment] = []
    for position, item in enumerate(fused):
        rules = matching_rules(intent, item.candidate)
        mults = [r.multiplier for r in rules]
        exact = item.exact
        for m in mults:
            exact *= Fraction(m)
        new = replace(item, score=apply_multipliers(item.score, mults), exact=exact)
        if rules:
            adjustments.append(
                Adjustment(item.id, apply_multipliers(1.0, mults), tuple(r.name for r in rules))
            )
        out.append((-exact, position, new))
    out.sort(key=lambda t: (t[0], t[1]))
    return [t[2] for t in out], adjustments


def adjustments_by_id(adjustments: Sequence[Adjustment]) -> Mapping[str, Adjustment]:
    """Index adjustments by id (helper for trace and op output)."""
    return {a.id: a for a in adjustments}
