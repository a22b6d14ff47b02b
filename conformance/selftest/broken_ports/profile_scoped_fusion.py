"""Broken ports of profile scoped-fusion (spec/profiles/scoped-fusion.md), registered on import."""

from __future__ import annotations

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

# -- profile scoped-fusion (SCOPE) -------------------------------------------------------------


def _register(operation: str, handler: Any) -> None:
    """Install `handler` as the profile's handler of `operation` (its OPERATIONS table)."""
    set_entry(_mod("reference.profiles.scoped_fusion"), "OPERATIONS", operation, handler)


def _search() -> ModuleType:
    return _mod("reference.profiles.scoped_fusion.search")


@mutant(
    "scoped-missing-scope-wildcard",
    "SCOPE-3",
    "a candidate without metadata.scope passes every scope filter",
    seams=(
        "reference.profiles.scoped_fusion.scope_filter.removal_reason",
        "reference.profiles.scoped_fusion.search.in_scope",
    ),
)
def _scoped_missing_scope_wildcard() -> None:
    f = _mod("reference.profiles.scoped_fusion.scope_filter")
    original = f.removal_reason

    def removal_reason(hit: Any, options: Any) -> str | None:
        if options.scopes is not None and f.SCOPE_FIELD not in hit.metadata:
            return str(f.EXCLUDED) if hit.id in options.exclude_ids else None
        reason: str | None = original(hit, options)
        return reason

    swap(f, "removal_reason", removal_reason)
    s = _search()
    in_scope = s.in_scope

    def wildcard(hid: str, docs: Any, options: Any) -> bool:
        return f.SCOPE_FIELD not in docs[hid].metadata or bool(in_scope(hid, docs, options))

    set_attr(s, "in_scope", wildcard)


@mutant(
    "scoped-empty-scopes-unrestricted",
    "SCOPE-4",
    "scopes: [] is read as 'no restriction' (the JavaScript `if (ids && ids.length)` idiom)",
    seams=("reference.profiles.scoped_fusion.options.parse_options",),
)
def _scoped_empty_scopes_unrestricted() -> None:
    o = _mod("reference.profiles.scoped_fusion.options")
    original = o.parse_options

    def parse_options(obj: Any, where: str = "input") -> Any:
        out = original(obj, where)
        return replace(out, scopes=None) if out.scopes == frozenset() else out

    swap(o, "parse_options", parse_options)


@mutant(
    "scoped-unknown-member-ignored",
    "SCOPE-17",
    "an unknown member of scoped-fusion.search is ignored (a destructuring port)",
    seams=("reference.profiles.scoped_fusion.OPERATIONS",),
)
def _scoped_unknown_member_ignored() -> None:
    s = _search()
    op = s.search_op

    def search_op(inp: dict[str, Any]) -> dict[str, Any]:
        out: dict[str, Any] = op({k: v for k, v in inp.items() if k in s.FIELDS})
        return out

    _register("scoped-fusion.search", search_op)


@mutant(
    "scoped-null-field-not-default",
    "SCOPE-17",
    "a null member is validated as given (obj.get(name, default)), not read as absent",
    seams=("reference.profiles.scoped_fusion.options.optional",),
)
def _scoped_null_field_not_default() -> None:
    o = _mod("reference.profiles.scoped_fusion.options")
    set_attr(o, "optional", lambda obj, name, default: obj.get(name, default))


@mutant(
    "scoped-max-weight-any-positive",
    "SCOPE-17",
    "maxWeight is checked to be positive, not at least 1, so 0.5 is accepted",
    seams=("reference.profiles.scoped_fusion.options.max_weight",),
)
def _scoped_max_weight_any_positive() -> None:
    o = _mod("reference.profiles.scoped_fusion.options")
    original = o.max_weight

    def max_weight(value: object, where: str) -> float:
        if isinstance(value, int | float) and not isinstance(value, bool) and 0 < value < 1:
            return float(value)
        out: float = original(value, where)
        return out

    set_attr(o, "max_weight", max_weight)


@mutant(
    "scoped-weight-bound-exclusive",
    "SCOPE-19",
    "a weight equal to maxWeight is rejected too (>= instead of >), so 5 itself fails",
    seams=("reference.profiles.scoped_fusion.search.weight",),
)
def _scoped_weight_bound_exclusive() -> None:
    s = _search()
    original = s.weight
    types = _mod("reference.types")

    def weight(value: object, name: str, default: float, options: Any) -> float:
        out: float = original(value, name, default, options)
        if out >= options.max_weight:
            raise types.InvalidInput(f"{name} is not below maxWeight")
        return out

    set_attr(s, "weight", weight)


@mutant(
    "scoped-weights-clamped",
    "SCOPE-19",
    "a weight above maxWeight is clamped to it instead of rejected",
    seams=("reference.profiles.scoped_fusion.search.weight",),
)
def _scoped_weights_clamped() -> None:
    s = _search()
    original = s.weight

    def weight(value: object, name: str, default: float, options: Any) -> float:
        number = isinstance(value, int | float) and not isinstance(value, bool)
        if number and value > options.max_weight:
            return float(options.max_weight)
        out: float = original(value, name, default, options)
        return out

    set_attr(s, "weight", weight)


@mutant(
    "scoped-limit-before-scope",
    "SCOPE-20",
    "each search takes its limit first and drops the out-of-scope episodes afterwards",
    seams=("reference.profiles.scoped_fusion.search.run_leg",),
)
def _scoped_limit_before_scope() -> None:
    s = _search()
    original = s.run_leg

    def run_leg(ranked: Any, limit: int, docs: Any, options: Any) -> Any:
        return original(list(ranked)[:limit], limit, docs, options)

    set_attr(s, "run_leg", run_leg)


@mutant(
    "scoped-exclude-before-limit",
    "SCOPE-21",
    "excludeIds is removed before the search's limit, so the semantic list is never under-served",
    seams=("reference.profiles.scoped_fusion.search.run_leg",),
)
def _scoped_exclude_before_limit() -> None:
    s = _search()
    original = s.run_leg

    def run_leg(ranked: Any, limit: int, docs: Any, options: Any) -> Any:
        kept = [h for h in ranked if h not in options.exclude_ids]
        out = original(kept, limit, docs, replace(options, exclude_ids=frozenset()))
        return out

    set_attr(s, "run_leg", run_leg)


@mutant(
    "scoped-exclude-keyword-only",
    "SCOPE-21",
    "excludeIds filters only the keyword list (the seed's FTS-path sentence), not the semantic one",
    seams=(
        "reference.profiles.scoped_fusion.search.run_leg",
        "reference.profiles.scoped_fusion.OPERATIONS",
    ),
)
def _scoped_exclude_keyword_only() -> None:
    s = _search()
    original = s.run_leg

    def run_leg(ranked: Any, limit: int, docs: Any, options: Any) -> Any:
        if limit == getattr(s, "_semantic_limit", None):
            options = replace(options, exclude_ids=frozenset())
        return original(ranked, limit, docs, options)

    op = s.search_op

    def search_op(inp: dict[str, Any]) -> dict[str, Any]:
        limit = inp.get("semanticLimit")
        set_attr(s, "_semantic_limit", int(limit) if isinstance(limit, int | float) else None)
        out: dict[str, Any] = op(inp)
        return out

    set_attr(s, "run_leg", run_leg)
    _register("scoped-fusion.search", search_op)


@mutant(
    "scoped-keyword-cut-to-semantic-limit",
    "SCOPE-21",
    "the keyword list is cut to semanticLimit after the exclusion (the headroom only absorbs it)",
    seams=("reference.profiles.scoped_fusion.search.run_leg",),
)
def _scoped_keyword_cut() -> None:
    s = _search()
    original = s.run_leg

    def run_leg(ranked: Any, limit: int, docs: Any, options: Any) -> Any:
        out = original(ranked, limit, docs, options)
        cut = out.kept[: max(1, limit // options.headroom)]
        return s.LegRun(cut, {**out.row, "kept": len(cut)})

    set_attr(s, "run_leg", run_leg)


@mutant(
    "scoped-no-headroom",
    "SCOPE-22",
    "the keyword search asks semanticLimit, not semanticLimit x headroom",
    seams=("reference.profiles.scoped_fusion.search.keyword_limit",),
)
def _scoped_no_headroom() -> None:
    set_attr(_search(), "keyword_limit", lambda semantic_limit, options: semantic_limit)


@mutant(
    "scoped-headroom-every-leg",
    "SCOPE-22",
    "the semantic search asks semanticLimit x headroom too, not only the keyword one",
    seams=(
        "reference.profiles.scoped_fusion.search.run_leg",
        "reference.profiles.scoped_fusion.OPERATIONS",
    ),
)
def _scoped_headroom_every_leg() -> None:
    s = _search()
    original = s.run_leg

    def run_leg(ranked: Any, limit: int, docs: Any, options: Any) -> Any:
        if limit == getattr(s, "_semantic_limit", None):
            limit = s.keyword_limit(limit, options)
        return original(ranked, limit, docs, options)

    op = s.search_op

    def search_op(inp: dict[str, Any]) -> dict[str, Any]:
        limit = inp.get("semanticLimit")
        set_attr(s, "_semantic_limit", int(limit) if isinstance(limit, int | float) else None)
        out: dict[str, Any] = op(inp)
        return out

    set_attr(s, "run_leg", run_leg)
    _register("scoped-fusion.search", search_op)


@mutant(
    "scoped-semantic-short-circuit",
    "SCOPE-23",
    "a semantic weight of 0 skips the semantic search too (the core's symmetric PIPE-8)",
    seams=("reference.profiles.scoped_fusion.OPERATIONS",),
)
def _scoped_semantic_short_circuit() -> None:
    s = _search()
    op = s.search_op

    def search_op(inp: dict[str, Any]) -> dict[str, Any]:
        if inp.get("semanticWeight") == 0 and isinstance(inp.get("legs"), dict):
            inp = {**inp, "legs": {**inp["legs"], "semantic": []}}
        out: dict[str, Any] = op(inp)
        return out

    _register("scoped-fusion.search", search_op)


@mutant(
    "scoped-keyword-runs-at-zero",
    "SCOPE-23",
    "the keyword search runs at keywordWeight 0 (only the guard keeps its episodes out)",
    seams=(
        "reference.profiles.scoped_fusion.search.keyword_runs",
        "reference.profiles.scoped_fusion.OPERATIONS",
    ),
)
def _scoped_keyword_runs_at_zero() -> None:
    s = _search()
    op = s.search_op

    def search_op(inp: dict[str, Any]) -> dict[str, Any]:
        legs = inp.get("legs")
        if isinstance(legs, dict) and legs.get("keyword") is None:
            inp = {**inp, "legs": {**legs, "keyword": []}}
        out: dict[str, Any] = op(inp)
        return out

    set_attr(s, "keyword_runs", lambda kw: True)
    _register("scoped-fusion.search", search_op)


@mutant(
    "scoped-zero-bleed-through",
    "SCOPE-24",
    "no contrib > 0 guard: a keyword-only episode whose contribution is 0 is listed at score 0",
    seams=("reference.profiles.scoped_fusion.search.fuse",),
)
def _scoped_zero_bleed_through() -> None:
    s = _search()

    def fuse(semantic: Any, keyword: Any, sw: float, kw: float) -> list[tuple[str, float]]:
        scores: dict[str, float] = {}
        for i, hid in enumerate(semantic):
            scores[hid] = s.contribution(sw, i)
        for i, hid in enumerate(keyword):
            scores[hid] = scores.get(hid, 0.0) + s.contribution(kw, i)
        return sorted(scores.items(), key=lambda item: -item[1])

    set_attr(s, "fuse", fuse)


@mutant(
    "scoped-zero-indexed-ranks",
    "SCOPE-24",
    "the contribution is w / (k + i) with the 0-based position i, not w / (k + i + 1)",
    seams=("reference.profiles.scoped_fusion.search.contribution",),
)
def _scoped_zero_indexed_ranks() -> None:
    s = _search()
    set_attr(s, "contribution", lambda w, index: w / float(s.RRF_K + index))


@mutant(
    "scoped-ties-by-path",
    "SCOPE-25",
    "equal scores are ordered by path (the core's RRF-8), not by first appearance",
    seams=(
        "reference.profiles.scoped_fusion.search._documents",
        "reference.profiles.scoped_fusion.search.fuse",
    ),
)
def _scoped_ties_by_path() -> None:
    s = _search()
    original = s.fuse

    def fuse(semantic: Any, keyword: Any, sw: float, kw: float) -> list[tuple[str, float]]:
        out: list[tuple[str, float]] = original(semantic, keyword, sw, kw)
        docs = getattr(s, "_docs", {})
        return sorted(out, key=lambda item: (-item[1], docs[item[0]].path))

    documents = s._documents

    def _documents(value: object) -> Any:
        out = documents(value)
        set_attr(s, "_docs", out)
        return out

    set_attr(s, "_documents", _documents)
    set_attr(s, "fuse", fuse)


@mutant(
    "scoped-no-final-cut",
    "SCOPE-26",
    "the fused list is returned whole, not cut to semanticLimit",
    seams=("reference.profiles.scoped_fusion.search.cut",),
)
def _scoped_no_final_cut() -> None:
    set_attr(_search(), "cut", lambda items, semantic_limit: items)


@mutant(
    "scoped-trace-returned-kept",
    "SCOPE-27",
    "the trace's returned counts the episodes kept after the exclusion, not those returned",
    seams=("reference.profiles.scoped_fusion.search.run_leg",),
)
def _scoped_trace_returned_kept() -> None:
    s = _search()
    original = s.run_leg

    def run_leg(ranked: Any, limit: int, docs: Any, options: Any) -> Any:
        out = original(ranked, limit, docs, options)
        return s.LegRun(out.kept, {**out.row, "returned": out.row["kept"]})

    set_attr(s, "run_leg", run_leg)


@mutant(
    "scoped-filter-op-cut-before-filter",
    "SCOPE-12",
    "scoped-fusion.filter cuts the hits to limit first and filters what is left",
    seams=(
        "reference.profiles.scoped_fusion.ops.filter_op",
        "reference.profiles.scoped_fusion.OPERATIONS",
    ),
)
def _scoped_filter_op_cut_before_filter() -> None:
    ops = _mod("reference.profiles.scoped_fusion.ops")
    original = ops.filter_op

    def filter_op(inp: dict[str, Any]) -> dict[str, Any]:
        limit = inp.get("limit")
        if isinstance(limit, int | float) and isinstance(inp.get("hits"), list):
            inp = {**inp, "hits": inp["hits"][: int(limit)]}
        out: dict[str, Any] = original(inp)
        return out

    swap(ops, "filter_op", filter_op)
    # the profile's OPERATIONS dict holds the handler itself, not a module binding
    _register("scoped-fusion.filter", filter_op)


@mutant(
    "scoped-exclude-ignored",
    "SCOPE-5",
    "excludeIds is validated and then ignored (the recentIds never leave the lists)",
    seams=("reference.profiles.scoped_fusion.search.run_leg",),
)
def _scoped_exclude_ignored() -> None:
    s = _search()
    original = s.run_leg

    def run_leg(ranked: Any, limit: int, docs: Any, options: Any) -> Any:
        return original(ranked, limit, docs, replace(options, exclude_ids=frozenset()))

    set_attr(s, "run_leg", run_leg)


@mutant(
    "scoped-unknown-leg-id-dropped",
    "SCOPE-18",
    "a leg id that names no document is dropped silently instead of invalid_input",
    seams=("reference.profiles.scoped_fusion.search.ranked_list",),
)
def _scoped_unknown_leg_id_dropped() -> None:
    s = _search()
    original = s.ranked_list

    def ranked_list(value: object, where: str, known: Any) -> list[str]:
        if isinstance(value, list):
            value = [v for v in value if not isinstance(v, dict) or v.get("id") in known]
        out: list[str] = original(value, where, known)
        return out

    set_attr(s, "ranked_list", ranked_list)
