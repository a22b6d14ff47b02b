"""Broken ports of profile engram, one per clause: the mistakes a careful porter makes
(spec/profiles/engram.md); registered on import."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import replace
from types import ModuleType
from typing import Any

from conformance.selftest.broken_ports.patching import (
    _mod,
    mutant,
    set_attr,
    set_entry,
    swap,
)


def _engram(module: str) -> ModuleType:
    return _mod(f"reference.profiles.engram.{module}")


def _engram_retyped_table(edit: Callable[[dict[str, Any]], None]) -> None:
    """Replace the loaded table by a hand-retyped copy of the data file with one slip."""
    table = _engram("table")
    table.table.cache_clear()
    data = _mod("reference.data").load_json(table.DATA_FILE)
    copy = {"patterns": [dict(p) for p in data["patterns"]], "default": data["default"],
            "weights": {k: dict(v) for k, v in data["weights"].items()}}
    edit(copy)
    patterns = tuple((p["name"], re.compile(p["source"], re.ASCII)) for p in copy["patterns"])
    weights = {k: {c: float(x) for c, x in v.items()} for k, v in copy["weights"].items()}
    real = table.table()
    set_attr(table, "table", lambda: replace(real, patterns=patterns, weights=weights))


@mutant(
    "engram-retyped-patterns-last-word",
    "ENGRAM-1",
    "patterns retyped by hand, each missing its last word (resulted in, history, wrote, fix)",
    seams=("reference.profiles.engram.table.table",),
)
def _engram_retyped_patterns() -> None:
    def edit(copy: dict[str, Any]) -> None:
        for p in copy["patterns"]:
            p["source"] = re.sub(r"\|[^|()]*\)", ")", p["source"], count=1)

    _engram_retyped_table(edit)


@mutant(
    "engram-retyped-weights-when-swapped",
    "ENGRAM-1",
    "weight table retyped with the when row's dense and BM25 weights swapped (1.2, 0.8)",
    seams=("reference.profiles.engram.table.table",),
)
def _engram_retyped_weights() -> None:
    def edit(copy: dict[str, Any]) -> None:
        row = copy["weights"]["when"]
        row["vector"], row["bm25"] = row["bm25"], row["vector"]

    _engram_retyped_table(edit)


@mutant(
    "engram-matched-winner-only",
    "ENGRAM-4",
    "matched lists only the winning pattern, not every pattern that matches",
    seams=("reference.profiles.engram.table.classify",),
)
def _engram_matched_winner_only() -> None:
    table = _engram("table")
    original = table.classify

    def classify(query: str) -> Any:
        got = original(query)
        return replace(got, matched=got.matched[:1])

    swap(table, "classify", classify)


@mutant(
    "engram-matched-names-default",
    "ENGRAM-4",
    "matched is [\"what\"] for the default class instead of []",
    seams=("reference.profiles.engram.table.classify",),
)
def _engram_matched_default() -> None:
    table = _engram("table")
    original = table.classify

    def classify(query: str) -> Any:
        got = original(query)
        return got if got.matched else replace(got, matched=(got.intent,))

    swap(table, "classify", classify)


@mutant(
    "engram-decay-every-kind",
    "ENGRAM-9",
    "recency decay applied to every dated memory, not only to kind episodic",
    seams=("reference.profiles.engram.boost.factors",),
)
def _engram_decay_every_kind() -> None:
    b = _engram("boost")
    original = b.factors

    def factors(metadata: Any, wanted: Any, now: int, half: float) -> Any:
        if metadata.get(b.DATE_KEY) is not None:
            metadata = {**metadata, b.KIND_KEY: b.EPISODIC}
        return original(metadata, wanted, now, half)

    swap(b, "factors", factors)


@mutant(
    "engram-ties-reversed",
    "ENGRAM-11",
    "sorted ascending then reversed, so equal boosted scores come out in reverse input order",
    seams=("reference.profiles.engram.boost.order",),
)
def _engram_ties_reversed() -> None:
    b = _engram("boost")
    swap(b, "order", lambda scores: sorted(range(len(scores)), key=lambda i: scores[i])[::-1])


@mutant(
    "engram-single-precision-math",
    "ENGRAM-12",
    "exp and log evaluated in single precision (expf/logf, float32), then widened",
    seams=("reference.profiles.engram.boost.exp", "reference.profiles.engram.boost.log"),
)
def _engram_single_precision() -> None:
    import struct

    def f32(x: float) -> float:
        return float(struct.unpack("f", struct.pack("f", x))[0])

    b = _engram("boost")
    set_attr(b, "exp", lambda x: f32(math.exp(f32(x))))
    set_attr(b, "log", lambda x: f32(math.log(f32(x))))


@mutant(
    "engram-exp-taylor-12-terms",
    "ENGRAM-12",
    "exp hand-written as a Taylor series cut after 12 terms, without range reduction",
    seams=("reference.profiles.engram.boost.exp",),
)
def _engram_exp_taylor() -> None:
    def exp(x: float) -> float:
        total, term = 1.0, 1.0
        for n in range(1, 12):
            term = term * x / n
            total += term
        return total

    set_attr(_engram("boost"), "exp", exp)


@mutant(
    "engram-half-life-null-rejected",
    "ENGRAM-13",
    "halfLifeDays: null rejected as not a number instead of read as absent (default 30)",
    seams=("reference.profiles.engram.OPERATIONS",),
)
def _engram_half_life_null() -> None:
    def reject_null(obj: Any, where: str) -> None:
        if "halfLifeDays" in obj and obj["halfLifeDays"] is None:
            raise _mod("reference.types").InvalidInput(f"{where}.halfLifeDays must be a number")

    # The profile's own table: the discovered profiles are rebuilt from it after the patch.
    operations = _mod("reference.profiles.engram").OPERATIONS
    op_boost = operations["engram.boost"]

    def boost(inp: Any) -> Any:
        reject_null(inp, "input")
        return op_boost(inp)

    set_entry(_mod("reference.profiles.engram"), "OPERATIONS", "engram.boost", boost)


@mutant(
    "engram-age-zero-without-date",
    "ENGRAM-13",
    "ageDays reported as 0 instead of null for a memory without a valid date",
    seams=("reference.profiles.engram.ops.boost_items",),
)
def _engram_age_zero() -> None:
    ops = _engram("ops")
    original = ops.boost_items

    def boost_items(query: str, opts: Any, items: Any) -> Any:
        wanted, records = original(query, opts, items)
        return wanted, [{**r, "ageDays": 0.0 if r["ageDays"] is None else r["ageDays"]}
                        for r in records]

    swap(ops, "boost_items", boost_items)


@mutant(
    "engram-graph-weight-ignored",
    "ENGRAM-5",
    "the class's graph weight not applied: the graph list is fused with weight 1.0",
    seams=("reference.profiles.engram.search.classify",),
)
def _engram_graph_weight_ignored() -> None:
    search = _engram("search")
    original = search.classify

    def classify(query: str) -> Any:
        got = original(query)
        return replace(got, weights={**got.weights, "graph": 1.0})

    set_attr(search, "classify", classify)


@mutant(
    "engram-bool-is-number",
    "ENGRAM-13",
    "true accepted as the number 1 (Python's bool is an int) for halfLifeDays, score, minScore",
    seams=("reference.profiles.engram.options.number",),
)
def _engram_bool_is_number() -> None:
    o = _engram("options")
    original = o.number

    def number(value: Any, what: str) -> float:
        return float(value) if isinstance(value, bool) else float(original(value, what))

    swap(o, "number", number)


@mutant(
    "engram-classify-unfolded",
    "ENGRAM-2",
    "patterns searched in query.lower(), not fold(query): no whitespace or zero-width folding",
    seams=("reference.profiles.engram.table.classify",),
)
def _engram_classify_unfolded() -> None:
    table = _engram("table")
    original = table.classify

    def classify(query: str) -> Any:
        t = table.table()
        text = query.lower()
        matched = tuple(name for name, rx in t.patterns if rx.search(text))
        got = original(query)
        intent = matched[0] if matched else t.default
        return replace(got, intent=intent, matched=matched, weights=dict(t.weights[intent]))

    swap(table, "classify", classify)
