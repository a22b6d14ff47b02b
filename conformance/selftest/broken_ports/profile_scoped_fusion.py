"""Broken ports of profile scoped-fusion (spec/profiles/scoped-fusion.md), registered on import."""

from __future__ import annotations

from collections.abc import Sequence
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


@mutant(
    "scoped-dense-ties-ascending",
    "SCOPE-15",
    "equal dense scores are ordered by id ascending instead of the seed's descending",
)
def _scoped_dense_ties_ascending() -> None:
    d = _mod("reference.profiles.scoped_fusion.dense_hits")

    def dense_hits(nodes: Any, words: Any, limit: int) -> list[Any]:
        hits = [
            d.DenseHit(n.id, n.activation + d.overlap(n.label, words) * 0.5,
                       d.overlap(n.label, words))
            for n in d.preselect(nodes, limit)
        ]
        hits.sort(key=lambda h: h.id)
        hits.sort(key=lambda h: h.score, reverse=True)
        return hits[:limit]

    swap(d, "dense_hits", dense_hits)


@mutant(
    "scoped-dense-preselect-ties-descending",
    "SCOPE-13",
    "the activation pre-selection breaks ties by id descending (SQL leaves them open)",
)
def _scoped_dense_preselect_desc() -> None:
    d = _mod("reference.profiles.scoped_fusion.dense_hits")

    def preselect(nodes: Sequence[Any], limit: int) -> list[Any]:
        active = [n for n in nodes if n.activation > 0.0]
        active.sort(key=lambda n: n.id, reverse=True)
        active.sort(key=lambda n: n.activation, reverse=True)
        return active[: 3 * limit]

    swap(d, "preselect", preselect)


@mutant(
    "scoped-dense-no-preselection",
    "SCOPE-13",
    "every active node is scored, not only the 3 x limit most activated",
)
def _scoped_dense_no_preselection() -> None:
    d = _mod("reference.profiles.scoped_fusion.dense_hits")

    def preselect(nodes: Sequence[Any], limit: int) -> list[Any]:
        return [n for n in nodes if n.activation > 0.0]

    swap(d, "preselect", preselect)


@mutant(
    "scoped-dense-words-lowercased",
    "SCOPE-14",
    "query words are lowercased like the label before the substring test",
)
def _scoped_dense_words_lowercased() -> None:
    d = _mod("reference.profiles.scoped_fusion.dense_hits")
    original = d.overlap

    def overlap(label: str, words: Sequence[str]) -> int:
        return int(original(label, [w.lower() for w in words]))

    swap(d, "overlap", overlap)


@mutant(
    "scoped-dense-distinct-words",
    "SCOPE-14",
    "a repeated query word counts once (overlap over the set of words)",
)
def _scoped_dense_distinct_words() -> None:
    d = _mod("reference.profiles.scoped_fusion.dense_hits")
    original = d.overlap

    def overlap(label: str, words: Sequence[str]) -> int:
        return int(original(label, list(dict.fromkeys(words))))

    swap(d, "overlap", overlap)


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
