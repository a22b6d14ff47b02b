"""Broken ports of profile gbrain: excludes, dedup, boosts, the top-30 cut and the token budget
(spec/profiles/gbrain.md GBRAIN-16..18, GBRAIN-21, GBRAIN-25), registered on import."""

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


@mutant(
    "gbrain-exclude-after-cut",
    "GBRAIN-16",
    "excluded pages are dropped after the candidateK cut (post-rank), so they still use up a rank",
)
def _gbrain_exclude_after_cut() -> None:
    _gbrain_hooks(leg_limit=None)


@mutant("gbrain-dedup-missing", "GBRAIN-17", "several chunks of one page all come back")
def _gbrain_dedup_missing() -> None:
    swap(_gbrain("graph_leg"), "dedup", lambda items: items)


@mutant("gbrain-dedup-by-path-string", "GBRAIN-17", "dedup keys on the path string, not the page")
def _gbrain_dedup_by_path() -> None:
    graph = _gbrain("graph_leg")

    def dedup(items: Any) -> Any:
        seen: set[str] = set()
        out = []
        for item in items:
            if item.path not in seen:
                seen.add(item.path)
                out.append(item)
        return out

    swap(graph, "dedup", dedup)


@mutant(
    "gbrain-boost-float-order",
    "GBRAIN-18",
    "boosted items are ordered by their binary64 scores (stable sort), not the exact values",
)
def _gbrain_boost_float() -> None:
    graph = _gbrain("graph_leg")
    original = graph.boost

    def boost(options: Any, items: Any) -> Any:
        boosted = original(options, items)
        by_id = {item.id: item for item in boosted}
        kept = [by_id[item.id] for item in items]
        return sorted(kept, key=lambda item: -item.score)

    swap(graph, "boost", boost)


@mutant("gbrain-no-top-30-cut", "GBRAIN-25", "the fused list is not cut to the top 30")
def _gbrain_no_cut() -> None:
    set_attr(_gbrain("graph_leg"), "FUSED_TOP", 2**62)


@mutant(
    "gbrain-dedup-before-rerank",
    "GBRAIN-17",
    "dedup keeps the first fused chunk of a page, before the reranker (1.1.0)",
)
def _gbrain_dedup_before_rerank() -> None:
    graph = _gbrain("graph_leg")
    original = graph.after_fusion

    def after_fusion(call: Any, query: str, items: Any) -> Any:
        items = original(call, query, items)
        if call.options.dedup:
            kept = {c.id for c in graph.dedup([item.candidate for item in items])}
            items = [item for item in items if item.id in kept]
        return items

    _gbrain_hooks(after_fusion=after_fusion)


@mutant(
    "gbrain-budget-skips-large-items",
    "GBRAIN-21",
    "an item over the remaining budget is skipped and smaller later items still fill it",
)
def _gbrain_budget_skip() -> None:
    graph = _gbrain("graph_leg")
    words = _mod("reference.text").words

    def within_budget(call: Any, budget: int, items: Any) -> Any:
        used, out = 0, []
        for item in items:
            tokens = len(words(item.content))
            if used + tokens <= budget:
                used += tokens
                out.append(item)
        call.trace["budget"] = {"limit": budget, "used": used, "dropped": len(items) - len(out)}
        return out

    swap(graph, "within_budget", within_budget)


@mutant("gbrain-budget-counts-code-points", "GBRAIN-21", "tokens are counted as code points / 4")
def _gbrain_budget_chars() -> None:
    graph = _gbrain("graph_leg")

    def within_budget(call: Any, budget: int, items: Any) -> Any:
        used, kept = 0, 0
        for item in items:
            tokens = -(-len(item.content) // 4)
            if used + tokens > budget:
                break
            used, kept = used + tokens, kept + 1
        call.trace["budget"] = {"limit": budget, "used": used, "dropped": len(items) - kept}
        return items[:kept]

    swap(graph, "within_budget", within_budget)


@mutant(
    "gbrain-dedup-before-budget",
    "GBRAIN-21",
    "dedup runs before the token budget, so a dropped chunk never counts (the 2.0 draft's order)",
)
def _gbrain_dedup_before_budget() -> None:
    graph = _gbrain("graph_leg")

    def after_rerank(call: Any, query: str, entries: Any, outcome: str) -> Any:
        by_id = call.state["candidates"]
        items = [by_id[item_id] for item_id, _ in entries]
        if call.options.dedup:
            items = graph.dedup(items)
        if call.options.token_budget is not None:
            items = graph.within_budget(call, call.options.token_budget, items)
        return [item.id for item in items]

    _gbrain_hooks(after_rerank=after_rerank)


@mutant(
    "gbrain-budget-before-rerank",
    "GBRAIN-21",
    "the token budget counts the fused list, before the reranker (1.1.0)",
)
def _gbrain_budget_before_rerank() -> None:
    graph = _gbrain("graph_leg")
    original_fusion = graph.after_fusion
    original_rerank = graph.after_rerank

    def after_fusion(call: Any, query: str, items: Any) -> Any:
        items = original_fusion(call, query, items)
        if call.options.dedup:
            kept = {c.id for c in graph.dedup([item.candidate for item in items])}
            items = [item for item in items if item.id in kept]
        if call.options.token_budget is not None:
            fits = graph.within_budget(
                call, call.options.token_budget, [item.candidate for item in items]
            )
            items = items[: len(fits)]
        return items

    def after_rerank(call: Any, query: str, entries: Any, outcome: str) -> Any:
        budget = call.options.token_budget
        call.options = replace(call.options, token_budget=None)
        try:
            return original_rerank(call, query, entries, outcome)
        finally:
            call.options = replace(call.options, token_budget=budget)

    _gbrain_hooks(after_fusion=after_fusion, after_rerank=after_rerank)


@mutant(
    "gbrain-boost-first-listed-key",
    "GBRAIN-18",
    "the first matching key in the boost object's member order gives the factor, not the longest",
)
def _gbrain_boost_first_key() -> None:
    graph = _gbrain("graph_leg")
    original = graph._boost_map

    def boost_map(raw: object, where: str) -> Any:
        factors = dict(original(raw, where))
        return tuple((p, factors[p]) for p in raw) if isinstance(raw, dict) else ()

    swap(graph, "_boost_map", boost_map)


@mutant(
    "gbrain-top-30-keeps-rank-30",
    "GBRAIN-25",
    "the cut keeps 0-based ranks 0..30 (rank <= 30), so 31 items survive",
)
def _gbrain_top_31() -> None:
    set_attr(_gbrain("graph_leg"), "FUSED_TOP", 31)


@mutant(
    "gbrain-top-30-one-based-below",
    "GBRAIN-25",
    "the cut keeps 1-based ranks below 30, so 29 items survive",
)
def _gbrain_top_29() -> None:
    set_attr(_gbrain("graph_leg"), "FUSED_TOP", 29)


@mutant(
    "gbrain-dedup-null-is-off",
    "GBRAIN-17",
    "dedup null is read as false (a falsy check), not as the default true",
)
def _gbrain_dedup_null_off() -> None:
    graph = _gbrain("graph_leg")
    original = graph.parse_options

    def parse_options(obj: Any) -> Any:
        options = original(obj)
        if isinstance(obj, dict) and "dedup" in obj and obj["dedup"] is None:
            options = replace(options, dedup=False)
        return options

    swap(graph, "parse_options", parse_options)
    _gbrain_hooks(parse_request=parse_options)


@mutant(
    "gbrain-budget-unbounded",
    "GBRAIN-21",
    "tokenBudget is checked to be at least 1 but has no upper bound (2^31 - 1)",
)
def _gbrain_budget_unbounded() -> None:
    graph = _gbrain("graph_leg")
    original = graph.whole_number

    def whole_number(value: object, name: str, minimum: int = 1, maximum: int = 0) -> int:
        return int(original(value, name, minimum, 2**62))

    set_attr(graph, "whole_number", whole_number)


@mutant(
    "gbrain-exclude-on-page-id",
    "GBRAIN-16",
    "exclude prefixes are matched on the page id of the path, not on the path as given",
)
def _gbrain_exclude_on_page_id() -> None:
    graph = _gbrain("graph_leg")
    page_of_path = _gbrain("links").page_of_path

    def filter_leg(call: Any, leg: str, hits: Any) -> Any:
        prefixes = call.options.exclude
        if not prefixes:
            return hits
        return [h for h in hits if not (page_of_path(h.path) or h.path).startswith(prefixes)]

    swap(graph, "filter_leg", filter_leg)
    _gbrain_hooks(filter_leg=filter_leg)
