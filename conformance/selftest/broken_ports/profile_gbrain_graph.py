"""Broken ports of profile gbrain: traversal (spec/profiles/gbrain.md GBRAIN-10..12),
registered on import."""

from __future__ import annotations

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
