"""Broken ports of profile scoped-fusion (spec/profiles/scoped-fusion.md), registered on import."""

from __future__ import annotations

from dataclasses import replace
from types import ModuleType
from typing import Any

from conformance.selftest.broken_ports.patching import (
    _mod,
    mutant,
    set_attr,
    swap,
)

# -- profile scoped-fusion (SCOPE) -------------------------------------------------------------


@mutant(
    "scoped-missing-scope-wildcard",
    "SCOPE-3",
    "a candidate without metadata.scope passes every scope filter",
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


@mutant(
    "scoped-empty-scopes-unrestricted",
    "SCOPE-4",
    "scopes: [] is read as 'no restriction' (the JavaScript `if (ids && ids.length)` idiom)",
)
def _scoped_empty_scopes_unrestricted() -> None:
    o = _mod("reference.profiles.scoped_fusion.options")
    original = o.parse_options

    def parse_options(obj: Any, where: str = "request.profiles.scoped-fusion") -> Any:
        out = original(obj, where)
        return replace(out, scopes=None) if out.scopes == frozenset() else out

    swap(o, "parse_options", parse_options)


def _scoped_pipeline(**changes: Any) -> None:
    """Replace some of scoped-fusion's pipeline hooks (the pipeline reads PIPELINE per search)."""
    pkg = _mod("reference.profiles.scoped_fusion")
    set_attr(pkg, "PIPELINE", replace(pkg.PIPELINE, **changes))


@mutant(
    "scoped-no-headroom",
    "SCOPE-7",
    "the BM25 leg asks candidateK, as the core does, so the filter under-serves it",
)
def _scoped_no_headroom() -> None:
    f = _mod("reference.profiles.scoped_fusion.scope_filter")
    swap(f, "bm25_limit", lambda candidate_k, options: candidate_k)


@mutant(
    "scoped-headroom-every-leg",
    "SCOPE-7",
    "the vector (and graph) leg asks candidateK x headroom too, not only BM25",
)
def _scoped_headroom_every_leg() -> None:
    h = _mod("reference.profiles.scoped_fusion.hooks")
    f = _mod("reference.profiles.scoped_fusion.scope_filter")
    swap(h, "leg_limit", lambda options, leg, candidate_k: f.bm25_limit(candidate_k, options))


@mutant(
    "scoped-weights-clamped",
    "SCOPE-2",
    "a weight above maxWeight is clamped to it instead of rejected",
)
def _scoped_weights_clamped() -> None:
    def adjust(call: Any, query: str, weights: dict[str, float]) -> dict[str, float]:
        call.trace.setdefault("legs", {})
        return {k: min(v, call.options.max_weight) for k, v in weights.items()}

    _scoped_pipeline(adjust_weights=adjust)


@mutant(
    "scoped-filter-after-fusion",
    "SCOPE-6",
    "the legs are fused unfiltered and the fused list is filtered (merged metadata, old ranks)",
)
def _scoped_filter_after_fusion() -> None:
    h = _mod("reference.profiles.scoped_fusion.hooks")
    f = _mod("reference.profiles.scoped_fusion.scope_filter")
    original = h.filter_hits
    set_attr(h, "filter_hits", lambda hits, options: f.Filtered(kept=list(hits)))

    def after_fusion(options: Any, items: list[Any]) -> list[Any]:
        kept = original([item.candidate for item in items], options).kept
        ids = {c.id for c in kept}
        return [item for item in items if item.id in ids]

    swap(h, "after_fusion", after_fusion)


@mutant(
    "scoped-filter-after-ladder",
    "SCOPE-8",
    "BM25 hits are filtered once, after the ladder, so an all-removed initial search ends the leg",
)
def _scoped_filter_after_ladder() -> None:
    h = _mod("reference.profiles.scoped_fusion.hooks")
    f = _mod("reference.profiles.scoped_fusion.scope_filter")
    p = _mod("reference.pipeline")
    original_filter = h.filter_hits
    original_run = p._run_bm25
    in_bm25 = [False]

    def filter_hits(hits: Any, options: Any) -> Any:
        return f.Filtered(kept=list(hits)) if in_bm25[0] else original_filter(hits, options)

    def run_bm25(req: Any, backends: Any, query: str, profiles: Any) -> Any:
        in_bm25[0] = True
        try:
            result = original_run(req, backends, query, profiles)
        finally:
            in_bm25[0] = False
        for _, call in profiles.calls:
            if call.name == "scoped-fusion":
                result.hits = original_filter(result.hits, call.options).kept
        return result

    set_attr(h, "filter_hits", filter_hits)
    swap(p, "_run_bm25", run_bm25)


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


# -- issue 25: one broken port per clause, each met by two cases ------------------------------


@mutant(
    "scoped-unknown-field-ignored",
    "SCOPE-1",
    "an unknown member field is ignored (a destructuring port), so sessionIds passes silently",
)
def _scoped_unknown_field_ignored() -> None:
    o = _mod("reference.profiles.scoped_fusion.options")
    original = o.parse_options

    def parse_options(obj: Any, where: str = "request.profiles.scoped-fusion") -> Any:
        if isinstance(obj, dict):
            obj = {k: v for k, v in obj.items() if k in o._FIELDS}
        return original(obj, where)

    swap(o, "parse_options", parse_options)


@mutant(
    "scoped-null-field-not-default",
    "SCOPE-1",
    "a null member field is validated as given (obj.get(name, default)), not read as absent",
)
def _scoped_null_field_not_default() -> None:
    o = _mod("reference.profiles.scoped_fusion.options")
    set_attr(o, "optional", lambda obj, name, default: obj.get(name, default))


@mutant(
    "scoped-max-weight-any-positive",
    "SCOPE-1",
    "maxWeight is checked to be positive, not at least 1, so 0.5 is accepted",
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
    "SCOPE-2",
    "a weight equal to maxWeight is rejected too (>= instead of >), so 5 itself fails",
)
def _scoped_weight_bound_exclusive() -> None:
    f = _mod("reference.profiles.scoped_fusion.scope_filter")
    types = _mod("reference.types")

    def check_weights(weights: Any, options: Any) -> None:
        for name in sorted(weights):
            if weights[name] >= options.max_weight:
                raise types.InvalidInput(f"request.weights.{name} is not below maxWeight")

    swap(f, "check_weights", check_weights)


@mutant(
    "scoped-exclude-keyword-only",
    "SCOPE-5",
    "excludeIds filters only the keyword leg (the seed's FTS-path filter), not the semantic one",
)
def _scoped_exclude_keyword_only() -> None:
    h = _mod("reference.profiles.scoped_fusion.hooks")
    original = h._filter_leg

    def filter_leg(call: Any, leg: str, hits: list[Any]) -> list[Any]:
        if leg == "bm25":
            return list(original(call, leg, hits))
        saved = call.options
        call.options = replace(saved, exclude_ids=frozenset())
        try:
            return list(original(call, leg, hits))
        finally:
            call.options = saved

    _scoped_pipeline(filter_leg=filter_leg)


def _scoped_enabled(request: Any) -> bool:
    """Whether a search request enables scoped-fusion (a broken port's own test)."""
    profiles = request.get("profiles") if isinstance(request, dict) else None
    return isinstance(profiles, dict) and profiles.get("scoped-fusion") is not None


@mutant(
    "scoped-rrf-k-fixed",
    "SCOPE-9",
    "with the profile on, fusion uses the seed's fixed k = 60 instead of the request's rrfK",
)
def _scoped_rrf_k_fixed() -> None:
    p = _mod("reference.pipeline")
    original_search = p.search
    original_merge = p.merge_variants
    on = [False]

    def search(request: Any, backends: Any) -> Any:
        on[0] = _scoped_enabled(request)
        return original_search(request, backends)

    def merge_variants(runs: Any, k: int) -> Any:
        return original_merge(runs, 60 if on[0] else k)

    swap(p, "search", search)
    swap(p, "merge_variants", merge_variants)


@mutant(
    "scoped-unanimity-unfiltered",
    "SCOPE-9",
    "the unanimity vote reads each leg's raw backend answer, not the filtered list it fused",
)
def _scoped_unanimity_unfiltered() -> None:
    h = _mod("reference.profiles.scoped_fusion.hooks")
    p = _mod("reference.pipeline")
    original_filter = h._filter_leg
    original_search = p.search
    original_voters = p.unanimity_voters
    raw: dict[str, list[str]] = {}

    def filter_leg(call: Any, leg: str, hits: list[Any]) -> list[Any]:
        raw[leg] = [c.id for c in hits]
        return list(original_filter(call, leg, hits))

    def search(request: Any, backends: Any) -> Any:
        raw.clear()
        return original_search(request, backends)

    def unanimity_voters(bm25: Any, vleg: Any) -> Any:
        voters = original_voters(bm25, vleg)
        if voters is not None and "bm25" in raw and "vector" in raw:
            return raw["bm25"], raw["vector"]
        return voters

    _scoped_pipeline(filter_leg=filter_leg)
    swap(p, "search", search)
    swap(p, "unanimity_voters", unanimity_voters)


@mutant(
    "scoped-fused-cut-to-candidatek",
    "SCOPE-10",
    "the fused list is also cut to candidateK (the seed's one semanticLimit), before topK",
)
def _scoped_fused_cut_to_candidatek() -> None:
    h = _mod("reference.profiles.scoped_fusion.hooks")
    original = h._after_fusion

    def after_fusion(call: Any, query: str, items: list[Any]) -> list[Any]:
        items = list(original(call, query, items))
        sizes = [v for key, v in call.state.items() if key.endswith(":k")]
        return items[: min(sizes)] if sizes else items

    _scoped_pipeline(after_fusion=after_fusion)


@mutant(
    "scoped-trace-returned-kept",
    "SCOPE-11",
    "the trace's returned counts the hits the filter kept, not the hits the backend answered",
)
def _scoped_trace_returned_kept() -> None:
    h = _mod("reference.profiles.scoped_fusion.hooks")
    original = h._filter_leg

    def filter_leg(call: Any, leg: str, hits: list[Any]) -> list[Any]:
        kept = list(original(call, leg, hits))
        call.trace["legs"][leg]["returned"] -= len(hits) - len(kept)
        return kept

    _scoped_pipeline(filter_leg=filter_leg)


@mutant(
    "scoped-trace-error-counted",
    "SCOPE-11",
    "searches counts every backend call when it is made, an erroring one included",
)
def _scoped_trace_error_counted() -> None:
    h = _mod("reference.profiles.scoped_fusion.hooks")
    original_limit = h._leg_limit
    original_filter = h._filter_leg

    def leg_limit(call: Any, leg: str, candidate_k: int) -> int:
        limit: int = original_limit(call, leg, candidate_k)
        call.trace["legs"][leg]["searches"] += 1
        return limit

    def filter_leg(call: Any, leg: str, hits: list[Any]) -> list[Any]:
        kept = list(original_filter(call, leg, hits))
        call.trace["legs"][leg]["searches"] -= 1
        return kept

    _scoped_pipeline(leg_limit=leg_limit, filter_leg=filter_leg)


@mutant(
    "scoped-trace-row-for-idle-leg",
    "SCOPE-11",
    "the trace has a zero row for both legs from the start, also a leg that never called",
)
def _scoped_trace_row_for_idle_leg() -> None:
    h = _mod("reference.profiles.scoped_fusion.hooks")
    original = h._adjust_weights

    def adjust(call: Any, query: str, weights: dict[str, float]) -> dict[str, float]:
        out: dict[str, float] = original(call, query, weights)
        for leg in ("bm25", "vector"):
            h._row(call, leg)
        return out

    _scoped_pipeline(adjust_weights=adjust)


@mutant(
    "scoped-filter-op-cut-before-filter",
    "SCOPE-12",
    "scoped-fusion.filter cuts the hits to limit first and filters what is left",
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
    _mod("reference.profiles.scoped_fusion").OPERATIONS["scoped-fusion.filter"] = filter_op
