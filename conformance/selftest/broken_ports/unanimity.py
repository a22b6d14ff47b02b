"""Broken ports of the unanimity shortcut (spec/unanimity.md), registered on import."""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from conformance.selftest.broken_ports.patching import (
    _mod,
    mutant,
    set_attr,
    swap,
)


@mutant(
    "unan-set-overlap",
    "UNAN-2",
    "agreement is the set overlap of the two top threes, reported for short legs too (2.x, D9)",
    seams=("reference.unanimity.check",),
)
def _unan_set_overlap() -> None:
    u = _mod("reference.unanimity")

    def check(bm25: Sequence[str], vector: Sequence[str]) -> Any:
        agreements = len(set(bm25[:3]) & set(vector[:3]))
        fired = len(bm25) >= 3 and len(vector) >= 3 and agreements >= 2
        return u.UnanimityResult(agreements, fired)

    swap(u, "check", check)


@mutant(
    "unan-short-leg-compared",
    "UNAN-4",
    "a leg shorter than three is compared at the positions it has, and two agreements fire",
    seams=("reference.unanimity.check",),
)
def _unan_short() -> None:
    u = _mod("reference.unanimity")

    def check(bm25: Sequence[str], vector: Sequence[str]) -> Any:
        agreements = builtins.sum(1 for a, b in zip(bm25[:3], vector[:3], strict=False) if a == b)
        return u.UnanimityResult(agreements, agreements >= 2)

    swap(u, "check", check)


@mutant(
    "unan-membership",
    "UNAN-2",
    "each of BM25's top three counts when it is anywhere in the vector leg's top three",
    seams=("reference.unanimity.check",),
)
def _unan_membership() -> None:
    u = _mod("reference.unanimity")

    def check(bm25: Sequence[str], vector: Sequence[str]) -> Any:
        agreements = builtins.sum(1 for a in bm25[:3] if a in vector[:3])
        fired = len(bm25) >= 3 and len(vector) >= 3 and agreements >= 2
        return u.UnanimityResult(agreements, fired)

    swap(u, "check", check)


@mutant(
    "unan-zero-weight-leg-votes",
    "UNAN-6",
    "unanimity is evaluated whenever the mode is hybrid, a skipped zero-weight leg voting empty",
    seams=("reference.pipeline.resolve_mode", "reference.pipeline.unanimity_voters"),
)
def _unan_zero_weight_votes() -> None:
    pipe = _mod("reference.pipeline")

    hybrid = [False]
    original_resolve = pipe.resolve_mode

    def resolve_mode(requested: str, has_embedder: bool) -> Any:
        mode = original_resolve(requested, has_embedder)
        hybrid[0] = mode.effective == "hybrid"
        return mode

    def voters(bm25: Any, vleg: Any) -> tuple[list[str], list[str]] | None:
        if not hybrid[0]:
            return None
        return ([c.id for c in bm25.hits] if bm25 else []), [c.id for c in vleg.hits]

    set_attr(pipe, "resolve_mode", resolve_mode)
    swap(pipe, "unanimity_voters", voters)


@mutant(
    "unan-needs-all-three",
    "UNAN-3",
    "the shortcut fires only when all three top positions agree (unanimity read literally)",
    seams=("reference.unanimity.check",),
)
def _unan_all_three() -> None:
    u = _mod("reference.unanimity")
    original = u.check

    def check(bm25_ids: Sequence[str], vector_ids: Sequence[str]) -> Any:
        result = original(bm25_ids, vector_ids)
        return replace(result, fired=result.agreements > 2)

    swap(u, "check", check)


@mutant(
    "unan-ids-deduplicated",
    "UNAN-5",
    "each leg's ids are deduplicated (first occurrence kept) before positions are compared",
    seams=("reference.unanimity.check",),
)
def _unan_dedup() -> None:
    u = _mod("reference.unanimity")
    original = u.check

    def check(bm25_ids: Sequence[str], vector_ids: Sequence[str]) -> Any:
        return original(list(dict.fromkeys(bm25_ids)), list(dict.fromkeys(vector_ids)))

    swap(u, "check", check)


@mutant(
    "unan-missing-leg-empty",
    "UNAN-7",
    "a missing leg in the `unanimity` input is read as an empty list, not invalid_input",
    seams=("conformance.adapters.ops.fusion._ids",),
)
def _unan_missing_leg() -> None:
    ops = _mod("conformance.adapters.ops.fusion")
    original = ops._ids

    def ids(inp: Any, name: str) -> Any:
        return original(inp, name) if name in inp else []

    set_attr(ops, "_ids", ids)


@mutant(
    "unan-votes-with-initial-answer",
    "UNAN-1",
    "the BM25 leg votes with its first backend answer (the initial search), not with the hits "
    "of the rung that won the ladder",
    seams=(
        "reference.pipeline._Profiles.leg_search",
        "reference.pipeline.unanimity_voters",
        "reference.pipeline.search",
    ),
)
def _unan_raw_answers() -> None:
    pipe = _mod("reference.pipeline")
    raw: dict[str, list[str]] = {}
    original_leg_search = pipe._Profiles.leg_search
    original_voters = pipe.unanimity_voters
    original_search = pipe.search

    def leg_search(self: Any, leg: str, candidate_k: int, ask: Any) -> Any:
        def recording(n: int) -> Any:
            hits = ask(n)
            raw.setdefault(leg, [c.id for c in hits])
            return hits

        return original_leg_search(self, leg, candidate_k, recording)

    def voters(bm25: Any, vleg: Any) -> Any:
        found = original_voters(bm25, vleg)
        if found is None:
            return None
        return tuple(
            raw.get(leg, ids)
            for leg, ids in zip(("bm25", "vector"), found, strict=True)
        )

    def search(request: Any, backends: Any) -> Any:
        raw.clear()
        return original_search(request, backends)

    set_attr(pipe._Profiles, "leg_search", leg_search)
    swap(pipe, "unanimity_voters", voters)
    swap(pipe, "search", search)
