"""Intent detection and reweighting of the fused list (spec/intent.md, INTENT-*; D13, D18).

The named rule tables are loaded by reference.intent_table and their regexes read by
reference.intent_regex; this module detects the families and applies the rules.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from reference.intent_regex import check_portable, compile_pattern
from reference.intent_table import (
    CONCRETE_FACT,
    DEFAULT_TABLE,
    FAMILIES,
    LONG_CONTENT,
    PREFERENCE,
    TABLES,
    Rule,
    Table,
    check_table_name,
    holds,
    parse_table,
    table,
)
from reference.rrf import Fused
from reference.text import fold, length, normalise
from reference.types import Candidate

__all__ = [
    "CONCRETE_FACT",
    "DEFAULT_TABLE",
    "FAMILIES",
    "LONG_CONTENT",
    "PREFERENCE",
    "TABLES",
    "Adjustment",
    "Intent",
    "Rule",
    "Table",
    "adjustments_by_id",
    "apply_multipliers",
    "check_portable",
    "check_table_name",
    "compile_pattern",
    "detect",
    "document_text",
    "holds",
    "make_label",
    "matching_rules",
    "parse_table",
    "patterns",
    "predicates",
    "query_truth",
    "reweight",
    "table",
]


@dataclass(frozen=True)
class Intent:
    """INTENT-4: which families the query belongs to, the trace label, and the table used."""

    preference: bool
    concrete_fact: bool
    label: str
    table: str = DEFAULT_TABLE


@dataclass(frozen=True)
class Adjustment:
    """INTENT-8: the multiplier applied to one fused item and the rules that produced it."""

    id: str
    multiplier: float
    rules: tuple[str, ...]


def patterns(name: str = DEFAULT_TABLE) -> dict[str, str]:
    """INTENT-2: every pattern source of the table by name, query patterns first, file order."""
    t = table(name)
    return {p.name: p.source for p in t.query_patterns + t.document_patterns}


def make_label(preference: bool, concrete_fact: bool) -> str:
    """INTENT-4: "", "preference", "concrete-fact" or "preference+concrete-fact"."""
    return "+".join(
        name for name, on in ((PREFERENCE, preference), (CONCRETE_FACT, concrete_fact)) if on
    )


def query_truth(query: str, name: str = DEFAULT_TABLE) -> dict[str, bool]:
    """INTENT-4: whether each query pattern of the table matches fold(query)."""
    folded = fold(query)
    return {p.name: p.regex.search(folded) is not None for p in table(name).query_patterns}


def detect(query: str, name: str = DEFAULT_TABLE) -> Intent:
    """INTENT-4, INTENT-12: a family is on when its condition over the query patterns holds."""
    truth = query_truth(query, name)
    on = {f.name: holds(f.condition, truth) for f in table(name).families}
    pref, fact = on[PREFERENCE], on[CONCRETE_FACT]
    return Intent(pref, fact, make_label(pref, fact), name)


def document_text(c: Candidate) -> str:
    """INTENT-5: fold(path + "\\n" + title + "\\n" + summary + "\\n" + content)."""
    return fold("\n".join((c.path, c.title, c.summary, c.content)))


def predicates(c: Candidate, name: str = DEFAULT_TABLE) -> dict[str, bool]:
    """INTENT-5, INTENT-6: truth of every document pattern (and long_content if defined)."""
    t = table(name)
    texts = {"path": fold(c.path), "text": document_text(c)}
    out = {p.name: p.regex.search(texts[p.target]) is not None for p in t.document_patterns}
    if t.long_content_length is not None:
        out[LONG_CONTENT] = length(normalise(c.content)) > t.long_content_length
    return out


def matching_rules(intent: Intent, c: Candidate) -> list[Rule]:
    """INTENT-6: the rules of the detected families whose condition holds, in table order."""
    active = {PREFERENCE: intent.preference, CONCRETE_FACT: intent.concrete_fact}
    rules = [r for r in table(intent.table).rules if active[r.family]]
    if not rules:
        return []
    truth = predicates(c, intent.table)
    return [r for r in rules if holds(r.condition, truth)]


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
