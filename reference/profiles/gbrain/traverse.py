"""`gbrain.traverse` as gbrain's code walks (spec/profiles/gbrain.md GBRAIN-10..12, GBRAIN-41):
paths with their own visited sets, results the distinct (page, depth) pairs."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from reference.types import MAX_INTEGER, InvalidInput, optional, whole_number

from .links import Edge

DIRECTIONS = ("out", "in", "both")
#: GBRAIN-11: `traverse_graph`'s `(p.depth || 5)` clamped to 1..10 (src/core/ops/links.ts).
DEFAULT_DEPTH = 5
MIN_DEPTH = 1
MAX_DEPTH = 10
FIELDS = frozenset({"edges", "seeds", "depth", "linkType", "direction"})


@dataclass(frozen=True)
class TraverseOptions:
    """GBRAIN-11: the clamped depth, the one link type followed (None = every type), direction."""

    depth: int = DEFAULT_DEPTH
    link_type: str | None = None
    direction: str = "out"


def clamp_depth(requested: int) -> int:
    """GBRAIN-11: 0 is the default 5 (the code's `||`), then the code's clamp to 1..10."""
    return max(MIN_DEPTH, min(requested or DEFAULT_DEPTH, MAX_DEPTH))


def traverse_options(obj: Mapping[str, Any]) -> TraverseOptions:
    """GBRAIN-10, GBRAIN-11: validate depth, linkType and direction (OP-5: null is absent)."""
    unknown = sorted(set(obj) - FIELDS)
    if unknown:
        raise InvalidInput(f"unknown member {unknown[0]!r}")
    depth = whole_number(optional(obj, "depth", 0), "depth", -MAX_INTEGER, MAX_INTEGER)
    link_type = obj.get("linkType")
    if link_type is not None and not isinstance(link_type, str):
        raise InvalidInput("linkType must be a string")
    direction = optional(obj, "direction", "out")
    if direction not in DIRECTIONS:
        raise InvalidInput(f"direction must be one of {list(DIRECTIONS)}")
    return TraverseOptions(clamp_depth(depth), link_type, direction)


def edges_from_json(value: object, where: str) -> list[Edge]:
    """GBRAIN-10: a list of {from, to, type} objects with non-empty strings."""
    if not isinstance(value, list):
        raise InvalidInput(f"{where} must be a list")
    out: list[Edge] = []
    for i, item in enumerate(value):
        if not isinstance(item, Mapping):
            raise InvalidInput(f"{where}[{i}] must be an object")
        fields = [item.get(name) for name in ("from", "to", "type")]
        strings = [f for f in fields if isinstance(f, str) and f != ""]
        if len(strings) != 3:
            raise InvalidInput(f"{where}[{i}] needs non-empty strings from, to, type")
        out.append(Edge(*strings))
    return out


def steps(edges: Iterable[Edge], options: TraverseOptions) -> dict[str, set[str]]:
    """GBRAIN-11: the pages one followed edge leads to from each page (repeats count once)."""
    out: dict[str, set[str]] = {}
    for edge in edges:
        if options.link_type is not None and edge.type != options.link_type:
            continue
        if options.direction in ("out", "both"):
            out.setdefault(edge.source, set()).add(edge.target)
        if options.direction in ("in", "both"):
            out.setdefault(edge.target, set()).add(edge.source)
    return out


def walk_paths(
    step: Mapping[str, set[str]], seeds: Sequence[str], depth: int
) -> set[tuple[str, int]]:
    """GBRAIN-11, GBRAIN-41: every (last page, depth) of the paths from each seed that never
    revisit a page of their own path."""
    reached: set[tuple[str, int]] = set()

    def extend(page: str, d: int, on_path: set[str]) -> None:
        reached.add((page, d))
        if d == depth:
            return
        for nxt in sorted(step.get(page, ())):
            if nxt not in on_path:
                on_path.add(nxt)
                extend(nxt, d + 1, on_path)
                on_path.remove(nxt)

    for seed in seeds:
        extend(seed, 0, {seed})
    return reached


def traverse(
    edges: Iterable[Edge], seeds: Sequence[str], options: TraverseOptions
) -> list[dict[str, Any]]:
    """GBRAIN-11, GBRAIN-12: the walk's distinct pairs by depth, then page by code point."""
    pairs = walk_paths(steps(edges, options), seeds, options.depth)
    return [{"page": p, "depth": d} for d, p in sorted((d, p) for p, d in pairs)]
