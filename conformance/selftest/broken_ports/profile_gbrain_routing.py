"""Broken ports of profile gbrain: intent routing and query variants (spec/profiles/gbrain.md
GBRAIN-19, GBRAIN-20, GBRAIN-22, GBRAIN-23), registered on import."""

from __future__ import annotations

from dataclasses import replace
from types import ModuleType
from typing import Any

from conformance.selftest.broken_ports.patching import (
    _mod,
    mutant,
    replace_hooks,
    set_attr,
    swap,
)


def _gbrain(name: str) -> ModuleType:
    return _mod(f"reference.profiles.gbrain.{name}")


def _gbrain_hooks(**changes: Any) -> None:
    replace_hooks("reference.profiles.gbrain", **changes)


@mutant("gbrain-intent-substring", "GBRAIN-19", "triggers match as substrings of the query")
def _gbrain_intent_substring() -> None:
    routing = _gbrain("routing")

    def contains(query: list[str], trigger: tuple[str, ...]) -> bool:
        return " ".join(trigger) in " ".join(query)

    swap(routing, "_contains", contains)


@mutant("gbrain-intent-entity-first", "GBRAIN-19", "entity is tried before temporal and event")
def _gbrain_entity_first() -> None:
    routing = _gbrain("routing")
    original = routing.intent_table

    def intent_table() -> Any:
        table = original()
        ordered = sorted(table.classes, key=lambda c: c[0] != "entity")
        return replace(table, classes=tuple(ordered))

    swap(routing, "intent_table", intent_table)


@mutant("gbrain-temporal-keeps-boost", "GBRAIN-20", "temporal queries are boosted like the rest")
def _gbrain_temporal_boost() -> None:
    original = _gbrain("graph_leg").after_fusion

    def after_fusion(call: Any, query: str, items: Any) -> Any:
        saved = call.trace.get("intent")
        call.trace["intent"] = "general"
        try:
            return original(call, query, items)
        finally:
            call.trace["intent"] = saved

    _gbrain_hooks(after_fusion=after_fusion)


@mutant("gbrain-entity-weight-ignored", "GBRAIN-20", "entity queries leave the graph weight at 1")
def _gbrain_entity_weight() -> None:
    swap(_gbrain("routing"), "route_weights", lambda intent, weights: weights)


@mutant("gbrain-variant-size-unbounded", "GBRAIN-22", "a query variant of any length is run")
def _gbrain_variant_unbounded() -> None:
    set_attr(_mod("reference.profiles.gbrain.graph_leg"), "MAX_VARIANT_CODE_POINTS", 10**9)


@mutant("gbrain-variants-unbounded", "GBRAIN-22", "more than eight variants are accepted")
def _gbrain_variants_unbounded() -> None:
    set_attr(_gbrain("graph_leg"), "MAX_VARIANTS", 10**6)


@mutant(
    "gbrain-variants-empty-skipped",
    "GBRAIN-22",
    "a variant that is empty after normalisation is skipped instead of rejected",
)
def _gbrain_variants_empty_skipped() -> None:
    graph = _gbrain("graph_leg")
    original = graph._variants
    text = _mod("reference.text")

    def variants(raw: object, where: str) -> Any:
        if isinstance(raw, list):
            raw = [v for v in raw if not (isinstance(v, str) and text.normalise(v) == "")]
        return original(raw, where)

    swap(graph, "_variants", variants)


@mutant(
    "gbrain-bypass-follows-last-variant",
    "GBRAIN-23",
    "the temporal bypass reads the class the last variant's weight hook recorded, not variant 0's",
)
def _gbrain_bypass_last_variant() -> None:
    graph = _gbrain("graph_leg")

    def after_fusion(call: Any, query: str, items: Any) -> Any:
        if call.trace.get("intent") != "temporal":
            items = graph.boost(call.options, items)
        items = items[: graph.FUSED_TOP]
        call.state["candidates"] = {item.id: item.candidate for item in items}
        return items

    _gbrain_hooks(after_fusion=after_fusion)


@mutant(
    "gbrain-intent-copy-lacks-last-triggers",
    "GBRAIN-19",
    "a retyped intent table whose trigger lists each lack their last entry (happened, advisors...)",
)
def _gbrain_intent_truncated() -> None:
    routing = _gbrain("routing")
    original = routing.intent_table

    def intent_table() -> Any:
        table = original()
        return replace(table, classes=tuple((c, t[:-1]) for c, t in table.classes))

    swap(routing, "intent_table", intent_table)


@mutant(
    "gbrain-variants-merged-at-k-60",
    "GBRAIN-22",
    "the variants' fused lists are merged with the seed's k = 60, not the request's rrfK",
)
def _gbrain_variants_k60() -> None:
    pipe = _mod("reference.pipeline")
    fuse = _mod("reference.rrf").fuse
    original = pipe.merge_variants

    def merge_variants(runs: Any, k: int) -> Any:
        lists, fused = original(runs, k)
        return (lists, fused) if len(runs) == 1 else (lists, fuse(lists, 60))

    swap(pipe, "merge_variants", merge_variants)


@mutant(
    "gbrain-temporal-skips-the-cut",
    "GBRAIN-20",
    "a temporal query returns the fused list untouched, skipping the top-30 cut with the boosts",
)
def _gbrain_temporal_skips_cut() -> None:
    graph = _gbrain("graph_leg")
    routing = _gbrain("routing")
    original = graph.after_fusion

    def after_fusion(call: Any, query: str, items: Any) -> Any:
        if routing.classify(query) != "temporal":
            return original(call, query, items)
        call.trace["intent"] = "temporal"
        call.state["candidates"] = {item.id: item.candidate for item in items}
        return items

    _gbrain_hooks(after_fusion=after_fusion)
