"""The graph augment's walk of `gbrain.search` (spec/profiles/gbrain.md GBRAIN-40): gbrain's
relational recall walk (`relationalFanout`), paths with their own visited sets, pages ranked
by hop then the number of edge types they were entered by."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from reference.types import MAX_INTEGER, InvalidInput, optional, whole_number

from .links import Edge

DIRECTIONS = ("out", "in", "both")
#: GBRAIN-40: `relationalFanout`'s depth, default 2 clamped to 1..3 (src/core/pglite-engine.ts).
DEFAULT_DEPTH = 2
MIN_DEPTH = 1
MAX_DEPTH = 3
#: GBRAIN-40: `relationalFanout`'s limit is clamped to 1..200.
MAX_REACHED = 200


@dataclass(frozen=True)
class WalkOptions:
    """GBRAIN-40: the clamped depth, the allowed types (None = every type) and direction."""

    depth: int = DEFAULT_DEPTH
    types: frozenset[str] | None = None
    direction: str = "both"


@dataclass(frozen=True)
class Reached:
    """One page of the walk's list: its id, its hop (least depth) and its edge-type count."""

    page: str
    hop: int
    edge_types: int

    def to_json(self) -> dict[str, Any]:
        return {"page": self.page, "hop": self.hop, "edgeTypes": self.edge_types}


def walk_options(obj: Mapping[str, Any], where: str) -> WalkOptions:
    """GBRAIN-28, GBRAIN-40: validate depth, types, direction (OP-5 null = absent)."""
    depth = whole_number(
        optional(obj, "depth", DEFAULT_DEPTH), f"{where}depth", -MAX_INTEGER, MAX_INTEGER
    )
    raw_types = obj.get("types")
    types: frozenset[str] | None = None
    if raw_types is not None:
        if not isinstance(raw_types, list) or not all(isinstance(t, str) for t in raw_types):
            raise InvalidInput(f"{where}types must be a list of strings")
        types = frozenset(raw_types) or None
    direction = optional(obj, "direction", "both")
    if direction not in DIRECTIONS:
        raise InvalidInput(f"{where}direction must be one of {list(DIRECTIONS)}")
    return WalkOptions(max(MIN_DEPTH, min(depth, MAX_DEPTH)), types, direction)


def steps(edges: Iterable[Edge], options: WalkOptions) -> dict[str, set[tuple[str, str]]]:
    """GBRAIN-40: each page's (next page, edge type) pairs over the allowed types and direction."""
    out: dict[str, set[tuple[str, str]]] = {}
    for edge in edges:
        if options.types is not None and edge.type not in options.types:
            continue
        if options.direction in ("out", "both"):
            out.setdefault(edge.source, set()).add((edge.target, edge.type))
        if options.direction in ("in", "both"):
            out.setdefault(edge.target, set()).add((edge.source, edge.type))
    return out


def walk(
    edges: Iterable[Edge], seeds: Sequence[str], options: WalkOptions, limit: int
) -> list[Reached]:
    """GBRAIN-40: every page a path from a seed reaches at depth 1..`depth` (no page twice on a
    path), by hop, then distinct entering edge types descending, then id; the first `limit`."""
    step = steps(edges, options)
    hop: dict[str, int] = {}
    entered: dict[str, set[str]] = {}

    def extend(page: str, d: int, on_path: set[str]) -> None:
        if d == options.depth:
            return
        for nxt, kind in sorted(step.get(page, ())):
            if nxt in on_path:
                continue
            hop[nxt] = min(hop.get(nxt, d + 1), d + 1)
            entered.setdefault(nxt, set()).add(kind)
            on_path.add(nxt)
            extend(nxt, d + 1, on_path)
            on_path.remove(nxt)

    for seed in seeds:
        extend(seed, 0, {seed})
    ranked = sorted(hop, key=lambda p: (hop[p], -len(entered[p]), p))
    cut = max(1, min(limit, MAX_REACHED))
    return [Reached(p, hop[p], len(entered[p])) for p in ranked[:cut]]
