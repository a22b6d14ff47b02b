"""Broken ports of Reciprocal Rank Fusion (spec/rrf.md), registered on import."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any

from conformance.selftest.broken_ports.patching import (
    _mod,
    mutant,
    set_attr,
    swap,
)


@mutant(
    "rrf-rank-one-based",
    "RRF-2",
    "ranks count from 1: the top item scores 1/(k+2)",
    seams=("reference.rrf.contribution",),
)
def _rrf_one_based() -> None:
    swap(_mod("reference.rrf"), "contribution", lambda w, k, rank: w / float(k + rank + 2))


@mutant(
    "rrf-ties-insertion-order",
    "RRF-8",
    "equal scores keep insertion order (stable sort) instead of path, then id",
    seams=("reference.rrf.order",),
)
def _rrf_insertion_ties() -> None:
    r = _mod("reference.rrf")
    swap(r, "order", lambda fused: sorted(fused, key=lambda item: -item.score))


def _rrf_sum_list_order() -> None:
    def canonical_sum(contributions: Sequence[float]) -> float:
        total = 0.0
        for value in contributions:
            total += value
        return total

    swap(_mod("reference.rrf"), "canonical_sum", canonical_sum)


def _exact_sums(lists: Sequence[Any], k: int) -> dict[str, Fraction]:
    """Σ exact(w) / (k + r + 1) over first occurrences per list: the 2.x exact score."""
    sums: dict[str, Fraction] = {}
    for ranked in lists:
        if ranked.weight == 0:
            continue
        seen: set[str] = set()
        for rank, cand in enumerate(ranked.items):
            if cand.id not in seen:
                seen.add(cand.id)
                sums[cand.id] = sums.get(cand.id, Fraction(0)) + Fraction(ranked.weight) / (
                    k + rank + 1
                )
    return sums


@mutant(
    "rrf-order-by-exact-sum",
    "RRF-6",
    "the list is ordered by the exact rational sum, not the emitted float (the 2.x reading, D1)",
    seams=("reference.rrf.fuse",),
)
def _rrf_order_exact() -> None:
    r = _mod("reference.rrf")
    original = r.fuse

    def fuse(lists: Sequence[Any], k: int = r.DEFAULT_K) -> list[Any]:
        fused = original(lists, k)
        exact = _exact_sums(lists, r.check_k(k))
        exact_of = {f.id: exact.get(f.id, Fraction(0)) for f in fused}
        return sorted(fused, key=lambda f: (-exact_of[f.id], f.candidate.path, f.id))

    swap(r, "fuse", fuse)


@mutant(
    "rrf-naive-float",
    "RRF-7",
    "the naive port: float sums in list order, equal floats in insertion order",
    seams=("reference.rrf.canonical_sum", "reference.rrf.order"),
)
def _rrf_naive() -> None:
    _rrf_sum_list_order()
    _rrf_insertion_ties()


@mutant(
    "rrf-zero-weight-adds-candidates",
    "RRF-3",
    "a weight-0 list still adds its candidates (with nothing to their score)",
    seams=("reference.rrf.fuse",),
)
def _rrf_zero_weight() -> None:
    r = _mod("reference.rrf")
    original = r.fuse

    def fuse(lists: Sequence[Any], k: int = r.DEFAULT_K) -> list[Any]:
        fused = original(lists, k)
        seen = {f.id for f in fused}
        for ranked in lists:
            if ranked.weight != 0:
                continue
            for cand in ranked.items:
                if cand.id not in seen:
                    seen.add(cand.id)
                    fused.append(r.Fused(candidate=cand, score=0.0))
        return list(r.order(fused))

    swap(r, "fuse", fuse)


@mutant(
    "rrf-duplicates-compacted",
    "RRF-4",
    "repeated ids are removed from a list first, so later items move up a rank",
    seams=("reference.rrf.fuse",),
)
def _rrf_compacted() -> None:
    r = _mod("reference.rrf")
    original = r.fuse

    def fuse(lists: Sequence[Any], k: int = r.DEFAULT_K) -> list[Any]:
        compact = []
        for ranked in lists:
            firsts = {c.id: c for c in reversed(ranked.items)}
            items = tuple(c for c in ranked.items if firsts.get(c.id) is c)
            compact.append(replace(ranked, items=items))
        return list(original(compact, k))

    swap(r, "fuse", fuse)


_PLACEHOLDER = "\u0000repeat-"


@mutant(
    "rrf-duplicates-counted-once",
    "RRF-4",
    "a repeated id counts only at its first occurrence in a list, later ones ignored but "
    "keeping their positions (the 2.x reading)",
    seams=("reference.rrf.fuse",),
)
def _rrf_counted_once() -> None:
    r = _mod("reference.rrf")
    types = _mod("reference.types")
    original = r.fuse

    def fuse(lists: Sequence[Any], k: int = r.DEFAULT_K) -> list[Any]:
        # A later occurrence becomes a unique placeholder (it keeps the position, adds nothing
        # to its id) and placeholders are dropped from the output.
        masked = []
        n = 0
        for ranked in lists:
            seen: set[str] = set()
            items = []
            for cand in ranked.items:
                if cand.id in seen:
                    n += 1
                    cand = types.Candidate(id=f"{_PLACEHOLDER}{n}", path="")
                seen.add(cand.id)
                items.append(cand)
            masked.append(replace(ranked, items=tuple(items)))
        return [f for f in original(masked, k) if not f.id.startswith(_PLACEHOLDER)]

    swap(r, "fuse", fuse)


@mutant(
    "rrf-merge-best-rank",
    "RRF-10",
    "each text field and metadata key comes from the best-ranked occurrence, equal ranks by "
    "the smallest value (the 2.x reading, D4), not the first sighting",
    seams=("reference.rrf._filled",),
)
def _rrf_best_rank_merge() -> None:
    r = _mod("reference.rrf")
    types = _mod("reference.types")
    text = _mod("reference.text")

    def best(values: Sequence[tuple[int, str]]) -> str:
        present = [(rank, text.codepoint_key(v), v) for rank, v in values if v != ""]
        return min(present)[2] if present else ""

    def filled(occurrences: Sequence[tuple[int, Any]]) -> Any:
        first = occurrences[0][1]
        texts = {
            name: best([(rank, getattr(c, name)) for rank, c in occurrences])
            for name in r.TEXT_FIELDS
        }
        keys = {key for _, c in occurrences for key in c.metadata}
        metadata = {
            key: best([(rank, c.metadata[key]) for rank, c in occurrences if key in c.metadata])
            for key in keys
        }
        return types.Candidate(id=first.id, metadata=metadata, **texts)

    swap(r, "_filled", filled)


@mutant(
    "rrf-k-zero-rejected",
    "RRF-1",
    "k <= 0 is invalid_input (the 2.x reading), not the default",
    seams=("reference.rrf.check_k",),
)
def _rrf_k_rejected() -> None:
    r = _mod("reference.rrf")
    original = r.check_k

    def check_k(k: object) -> int:
        if isinstance(k, int | float) and not isinstance(k, bool) and k <= 0:
            raise r.InvalidInput(f"k must be >= 1, got {k!r}")
        return int(original(k))

    swap(r, "check_k", check_k)


@mutant(
    "rrf-sum-smallest-first",
    "RRF-7",
    "an item's contributions are summed smallest first (ascending), not largest first",
    seams=("reference.rrf.canonical_sum",),
)
def _rrf_sum_ascending() -> None:
    def canonical_sum(contributions: Sequence[float]) -> float:
        total = 0.0
        for value in sorted(contributions):
            total += value
        return total

    swap(_mod("reference.rrf"), "canonical_sum", canonical_sum)


@mutant(
    "rrf-sum-in-list-order",
    "RRF-7",
    "an item's contributions are summed in list order (ties still broken by path, id)",
    seams=("reference.rrf.canonical_sum",),
)
def _rrf_sum_in_list_order() -> None:
    _rrf_sum_list_order()


@mutant(
    "rrf-contribution-reciprocal",
    "RRF-7",
    "a contribution is w × (1 / (k + r + 1)), two roundings instead of one division",
    seams=("reference.rrf.contribution",),
)
def _rrf_reciprocal() -> None:
    swap(_mod("reference.rrf"), "contribution", lambda w, k, rank: w * (1.0 / float(k + rank + 1)))


@mutant(
    "rrf-path-equal-rank-first-list",
    "RRF-13",
    "between paths of equal rank, the first list's wins, not the smallest by code point",
    seams=("reference.rrf.better_path",),
)
def _rrf_path_equal_rank_first() -> None:
    def better_path(rank: int, path: str, best: tuple[int, str] | None) -> bool:
        return path != "" and (best is None or rank < best[0])

    swap(_mod("reference.rrf"), "better_path", better_path)


@mutant(
    "rrf-path-first-seen",
    "RRF-13",
    "the path is the first sighting's, never updated (the anchor's bucket), so disputed "
    "paths make ties follow list order",
    seams=("reference.rrf.better_path",),
)
def _rrf_path_first_seen() -> None:
    def better_path(rank: int, path: str, best: tuple[int, str] | None) -> bool:
        return best is None and path != ""

    swap(_mod("reference.rrf"), "better_path", better_path)


@mutant(
    "rrf-metadata-empty-keys-dropped",
    "RRF-14",
    "a metadata key whose every value is empty is dropped instead of kept with \"\"",
    seams=("reference.rrf.fuse",),
)
def _rrf_empty_keys() -> None:
    r = _mod("reference.rrf")
    original = r.fuse

    def fuse(lists: Sequence[Any], k: int = r.DEFAULT_K) -> list[Any]:
        out = []
        for f in original(lists, k):
            meta = {key: v for key, v in f.candidate.metadata.items() if v != ""}
            out.append(replace(f, candidate=replace(f.candidate, metadata=meta)))
        return out

    swap(r, "fuse", fuse)


@mutant(
    "rrf-whole-float-k-rejected",
    "RRF-15",
    "k = 60.0 is rejected because it is a float",
    seams=("reference.rrf.check_k",),
)
def _rrf_float_k() -> None:
    r = _mod("reference.rrf")
    original = r.check_k

    def check_k(k: object) -> int:
        if isinstance(k, float):
            raise r.InvalidInput(f"k must be an integer, got {k!r}")
        return int(original(k))

    swap(r, "check_k", check_k)


@mutant(
    "rrf-negative-weight-accepted",
    "RRF-3",
    "a negative list weight is accepted",
    seams=("reference.rrf.check_weight",),
)
def _rrf_negative_weight() -> None:
    r = _mod("reference.rrf")
    original = r.check_weight

    def check_weight(weight: object) -> float:
        if isinstance(weight, int | float) and not isinstance(weight, bool) and weight < 0:
            return float(weight)
        return float(original(weight))

    swap(r, "check_weight", check_weight)


@mutant(
    "rrf-weight-zero-items-unread",
    "RRF-5",
    "the items of a list of weight 0 are never read, so an empty id there passes",
    seams=("conformance.adapters.ops.fusion._list",),
)
def _rrf_empty_id_weighted_only() -> None:
    ops = _mod("conformance.adapters.ops.fusion")
    r = _mod("reference.rrf")
    original = ops._list

    def read_list(inp: Any, name: str) -> Any:
        weight = inp.get("weight")
        if name == "items" and weight is not None and r.check_weight(weight) == 0:
            return []
        return original(inp, name)

    set_attr(ops, "_list", read_list)


@mutant(
    "rrf-result-omits-empty-fields",
    "RRF-9",
    "a fused result leaves out empty texts and empty metadata (Go's `omitempty`)",
    seams=("conformance.adapters.ops.fusion.fused_json",),
)
def _rrf_omit_empty() -> None:
    ops = _mod("conformance.adapters.ops.fusion")
    original = ops.fused_json

    def fused_json(item: Any) -> Any:
        return {key: v for key, v in original(item).items() if v not in ("", {})}

    swap(ops, "fused_json", fused_json)


@mutant(
    "rrf-same-path-ties-first-seen",
    "RRF-12",
    "equal scores and equal paths keep first-seen order (a stable sort by score, then path)",
    seams=("reference.rrf.order",),
)
def _rrf_same_path_first_seen() -> None:
    r = _mod("reference.rrf")
    swap(r, "order", lambda fused: sorted(fused, key=lambda f: (-f.score, f.candidate.path)))
