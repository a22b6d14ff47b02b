"""The profile's behaviour inside `search` (SCOPE-2, SCOPE-6..9, SCOPE-11), through the
reference pipeline's profile hooks (reference/profile_hooks.py).

The hook functions stay thin and call this module's globals at run time, so that a broken
port in conformance/selftest/broken_ports/ can replace one rule at a time.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from reference.profile_hooks import PipelineHooks, ProfileCall
from reference.profiles.scoped_fusion.options import Options, parse_options
from reference.profiles.scoped_fusion.scope_filter import (
    EXCLUDED,
    OUT_OF_SCOPE,
    bm25_limit,
    check_weights,
    filter_hits,
)
from reference.rrf import Fused
from reference.types import Candidate


def _row(call: ProfileCall, leg: str) -> dict[str, int]:
    """SCOPE-11: the leg's trace row, created on the leg's first search."""
    legs: dict[str, dict[str, int]] = call.trace.setdefault("legs", {})
    return legs.setdefault(
        leg, {"limit": 0, "searches": 0, "returned": 0, "outOfScope": 0, "excluded": 0}
    )


def leg_limit(options: Options, leg: str, candidate_k: int) -> int:
    """SCOPE-7: BM25 asks candidateK × headroom; every other leg asks candidateK."""
    return bm25_limit(candidate_k, options) if leg == "bm25" else candidate_k


def _leg_limit(call: ProfileCall, leg: str, candidate_k: int) -> int:
    limit = leg_limit(call.options, leg, candidate_k)
    _row(call, leg)["limit"] = limit
    call.state[f"{leg}:k"] = candidate_k
    return limit


def _filter_leg(call: ProfileCall, leg: str, hits: list[Candidate]) -> list[Candidate]:
    """SCOPE-6, SCOPE-11: one search's filter, counted in the leg's trace row."""
    outcome = filter_hits(hits, call.options)
    row = _row(call, leg)
    row["searches"] += 1
    row["returned"] += len(hits)
    row["outOfScope"] += sum(1 for r in outcome.removed if r.reason == OUT_OF_SCOPE)
    row["excluded"] += sum(1 for r in outcome.removed if r.reason == EXCLUDED)
    if leg == "vector":  # SCOPE-16: the kept semantic list, for a weight of 0
        call.state["vector"] = outcome.kept[: call.state["vector:k"]]
    return outcome.kept


def _adjust_weights(
    call: ProfileCall, query: str, weights: dict[str, float]
) -> dict[str, float]:
    """SCOPE-2: reject a weight above maxWeight; the weights themselves are unchanged.

    Every search calls this hook once, before any leg, so the trace's `legs` starts here
    (SCOPE-11: `{legs: {}}` when no leg calls its backend).
    """
    check_weights(weights, call.options)
    call.trace.setdefault("legs", {})
    call.state["vectorWeight"] = weights["vector"]
    return dict(weights)


def runs_at_zero_weight(leg: str) -> bool:
    """SCOPE-16: the seed short-circuits only the keyword call; its semantic search always runs."""
    return leg == "vector"


def _runs_at_zero_weight(call: ProfileCall, leg: str) -> bool:
    return runs_at_zero_weight(leg)


def after_fusion(options: Options, items: list[Any]) -> list[Any]:
    """SCOPE-6: the fused list is not filtered again (the legs already were)."""
    return items


def semantic_at_zero(items: list[Fused], semantic: list[Candidate]) -> list[Fused]:
    """SCOPE-16: semantic-only hits follow the fused list at score 0, in the semantic order."""
    seen = {item.id for item in items}
    out = list(items)
    for hit in semantic:
        if hit.id not in seen:
            seen.add(hit.id)
            out.append(Fused(hit, 0.0, Fraction(0)))
    return out


def _after_fusion(call: ProfileCall, query: str, items: list[Any]) -> list[Any]:
    items = after_fusion(call.options, items)
    if call.state.get("vectorWeight") == 0 and "vector" in call.state:
        items = semantic_at_zero(items, call.state["vector"])
    return items


def _parse_request(obj: Mapping[str, Any]) -> Options:
    return parse_options(obj)


PIPELINE = PipelineHooks(
    parse_request=_parse_request,
    adjust_weights=_adjust_weights,
    runs_at_zero_weight=_runs_at_zero_weight,
    leg_limit=_leg_limit,
    filter_leg=_filter_leg,
    after_fusion=_after_fusion,
)
