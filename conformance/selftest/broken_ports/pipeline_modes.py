"""Broken ports of mode resolution, the legs' fusion, the graph capability and the profiles'
isolation (spec/pipeline.md, spec/graph.md, spec/profiles.md), registered on import."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from conformance.selftest.broken_ports.patching import (
    _mod,
    mutant,
    set_attr,
    swap,
)


@mutant(
    "mode-fallback-silent",
    "MODE-2",
    "hybrid or semantic without an embedder falls back to bm25 without fellBackToBM25 (as auto)",
    seams=("reference.modes.resolve_mode",),
)
def _mode_fallback_silent() -> None:
    modes = _mod("reference.modes")
    original = modes.resolve_mode

    def resolve_mode(requested: str, has_embedder: bool) -> Any:
        resolved = original(requested, has_embedder)
        return modes.ResolvedMode(resolved.effective, False)

    swap(modes, "resolve_mode", resolve_mode)


@mutant(
    "mode-bm25-upgraded",
    "MODE-3",
    "bm25 with an embedder configured resolves to hybrid",
    seams=("reference.modes.resolve_mode",),
)
def _mode_bm25_upgraded() -> None:
    modes = _mod("reference.modes")
    original = modes.resolve_mode

    def resolve_mode(requested: str, has_embedder: bool) -> Any:
        return original("auto" if requested == "bm25" else requested, has_embedder)

    swap(modes, "resolve_mode", resolve_mode)


@mutant(
    "mode-vector-leg-in-bm25",
    "MODE-4",
    "in bm25 mode the vector leg still runs (and is fused) whenever an embedder is configured",
    seams=("reference.modes.resolve_mode",),
)
def _mode_vector_in_bm25() -> None:
    modes = _mod("reference.modes")
    original = modes.resolve_mode

    class Both(modes.ResolvedMode):  # type: ignore[name-defined,misc]
        @property
        def runs_vector(self) -> bool:
            return True

    def resolve_mode(requested: str, has_embedder: bool) -> Any:
        resolved = original(requested, has_embedder)
        if resolved.effective == "bm25" and has_embedder:
            return Both(resolved.effective, resolved.fell_back_to_bm25)
        return resolved

    swap(modes, "resolve_mode", resolve_mode)


@mutant(
    "pipe-blank-query-accepted",
    "PIPE-2",
    "only the empty string is rejected; a query of white space alone is searched",
    seams=("reference.request.parse_request",),
)
def _pipe_blank_accepted() -> None:
    req = _mod("reference.request")
    text = _mod("reference.text")
    original = req.parse_request

    def parse_request(obj: Mapping[str, Any]) -> Any:
        query = obj.get("query") if isinstance(obj, Mapping) else None
        if isinstance(query, str) and query != "" and text.normalise(query) == "":
            saved = req.text.normalise
            set_attr(req.text, "normalise", lambda value: value or "")
            try:
                return original(obj)
            finally:
                set_attr(req.text, "normalise", saved)
        return original(obj)

    swap(req, "parse_request", parse_request)


@mutant(
    "pipe-unrun-leg-fused-empty",
    "PIPE-5",
    "a leg that did not run is fused as an empty list (and listed in fusion.lists)",
    seams=("reference.pipeline._run_variant",),
)
def _pipe_unrun_leg_listed() -> None:
    pipe = _mod("reference.pipeline")
    rrf = _mod("reference.rrf")
    original = pipe._run_variant

    def run_variant(*args: Any) -> Any:
        run = original(*args)
        present = {x.name for x in run.lists}
        lists = list(run.lists)
        for name in ("bm25", "vector"):
            if name not in present:
                lists.append(rrf.RankedList(name, 1.0, ()))
        order = {name: i for i, name in enumerate(pipe.FUSION_ORDER)}
        run.lists = sorted(lists, key=lambda x: order[x.name])
        return run

    swap(pipe, "_run_variant", run_variant)


@mutant(
    "graph-weight-unknown-field",
    "GRAPH-1",
    "a port with the graph leg still rejects weights.graph as an unknown weight",
    seams=("reference.request.parse_request",),
)
def _graph_weight_rejected() -> None:
    req = _mod("reference.request")
    types = _mod("reference.types")
    original = req.parse_request

    def parse_request(obj: Mapping[str, Any]) -> Any:
        weights = obj.get("weights") if isinstance(obj, Mapping) else None
        if isinstance(weights, Mapping) and "graph" in weights:
            raise types.InvalidInput("request.weights must be an object with bm25 and vector")
        return original(obj)

    swap(req, "parse_request", parse_request)


@mutant(
    "profile-trace-at-top-level",
    "PROFILE-4",
    "a profile's trace fields are written at the trace's top level, not under profiles.NAME",
    seams=("reference.pipeline.search",),
)
def _profile_trace_top_level() -> None:
    pipe = _mod("reference.pipeline")
    original = pipe.search

    def search(request: Any, backends: Any) -> Any:
        results, trace = original(request, backends)
        for fields in trace.pop("profiles", {}).values():
            if isinstance(fields, Mapping):
                trace.update(fields)
        return results, trace

    swap(pipe, "search", search)


@mutant(
    "profile-enabled-by-backend-data",
    "PROFILE-5",
    "a profile runs when backends.profiles names it, though the request does not enable it",
    seams=("reference.pipeline.search",),
)
def _profile_enabled_by_data() -> None:
    pipe = _mod("reference.pipeline")
    original = pipe.search

    def search(request: Any, backends: Any) -> Any:
        named = request.get("profiles") if isinstance(request, Mapping) else None
        enabled = dict(named) if isinstance(named, Mapping) else {}
        for name in backends.profile_data:
            enabled.setdefault(name, {})
        if enabled and isinstance(request, Mapping):
            request = {**request, "profiles": enabled}
        return original(request, backends)

    swap(pipe, "search", search)
