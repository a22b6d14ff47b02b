"""Broken ports that follow the old (2.2.0) readings issue 25 replaced by the seeds' own,
registered on import: each is a port written to the earlier chapter text, which the suite
must now fail.
"""

from __future__ import annotations

from dataclasses import replace
from types import ModuleType
from typing import Any

from conformance.selftest.mutants import _mod, mutant, set_attr, swap


def _gbrain(name: str) -> ModuleType:
    return _mod(f"reference.profiles.gbrain.{name}")


def _gbrain_hooks(**changes: Any) -> None:
    package = _mod("reference.profiles.gbrain")
    set_attr(package, "PIPELINE", replace(package.PIPELINE, **changes))


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


def _scoped() -> ModuleType:
    return _mod("reference.profiles.scoped_fusion.hooks")


@mutant(
    "scoped-semantic-short-circuit",
    "SCOPE-16",
    "a semantic weight of 0 skips the vector leg too (the core's symmetric PIPE-8, 1.0.0)",
)
def _scoped_semantic_short_circuit() -> None:
    swap(_scoped(), "runs_at_zero_weight", lambda leg: False)


@mutant(
    "scoped-zero-score-by-path",
    "SCOPE-16",
    "semantic-only hits at score 0 are ordered by path (the core's tie rule), not semantically",
)
def _scoped_zero_by_path() -> None:
    hooks = _scoped()
    original = hooks.semantic_at_zero

    def semantic_at_zero(items: Any, semantic: Any) -> Any:
        return original(items, sorted(semantic, key=lambda c: c.path))

    swap(hooks, "semantic_at_zero", semantic_at_zero)


@mutant(
    "scoped-zero-weight-vector-votes",
    "SCOPE-16",
    "the vector leg run at weight 0 still votes in the unanimity shortcut",
)
def _scoped_zero_weight_votes() -> None:
    pipe = _mod("reference.pipeline")
    original = pipe.unanimity_voters

    def unanimity_voters(bm25: Any, vleg: Any) -> Any:
        if bm25 is None or not vleg.ran:
            return None
        return original(bm25, replace(vleg, fused=True))

    swap(pipe, "unanimity_voters", unanimity_voters)


@mutant(
    "engram-written-dates-only",
    "ENGRAM-8",
    "only ISO dates written in the query count, not the days the temporal profile resolves (1.0.0)",
)
def _engram_written_dates_only() -> None:
    dates = _mod("reference.profiles.engram.dates")
    fold = _mod("reference.text").fold
    swap(dates, "query_days", lambda query, now: dates.query_dates(fold(query)))


def _okapi_hooks(**changes: Any) -> None:
    package = _mod("reference.profiles.bm25_okapi")
    pipeline = _mod("reference.profiles.bm25_okapi.pipeline")
    hooks = replace(pipeline.PIPELINE, **changes)
    set_attr(package, "PIPELINE", hooks)
    set_attr(pipeline, "PIPELINE", hooks)


@mutant("okapi-default-size-eight", "OKAPI-16", "the profile cuts the results to the seed's 8")
def _okapi_default_eight() -> None:
    def after_rerank(call: Any, query: str, entries: Any, outcome: str) -> Any:
        return [item_id for item_id, _ in entries[:8]]

    _okapi_hooks(after_rerank=after_rerank)


@mutant("okapi-hyde-ignored", "OKAPI-17", "the document is accepted but the query is embedded")
def _okapi_hyde_ignored() -> None:
    _okapi_hooks(vector_query=None)


@mutant(
    "okapi-hyde-replaces-the-query",
    "OKAPI-17",
    "the hypothetical document replaces the query for every leg, BM25 included",
)
def _okapi_hyde_everywhere() -> None:
    def rewrite_query(call: Any, query: str) -> str:
        hypothetical = call.options.hypothetical
        return query if hypothetical is None else str(hypothetical)

    _okapi_hooks(rewrite_query=rewrite_query)


@mutant(
    "okapi-hyde-not-normalised",
    "OKAPI-17",
    "a document empty after normalisation (only spaces and format characters) is accepted",
)
def _okapi_hyde_not_normalised() -> None:
    pipeline = _mod("reference.profiles.bm25_okapi.pipeline")
    original = pipeline.parse_request

    def parse_request(obj: Any) -> Any:
        raw = obj.get("hypotheticalDocument")
        if isinstance(raw, str) and raw != "" and pipeline.normalise(raw) == "":
            return original({**obj, "hypotheticalDocument": None})
        return original(obj)

    _okapi_hooks(parse_request=parse_request)


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
