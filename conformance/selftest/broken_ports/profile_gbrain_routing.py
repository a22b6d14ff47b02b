"""Broken ports of profile gbrain: the intent classifier (spec/profiles/gbrain.md GBRAIN-19),
registered on import."""

from __future__ import annotations

from dataclasses import replace
from types import ModuleType
from typing import Any

from conformance.selftest.broken_ports.patching import (
    _mod,
    mutant,
    swap,
)


def _gbrain(name: str) -> ModuleType:
    return _mod(f"reference.profiles.gbrain.{name}")


@mutant(
    "gbrain-intent-substring",
    "GBRAIN-19",
    "triggers match as substrings of the query",
    seams=("reference.profiles.gbrain.routing._contains",),
)
def _gbrain_intent_substring() -> None:
    routing = _gbrain("routing")

    def contains(query: list[str], trigger: tuple[str, ...]) -> bool:
        return " ".join(trigger) in " ".join(query)

    swap(routing, "_contains", contains)


@mutant(
    "gbrain-intent-entity-first",
    "GBRAIN-19",
    "entity is tried before temporal and event",
    seams=("reference.profiles.gbrain.routing.intent_table",),
)
def _gbrain_entity_first() -> None:
    routing = _gbrain("routing")
    original = routing.intent_table

    def intent_table() -> Any:
        table = original()
        ordered = sorted(table.classes, key=lambda c: c[0] != "entity")
        return replace(table, classes=tuple(ordered))

    swap(routing, "intent_table", intent_table)
