"""Broken ports of profile gbrain: `gbrain.traverse` (spec/profiles/gbrain.md GBRAIN-10..12,
GBRAIN-41) and the augment's walk, gbrain's relationalFanout (GBRAIN-40), registered on import."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from types import ModuleType
from typing import Any

from conformance.selftest.broken_ports.patching import (
    _mod,
    mutant,
    swap,
)


def _gbrain(name: str) -> ModuleType:
    return _mod(f"reference.profiles.gbrain.{name}")


def _pairs_in_order(pairs: Any) -> list[dict[str, Any]]:
    return [{"page": p, "depth": d} for d, p in sorted((d, p) for p, d in pairs)]


@mutant(
    "gbrain-traverse-depth-two",
    "GBRAIN-11",
    "the default depth is 3.0.0's 2, not the code's 5",
    seams=("reference.profiles.gbrain.traverse.clamp_depth",),
)
def _traverse_depth_two() -> None:
    traverse = _gbrain("traverse")

    def clamp_depth(requested: int) -> int:
        return int(max(1, min(requested or 2, 10)))

    swap(traverse, "clamp_depth", clamp_depth)


@mutant(
    "gbrain-traverse-depth-bounds-3x",
    "GBRAIN-11",
    "depth is checked against 0..10 as in 3.0.0 (0 = the seeds only), not clamped",
    seams=("reference.profiles.gbrain.traverse.traverse_options",),
)
def _traverse_depth_bounds() -> None:
    traverse = _gbrain("traverse")
    original = traverse.traverse_options
    invalid = _mod("reference.types").InvalidInput

    def traverse_options(obj: Any) -> Any:
        opts = original(obj)
        depth = obj.get("depth")
        if depth is None:
            return opts
        if not 0 <= depth <= 10:
            raise invalid("depth must be 0..10")
        return replace(opts, depth=int(depth))

    swap(traverse, "traverse_options", traverse_options)


@mutant(
    "gbrain-traverse-both-default",
    "GBRAIN-11",
    "the default direction is both, not out",
    seams=("reference.profiles.gbrain.traverse.traverse_options",),
)
def _traverse_both() -> None:
    traverse = _gbrain("traverse")
    original = traverse.traverse_options

    def traverse_options(obj: Any) -> Any:
        opts = original(obj)
        return opts if obj.get("direction") is not None else replace(opts, direction="both")

    swap(traverse, "traverse_options", traverse_options)


@mutant(
    "gbrain-traverse-global-visited",
    "GBRAIN-11",
    "one visited set for the whole walk: each page is reached once, at its first depth",
    seams=("reference.profiles.gbrain.traverse.walk_paths",),
)
def _traverse_global_visited() -> None:
    traverse = _gbrain("traverse")

    def walk_paths(step: Any, seeds: Any, depth: int) -> set[tuple[str, int]]:
        seen = {seed: 0 for seed in seeds}
        level = list(seeds)
        for d in range(depth):
            nxt = []
            for page in level:
                for n in sorted(step.get(page, ())):
                    if n not in seen:
                        seen[n] = d + 1
                        nxt.append(n)
            level = nxt
        return {(p, d) for p, d in seen.items()}

    swap(traverse, "walk_paths", walk_paths)


@mutant(
    "gbrain-traverse-fanout-ten",
    "GBRAIN-11",
    "3.0.0's fan-out stays on by default: at most ten neighbours of a page, by code point",
    seams=("reference.profiles.gbrain.traverse.steps",),
)
def _traverse_fanout() -> None:
    traverse = _gbrain("traverse")
    original = traverse.steps

    def steps(edges: Any, options: Any) -> dict[str, set[str]]:
        return {page: set(sorted(ns)[:10]) for page, ns in original(edges, options).items()}

    swap(traverse, "steps", steps)


@mutant(
    "gbrain-traverse-link-type-first-step",
    "GBRAIN-11",
    "linkType filters only the seeds' own edges; later steps follow every type",
    seams=("reference.profiles.gbrain.traverse.traverse",),
)
def _traverse_link_type_first() -> None:
    traverse = _gbrain("traverse")

    def traverse_(edges: Any, seeds: Any, options: Any) -> Any:
        edges = list(edges)
        first = traverse.steps(edges, options)
        rest = traverse.steps(edges, replace(options, link_type=None))
        step = {p: (first.get(p, set()) if p in seeds else rest.get(p, set()))
                for p in set(first) | set(rest)}
        return _pairs_in_order(traverse.walk_paths(step, seeds, options.depth))

    swap(traverse, "traverse", traverse_)


@mutant(
    "gbrain-traverse-support-order",
    "GBRAIN-12",
    "pages of one depth rank by how many paths reach them, then by id",
    seams=("reference.profiles.gbrain.traverse.traverse",),
)
def _traverse_support_order() -> None:
    traverse = _gbrain("traverse")

    def traverse_(edges: Any, seeds: Any, options: Any) -> Any:
        step = traverse.steps(edges, options)
        count: Counter[tuple[str, int]] = Counter()

        def extend(page: str, d: int, on_path: set[str]) -> None:
            count[(page, d)] += 1
            if d < options.depth:
                for n in step.get(page, ()):
                    if n not in on_path:
                        extend(n, d + 1, on_path | {n})

        for seed in seeds:
            extend(seed, 0, {seed})
        ranked = sorted(count, key=lambda pd: (pd[1], -count[pd], pd[0]))
        return [{"page": p, "depth": d} for p, d in ranked]

    swap(traverse, "traverse", traverse_)


@mutant(
    "gbrain-traverse-every-path",
    "GBRAIN-12",
    "one result per path, not per distinct (page, depth): no DISTINCT",
    seams=("reference.profiles.gbrain.traverse.traverse",),
)
def _traverse_every_path() -> None:
    traverse = _gbrain("traverse")

    def traverse_(edges: Any, seeds: Any, options: Any) -> Any:
        step = traverse.steps(edges, options)
        rows: list[tuple[int, str]] = []

        def extend(page: str, d: int, on_path: set[str]) -> None:
            rows.append((d, page))
            if d < options.depth:
                for n in step.get(page, ()):
                    if n not in on_path:
                        extend(n, d + 1, on_path | {n})

        for seed in seeds:
            extend(seed, 0, {seed})
        return [{"page": p, "depth": d} for d, p in sorted(rows)]

    swap(traverse, "traverse", traverse_)


@mutant(
    "gbrain-traverse-seeds-share-visited",
    "GBRAIN-41",
    "every path starts with all the seeds visited, so no seed is reached from another",
    seams=("reference.profiles.gbrain.traverse.walk_paths",),
)
def _traverse_shared_seeds() -> None:
    traverse = _gbrain("traverse")

    def walk_paths(step: Any, seeds: Any, depth: int) -> set[tuple[str, int]]:
        reached: set[tuple[str, int]] = set()

        def extend(page: str, d: int, on_path: set[str]) -> None:
            reached.add((page, d))
            if d < depth:
                for n in step.get(page, ()):
                    if n not in on_path:
                        extend(n, d + 1, on_path | {n})

        for seed in seeds:
            extend(seed, 0, set(seeds))
        return reached

    swap(traverse, "walk_paths", walk_paths)


@mutant(
    "gbrain-traverse-keeps-3x-options",
    "GBRAIN-10",
    "the 3.0.0 members fanout and types are still accepted (and ignored)",
    seams=("reference.profiles.gbrain.traverse.FIELDS",),
)
def _traverse_keeps_options() -> None:
    traverse = _gbrain("traverse")
    swap(traverse, "FIELDS", traverse.FIELDS | {"fanout", "types"})


@mutant(
    "gbrain-walk-out-only",
    "GBRAIN-40",
    "the augment's default direction is out, not both",
    seams=("reference.profiles.gbrain.augment.walk_options",),
)
def _gbrain_out_only() -> None:
    augment = _gbrain("augment")
    original = augment.walk_options

    def walk_options(obj: Any, where: str) -> Any:
        opts = original(obj, where)
        return opts if obj.get("direction") is not None else replace(opts, direction="out")

    swap(augment, "walk_options", walk_options)


@mutant(
    "gbrain-augment-depth-five",
    "GBRAIN-40",
    "the augment takes gbrain.traverse's default depth 5, not 2",
    seams=("reference.profiles.gbrain.augment.walk_options",),
)
def _augment_depth_five() -> None:
    augment = _gbrain("augment")
    original = augment.walk_options

    def walk_options(obj: Any, where: str) -> Any:
        opts = original(obj, where)
        return opts if obj.get("depth") is not None else replace(opts, depth=5)

    swap(augment, "walk_options", walk_options)


def _reached(augment: ModuleType, hop: dict[str, int], types: dict[str, set[str]],
             order: Any, limit: int) -> list[Any]:
    ranked = sorted(hop, key=order)[: max(1, min(limit, augment.MAX_REACHED))]
    return [augment.Reached(p, hop[p], len(types[p])) for p in ranked]


@mutant(
    "gbrain-augment-depth-unclamped",
    "GBRAIN-40",
    "the depth is taken as given (3.0.0's 0..10), not clamped to the code's 1..3",
    seams=("reference.profiles.gbrain.augment.walk_options",),
)
def _augment_unclamped() -> None:
    augment = _gbrain("augment")
    original = augment.walk_options

    def walk_options(obj: Any, where: str) -> Any:
        opts = original(obj, where)
        depth = obj.get("depth")
        return opts if depth is None else replace(opts, depth=max(0, int(depth)))

    swap(augment, "walk_options", walk_options)


@mutant(
    "gbrain-augment-empty-types-follow-none",
    "GBRAIN-40",
    "types [] follows no edge (3.0.0), not every edge as the code's empty list does",
    seams=("reference.profiles.gbrain.augment.walk_options",),
)
def _augment_empty_types() -> None:
    augment = _gbrain("augment")
    original = augment.walk_options

    def walk_options(obj: Any, where: str) -> Any:
        opts = original(obj, where)
        return replace(opts, types=frozenset({"\u0000none"})) if obj.get("types") == [] else opts

    swap(augment, "walk_options", walk_options)


@mutant(
    "gbrain-augment-global-visited",
    "GBRAIN-40",
    "one visited set for the whole walk: a page is entered once, by its first edge only",
    seams=("reference.profiles.gbrain.augment.walk",),
)
def _augment_global_visited() -> None:
    augment = _gbrain("augment")

    def walk(edges: Any, seeds: Any, options: Any, limit: int) -> Any:
        step = augment.steps(edges, options)
        hop: dict[str, int] = {}
        types: dict[str, set[str]] = {}
        seen = set(seeds)
        level = sorted(seeds)
        for d in range(options.depth):
            nxt: list[str] = []
            for page in level:
                for n, kind in sorted(step.get(page, ())):
                    if n not in seen:
                        seen.add(n)
                        hop[n] = d + 1
                        types[n] = {kind}
                        nxt.append(n)
            level = nxt
        return _reached(augment, hop, types, lambda p: (hop[p], -len(types[p]), p), limit)

    swap(augment, "walk", walk)


@mutant(
    "gbrain-augment-rank-by-support",
    "GBRAIN-40",
    "pages of one hop rank by how many pages they are entered from (3.0.0's support)",
    seams=("reference.profiles.gbrain.augment.walk",),
)
def _augment_support() -> None:
    augment = _gbrain("augment")
    original = augment.walk

    def walk(edges: Any, seeds: Any, options: Any, limit: int) -> Any:
        full = original(edges, seeds, options, 10**6)
        step = augment.steps(edges, options)
        support = Counter(n for q in {r.page for r in full} | set(seeds)
                          for n in {n for n, _ in step.get(q, ())})
        ranked = sorted(full, key=lambda r: (r.hop, -support[r.page], r.page))
        return ranked[: max(1, min(limit, augment.MAX_REACHED))]

    swap(augment, "walk", walk)


@mutant(
    "gbrain-augment-rank-ignores-edge-types",
    "GBRAIN-40",
    "the walk's pages rank by hop, then id only, not by their count of edge types",
    seams=("reference.profiles.gbrain.augment.walk",),
)
def _augment_rank() -> None:
    augment = _gbrain("augment")
    original = augment.walk

    def walk(edges: Any, seeds: Any, options: Any, limit: int) -> Any:
        full = sorted(original(edges, seeds, options, 10**6), key=lambda r: (r.hop, r.page))
        return full[: max(1, min(limit, augment.MAX_REACHED))]

    swap(augment, "walk", walk)


@mutant(
    "gbrain-augment-walk-uncut",
    "GBRAIN-40",
    "the walk's list is not cut to the call's limit (the code's LIMIT)",
    seams=("reference.profiles.gbrain.augment.walk",),
)
def _augment_uncut() -> None:
    augment = _gbrain("augment")
    original = augment.walk
    swap(augment, "walk", lambda edges, seeds, options, limit: original(edges, seeds, options,
                                                                        augment.MAX_REACHED))
