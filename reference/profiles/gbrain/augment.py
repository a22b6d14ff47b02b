"""The graph augment's level walk of `gbrain.search` (spec/profiles/gbrain.md GBRAIN-40, decision
G1): the kit's walk with fan-out and support, not `gbrain.traverse`'s (GBRAIN-11)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from reference.types import InvalidInput, optional, whole_number

from .links import Edge

DIRECTIONS = ("out", "in", "both")
DEFAULT_DEPTH = 2
DEFAULT_FANOUT = 10
MAX_DEPTH = 10
MAX_FANOUT = 1000


@dataclass(frozen=True)
class WalkOptions:
    """GBRAIN-40: depth, fan-out, allowed types (None = all) and direction."""

    depth: int = DEFAULT_DEPTH
    fanout: int = DEFAULT_FANOUT
    types: frozenset[str] | None = None
    direction: str = "both"


@dataclass(frozen=True)
class Reached:
    """One reached page: its id, the level it was reached at, and its support (GBRAIN-40)."""

    page: str
    depth: int
    support: int

    def to_json(self) -> dict[str, Any]:
        return {"page": self.page, "depth": self.depth, "support": self.support}


def walk_options(obj: Mapping[str, Any], where: str) -> WalkOptions:
    """GBRAIN-28, GBRAIN-40: validate depth, fanout, types, direction (OP-5 null = absent)."""
    depth = whole_number(optional(obj, "depth", DEFAULT_DEPTH), f"{where}depth", 0, MAX_DEPTH)
    fanout = whole_number(
        optional(obj, "fanout", DEFAULT_FANOUT), f"{where}fanout", 1, MAX_FANOUT
    )
    raw_types = obj.get("types")
    types: frozenset[str] | None = None
    if raw_types is not None:
        if not isinstance(raw_types, list) or not all(isinstance(t, str) for t in raw_types):
            raise InvalidInput(f"{where}types must be a list of strings")
        types = frozenset(raw_types)
    direction = optional(obj, "direction", "both")
    if direction not in DIRECTIONS:
        raise InvalidInput(f"{where}direction must be one of {list(DIRECTIONS)}")
    return WalkOptions(depth, fanout, types, direction)



def adjacency(edges: Iterable[Edge], options: WalkOptions) -> dict[str, set[str]]:
    """GBRAIN-40: each page's neighbours over the allowed types and direction, no self loops."""
    out: dict[str, set[str]] = {}
    for edge in edges:
        if options.types is not None and edge.type not in options.types:
            continue
        if edge.source == edge.target:
            continue
        if options.direction in ("out", "both"):
            out.setdefault(edge.source, set()).add(edge.target)
        if options.direction in ("in", "both"):
            out.setdefault(edge.target, set()).add(edge.source)
    return out


def walk(
    adjacent: Mapping[str, set[str]], seeds: Sequence[str], options: WalkOptions
) -> list[Reached]:
    """GBRAIN-40: level by level with fan-out, ranked by depth, support descending, id."""
    depth_of = {seed: 0 for seed in seeds}
    support = {seed: 0 for seed in seeds}
    level = sorted(seeds)
    for d in range(options.depth):
        nxt: list[str] = []
        for page in level:
            fresh = sorted(
                n for n in adjacent.get(page, ()) if n not in depth_of or depth_of[n] > d
            )
            for n in fresh[: options.fanout]:
                if n not in depth_of:
                    depth_of[n] = d + 1
                    support[n] = 0
                    nxt.append(n)
                support[n] += 1
        level = sorted(nxt)
    ranked = sorted(depth_of, key=lambda p: (depth_of[p], -support[p], p))
    return [Reached(p, depth_of[p], support[p]) for p in ranked]
