"""Broken ports of profile gbrain: traversal and the graph leg (spec/profiles/gbrain.md
GBRAIN-10..15, GBRAIN-24), registered on import."""

from __future__ import annotations

from dataclasses import replace
from types import ModuleType
from typing import Any

from conformance.selftest.broken_ports.patching import (
    _mod,
    mutant,
    replace_hooks,
    set_attr,
    swap,
)


def _gbrain(name: str) -> ModuleType:
    return _mod(f"reference.profiles.gbrain.{name}")


def _gbrain_hooks(**changes: Any) -> None:
    replace_hooks("reference.profiles.gbrain", **changes)


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


@mutant("gbrain-seed-substring", "GBRAIN-14", "a page is a seed when its name is a substring")
def _gbrain_seed_substring() -> None:
    graph = _gbrain("graph_leg")

    def occurs(name: list[str], query: list[str]) -> bool:
        return " ".join(name) in " ".join(query) or "".join(name) in "".join(query)

    swap(graph, "_occurs", occurs)


@mutant("gbrain-reached-counts-hits", "GBRAIN-15", "reached counts the hits kept by the limit")
def _gbrain_reached() -> None:
    graph = _gbrain("graph_leg")
    original = graph.GbrainGraphBackend.search_graph

    def search_graph(self: Any, query: str, limit: int) -> Any:
        hits = original(self, query, limit)
        if "reached" in self._trace:
            self._trace["reached"] = len(hits)
        return hits

    set_attr(graph.GbrainGraphBackend, "search_graph", search_graph)


@mutant(
    "gbrain-walks-unindexed-pages",
    "GBRAIN-24",
    "every given or extracted edge is walked, through pages that are not indexed (1.1.0)",
)
def _gbrain_walks_unindexed() -> None:
    swap(_gbrain("graph_leg"), "stored_edges", lambda edges, pages: list(edges))


@mutant(
    "gbrain-trace-initialised-with-backend",
    "GBRAIN-15",
    "seeds [] and reached 0 are written when the graph backend is built, even if it never runs",
)
def _gbrain_trace_initialised() -> None:
    graph = _gbrain("graph_leg")
    original = graph.graph_backend

    def graph_backend(call: Any) -> Any:
        backend = original(call)
        if backend is not None:
            call.trace.setdefault("seeds", [])
            call.trace.setdefault("reached", 0)
        return backend

    _gbrain_hooks(graph_backend=graph_backend)


@mutant(
    "gbrain-edges-null-is-none",
    "GBRAIN-13",
    "edges: null is read as no edges (a key-present check), not as absent (extract from pages)",
)
def _gbrain_edges_null() -> None:
    graph = _gbrain("graph_leg")
    original = graph.parse_graph_data

    def parse_graph_data(obj: Any) -> Any:
        if isinstance(obj, dict) and "edges" in obj and obj["edges"] is None:
            obj = {**obj, "edges": []}
        return original(obj)

    _gbrain_hooks(parse_backends=parse_graph_data)


@mutant(
    "gbrain-unknown-option-ignored",
    "GBRAIN-13",
    "an unknown member of request.profiles.gbrain is ignored instead of rejected",
)
def _gbrain_unknown_option() -> None:
    graph = _gbrain("graph_leg")
    original = graph.parse_options

    def parse_options(obj: Any) -> Any:
        if isinstance(obj, dict):
            obj = {k: v for k, v in obj.items() if k in graph.OPTION_FIELDS}
        return original(obj)

    _gbrain_hooks(parse_request=parse_options)


@mutant(
    "gbrain-name-is-whole-page-id",
    "GBRAIN-14",
    "an untitled page is named by its whole page id (folders included), not its last segment",
)
def _gbrain_name_whole_id() -> None:
    graph = _gbrain("graph_leg")
    words = _mod("reference.text").words

    def names(page_id: str, page: Any) -> list[list[str]]:
        raw = [page.title] if page.title else []
        raw.append(page_id.replace("/", " ").replace("-", " ").replace("_", " "))
        return [w for w in (words(n) for n in raw) if w]

    swap(graph, "_names", names)
