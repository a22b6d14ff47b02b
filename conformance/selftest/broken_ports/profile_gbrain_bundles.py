"""Broken ports of profile gbrain: the mode bundles (spec/profiles/gbrain.md GBRAIN-26,
GBRAIN-27), registered on import."""

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


@mutant("gbrain-bundle-ignored", "GBRAIN-26", "the bundle is accepted but presets nothing")
def _gbrain_bundle_ignored() -> None:
    graph = _gbrain("graph_leg")
    original = graph.parse_options

    def parse_options(obj: Any) -> Any:
        options = original({k: v for k, v in obj.items() if k != "bundle"})
        return replace(options, bundle=obj.get("bundle"))

    swap(graph, "parse_options", parse_options)
    _gbrain_hooks(parse_request=parse_options)


@mutant(
    "gbrain-expansion-always-on",
    "GBRAIN-26",
    "the caller's variants run in every bundle (expansion is not switched)",
)
def _gbrain_expansion_always() -> None:
    graph = _gbrain("graph_leg")
    original = graph.query_variants

    def query_variants(call: Any, query: str) -> Any:
        original(call, query)
        return list(call.options.variants)

    _gbrain_hooks(query_variants=query_variants)


@mutant(
    "gbrain-bundle-budgets-in-characters",
    "GBRAIN-27",
    "the bundles' budgets are another scale (×4, characters rather than words)",
)
def _gbrain_bundle_budgets() -> None:
    graph = _gbrain("graph_leg")
    bundles = {
        name: replace(b, token_budget=b.token_budget * 4) for name, b in graph.BUNDLES.items()
    }
    set_attr(graph, "BUNDLES", bundles)


@mutant(
    "gbrain-bundle-overrides-options",
    "GBRAIN-27",
    "the bundle's switches win over the caller's expansion and reranker options",
)
def _gbrain_bundle_wins() -> None:
    graph = _gbrain("graph_leg")
    original = graph.parse_options

    def parse_options(obj: Any) -> Any:
        options = original(obj)
        preset = graph.BUNDLES.get(obj.get("bundle"))
        if preset is None:
            return options
        return replace(options, expansion=preset.expansion, reranker=preset.reranker)

    swap(graph, "parse_options", parse_options)
    _gbrain_hooks(parse_request=parse_options)


@mutant(
    "gbrain-conservative-keeps-reranker",
    "GBRAIN-27",
    "the reranker stays on in every bundle (only balanced is named by the seed)",
)
def _gbrain_reranker_always() -> None:
    _gbrain_hooks(rerank_enabled=None)


@mutant(
    "gbrain-null-switch-is-on",
    "GBRAIN-27",
    "expansion or reranker null is read as on (the no-bundle default), not as the bundle's value",
)
def _gbrain_null_switch_on() -> None:
    graph = _gbrain("graph_leg")
    original = graph.parse_options

    def parse_options(obj: Any) -> Any:
        options = original(obj)
        if isinstance(obj, dict):
            if "expansion" in obj and obj["expansion"] is None:
                options = replace(options, expansion=True)
            if "reranker" in obj and obj["reranker"] is None:
                options = replace(options, reranker=True)
        return options

    swap(graph, "parse_options", parse_options)
    _gbrain_hooks(parse_request=parse_options)


@mutant(
    "gbrain-null-budget-is-none",
    "GBRAIN-27",
    "tokenBudget null is read as no budget, not as the bundle's budget",
)
def _gbrain_null_budget_none() -> None:
    graph = _gbrain("graph_leg")
    original = graph.parse_options

    def parse_options(obj: Any) -> Any:
        options = original(obj)
        if isinstance(obj, dict) and "tokenBudget" in obj and obj["tokenBudget"] is None:
            options = replace(options, token_budget=None)
        return options

    swap(graph, "parse_options", parse_options)
    _gbrain_hooks(parse_request=parse_options)


@mutant(
    "gbrain-bundle-null-rejected",
    "GBRAIN-26",
    "bundle null is checked against the three names and rejected, not read as no bundle",
)
def _gbrain_bundle_null_rejected() -> None:
    graph = _gbrain("graph_leg")
    original = graph.parse_options
    invalid = _mod("reference.types").InvalidInput

    def parse_options(obj: Any) -> Any:
        if isinstance(obj, dict) and "bundle" in obj and obj["bundle"] is None:
            raise invalid("request.profiles.gbrain.bundle must be one of the bundles")
        return original(obj)

    swap(graph, "parse_options", parse_options)
    _gbrain_hooks(parse_request=parse_options)
