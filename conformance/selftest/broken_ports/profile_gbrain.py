"""Broken ports of profile gbrain (spec/profiles/gbrain.md), registered on import."""

from __future__ import annotations

import re
from dataclasses import replace
from types import ModuleType
from typing import Any

from conformance.selftest.broken_ports.patching import (
    _mod,
    mutant,
    set_attr,
    swap,
)


@mutant("gbrain-variant-size-unbounded", "GBRAIN-22", "a query variant of any length is run")
def _gbrain_variant_unbounded() -> None:
    set_attr(_mod("reference.profiles.gbrain.graph_leg"), "MAX_VARIANT_CODE_POINTS", 10**9)


# -- profile gbrain (spec/profiles/gbrain.md) ----------------------------------------------------


def _gbrain(name: str) -> ModuleType:
    return _mod(f"reference.profiles.gbrain.{name}")


@mutant("gbrain-edges-utf16-order", "GBRAIN-9", "edges sorted by UTF-16 code units (JS sort)")
def _gbrain_utf16() -> None:
    links = _gbrain("links")
    original = links.extract_links

    def utf16(text: str) -> bytes:
        return text.encode("utf-16-be")

    def extract_links(path: str, markdown: str) -> Any:
        page, edges = original(path, markdown)
        return page, sorted(edges, key=lambda e: (utf16(e.target), utf16(e.type)))

    swap(links, "extract_links", extract_links)


@mutant("gbrain-code-spans-kept", "GBRAIN-4", "code spans and escapes are not blanked")
def _gbrain_code_spans() -> None:
    swap(_gbrain("links"), "blank_line", lambda line: line)


@mutant("gbrain-tilde-fence-ignored", "GBRAIN-3", "only backtick fences hide code, not ~~~")
def _gbrain_tilde() -> None:
    links = _gbrain("links")
    original = links.code_lines

    def code_lines(lines: list[str]) -> Any:
        return original([line.replace("~", "x") for line in lines])

    swap(links, "code_lines", code_lines)


@mutant(
    "gbrain-markdown-on-unmasked-line",
    "GBRAIN-5",
    "the markdown pattern also runs over wikilinks, so [[a]](b) links to b as well",
)
def _gbrain_unmasked() -> None:
    links = _gbrain("links")

    def link_spans(line: str, table: Any) -> list[Any]:
        spans = [
            links._Span(m.start(), m.end(), m.group(table.wikilink_group))
            for m in table.wikilink.finditer(line)
        ]
        for m in table.markdown.finditer(line):
            if m.start() > 0 and line[m.start() - 1] == "!":
                continue
            spans.append(links._Span(m.start(), m.end(), m.group(table.markdown_group)))
        return sorted(spans, key=lambda s: s.start)

    swap(links, "link_spans", link_spans)


@mutant("gbrain-relative-from-root", "GBRAIN-6", "./ and ../ resolve from the root, not the page")
def _gbrain_relative() -> None:
    links = _gbrain("links")
    original = links.resolve

    def resolve(target: str, base: tuple[str, ...]) -> Any:
        return original(target, ())

    swap(links, "resolve", resolve)


@mutant("gbrain-anchor-kept", "GBRAIN-6", "the #anchor stays part of the target")
def _gbrain_anchor() -> None:
    links = _gbrain("links")
    original = links.target_page

    def target_page(target: str, base: tuple[str, ...]) -> Any:
        return original(target.replace("#", "%23"), base)

    swap(links, "target_page", target_page)


@mutant(
    "gbrain-first-type-wins",
    "GBRAIN-8",
    "the first type of the table found anywhere in the window wins, whatever the distance",
)
def _gbrain_first_type() -> None:
    links = _gbrain("links")
    original = links.infer_type

    def infer_type(before: Any, after: Any, table: Any) -> Any:
        types = [t for t, _ in table.triggers]
        found = {
            original(before, after, replace(table, triggers=(entry,)))
            for entry in table.triggers
        }
        hits = [t for t in types if t in found]
        return hits[0] if hits else table.default_type

    swap(links, "infer_type", infer_type)


@mutant("gbrain-unicode-lowercase-words", "GBRAIN-8", "words are lowercased with full Unicode")
def _gbrain_unicode_lower() -> None:
    links = _gbrain("links")

    def words(text: str) -> list[str]:
        return re.findall(r"[a-z0-9]+", text.lower())

    swap(links, "_words", words)


@mutant("gbrain-typed-label-verbatim", "GBRAIN-7", "the typed label is only lowercased")
def _gbrain_label() -> None:
    links = _gbrain("links")

    def typed_label(line: str, table: Any) -> Any:
        m = table.typed.search(line)
        return None if m is None else m.group(table.typed_group).lower()

    swap(links, "typed_label", typed_label)


@mutant("gbrain-dedup-by-target", "GBRAIN-9", "edges are unique by target, the first type kept")
def _gbrain_dedup() -> None:
    links = _gbrain("links")
    original = links.extract_links

    def extract_links(path: str, markdown: str) -> Any:
        page, edges = original(path, markdown)
        seen: set[str] = set()
        kept = []
        for edge in edges:
            if edge.target not in seen:
                seen.add(edge.target)
                kept.append(edge)
        return page, kept

    swap(links, "extract_links", extract_links)


@mutant("gbrain-walk-out-only", "GBRAIN-10", "the default direction is out, not both")
def _gbrain_out_only() -> None:
    traverse = _gbrain("traverse")
    original = traverse.walk_options

    def walk_options(obj: Any, where: str) -> Any:
        opts = original(obj, where)
        return opts if obj.get("direction") is not None else replace(opts, direction="out")

    swap(traverse, "walk_options", walk_options)


@mutant(
    "gbrain-fanout-before-exclusion",
    "GBRAIN-11",
    "fan-out takes the first neighbours before dropping pages already reached",
)
def _gbrain_fanout() -> None:
    traverse = _gbrain("traverse")

    def walk(adjacent: Any, seeds: Any, options: Any) -> Any:
        depth_of = {seed: 0 for seed in seeds}
        support = {seed: 0 for seed in seeds}
        level = sorted(seeds)
        for d in range(options.depth):
            nxt: list[str] = []
            for page in level:
                for n in sorted(adjacent.get(page, ()))[: options.fanout]:
                    if n in depth_of and depth_of[n] <= d:
                        continue
                    if n not in depth_of:
                        depth_of[n] = d + 1
                        support[n] = 0
                        nxt.append(n)
                    support[n] += 1
            level = sorted(nxt)
        ranked = sorted(depth_of, key=lambda p: (depth_of[p], -support[p], p))
        return [traverse.Reached(p, depth_of[p], support[p]) for p in ranked]

    swap(traverse, "walk", walk)


@mutant("gbrain-rank-ignores-support", "GBRAIN-12", "reached pages rank by depth, then id only")
def _gbrain_rank() -> None:
    traverse = _gbrain("traverse")
    original = traverse.walk

    def walk(adjacent: Any, seeds: Any, options: Any) -> Any:
        return sorted(original(adjacent, seeds, options), key=lambda r: (r.depth, r.page))

    swap(traverse, "walk", walk)


@mutant("gbrain-seed-substring", "GBRAIN-14", "a page is a seed when its name is a substring")
def _gbrain_seed_substring() -> None:
    graph = _gbrain("graph_leg")

    def occurs(name: list[str], query: list[str]) -> bool:
        return " ".join(name) in " ".join(query) or "".join(name) in "".join(query)

    swap(graph, "_occurs", occurs)


@mutant("gbrain-reached-counts-hits", "GBRAIN-15", "reached counts the hits kept by the limit")
def _gbrain_reached() -> None:
    graph = _gbrain("graph_leg")
    original = graph.GbrainGraphBackend.search_graph

    def search_graph(self: Any, query: str, limit: int) -> Any:
        hits = original(self, query, limit)
        if "reached" in self._trace:
            self._trace["reached"] = len(hits)
        return hits

    set_attr(graph.GbrainGraphBackend, "search_graph", search_graph)


def _gbrain_hooks(**changes: Any) -> None:
    """Replace hooks of the gbrain PIPELINE (the dataclass holds the functions themselves)."""
    package = _mod("reference.profiles.gbrain")
    set_attr(package, "PIPELINE", replace(package.PIPELINE, **changes))


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
    "gbrain-walks-unindexed-pages",
    "GBRAIN-24",
    "every given or extracted edge is walked, through pages that are not indexed (1.1.0)",
)
def _gbrain_walks_unindexed() -> None:
    swap(_gbrain("graph_leg"), "stored_edges", lambda edges, pages: list(edges))


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
