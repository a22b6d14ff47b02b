"""The engram profile in the search pipeline (ENGRAM-5, ENGRAM-14, ENGRAM-15): the class's
weights multiply the request's at `adjust_weights`; the boost runs at `after_fusion`; the
minimum score threshold at `after_rerank`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from fractions import Fraction
from typing import Any

from reference.profile_hooks import PipelineHooks, ProfileCall
from reference.profiles.engram import options
from reference.profiles.engram.ops import boost_items, threshold
from reference.profiles.engram.table import classify
from reference.rrf import Fused
from reference.types import InvalidInput

REQUEST_FIELDS = ("now", "halfLifeDays", "minScore")


def parse_request(obj: Mapping[str, Any]) -> options.Options:
    """ENGRAM-15: `{now, halfLifeDays?, minScore?}`; any other field is invalid_input."""
    return options.parse(obj, "request.profiles.engram", REQUEST_FIELDS)


def parse_backends(obj: Any) -> None:
    """ENGRAM-15: the profile has no backend data."""
    if obj is not None:
        raise InvalidInput("backends.profiles.engram: the engram profile takes no backend data")


def adjust_weights(call: ProfileCall, query: str, weights: dict[str, float]) -> dict[str, float]:
    """ENGRAM-5: request weight x class weight, one run-time multiplication per channel."""
    c = classify(query)
    out = {leg: weights[leg] * c.weights[leg] for leg in ("bm25", "vector", "graph")}
    call.trace["intent"] = c.intent
    call.trace["matched"] = list(c.matched)
    call.trace["weights"] = {"vector": out["vector"], "bm25": out["bm25"], "graph": out["graph"]}
    return out


def after_fusion(call: ProfileCall, query: str, items: list[Fused]) -> list[Fused]:
    """ENGRAM-8..11: boost the fused list (after intent reweighting) and reorder it."""
    opts: options.Options = call.options
    raw = [(f.candidate.id, dict(f.candidate.metadata), f.score) for f in items]
    wanted, records = boost_items(query, opts, raw)
    call.trace["queryDates"] = wanted
    call.trace["boosts"] = records
    by_id = {f.candidate.id: f for f in items}
    return [replace(by_id[r["id"]], score=r["score"], exact=Fraction(r["score"])) for r in records]


def after_rerank(
    call: ProfileCall, query: str, entries: list[tuple[str, float | None]], outcome: str
) -> list[str]:
    """ENGRAM-14: with `minScore`, drop what the cross-encoder scored below it, and only when
    it ran (outcome `reranked`); the trace says whether it applied and what it removed."""
    opts: options.Options = call.options
    if opts.min_score is None:
        return [item_id for item_id, _ in entries]
    applied = outcome == RERANKED
    kept, removed = threshold(entries, opts.min_score) if applied else (
        [item_id for item_id, _ in entries], []
    )
    call.trace["threshold"] = {"minScore": opts.min_score, "applied": applied, "removed": removed}
    return kept


#: RERANK-10: the outcome of a rerank stage in which the cross-encoder ran.
RERANKED = "reranked"

PIPELINE = PipelineHooks(
    parse_request=parse_request,
    parse_backends=parse_backends,
    adjust_weights=adjust_weights,
    after_fusion=after_fusion,
    after_rerank=after_rerank,
)
