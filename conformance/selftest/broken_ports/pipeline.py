"""Broken ports of the pipeline, operations and trace (spec/pipeline.md), registered on import."""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from conformance.selftest.broken_ports.patching import (
    _mod,
    _trace_member_always,
    mutant,
    set_attr,
    swap,
)


@mutant(
    "pipe-integers-zero-rejected",
    "PIPE-13",
    "a request integer <= 0 (topK, candidateK, rerankTopN, rrfK) is invalid_input (2.x)",
    seams=("reference.request._positive_int",),
)
def _pipe_integers_rejected() -> None:
    req = _mod("reference.request")
    types = _mod("reference.types")

    def positive_int(obj: Mapping[str, Any], name: str) -> int:
        value = types.optional(obj, name, req.DEFAULTS[name])
        return int(types.whole_number(value, f"request.{name}"))

    set_attr(req, "_positive_int", positive_int)


@mutant(
    "pipe-topk-before-rerank",
    "PIPE-3",
    "the list is cut to topK before rerank, so the reranker never sees the rest of the head",
    seams=("reference.pipeline.search", "reference.pipeline.rerank_head"),
)
def _pipe_topk_first() -> None:
    pipe = _mod("reference.pipeline")
    search, rerank_head = pipe.search, pipe.rerank_head
    state = {"top_k": 10}

    def cut_search(request: Mapping[str, Any], backends: Any) -> Any:
        value = request.get("topK", 10) if isinstance(request, Mapping) else 10
        state["top_k"] = value if isinstance(value, int) and value >= 1 else 10
        return search(request, backends)

    def cut_rerank(fused: Sequence[Any], *rest: Any) -> Any:
        return rerank_head(list(fused)[: state["top_k"]], *rest)

    swap(pipe, "search", cut_search)
    set_attr(pipe, "rerank_head", cut_rerank)


@mutant(
    "pipe-fraction-truncated",
    "PIPE-1",
    "a request integer above 0 that is not whole is truncated (60.5 → 60), not rejected",
    seams=("reference.request._positive_int",),
)
def _pipe_fraction_truncated() -> None:
    req = _mod("reference.request")
    original = req._positive_int

    def positive_int(obj: Mapping[str, Any], name: str) -> int:
        value = obj.get(name)
        if isinstance(value, float) and value > 0 and not value.is_integer():
            return int(value) if int(value) >= 1 else int(req.DEFAULTS[name])
        return int(original(obj, name))

    set_attr(req, "_positive_int", positive_int)


@mutant(
    "pipe-query-size-unbounded",
    "PIPE-14",
    "a query of any length is searched",
    seams=("reference.request.MAX_QUERY_CODE_POINTS",),
)
def _pipe_query_unbounded() -> None:
    set_attr(_mod("reference.request"), "MAX_QUERY_CODE_POINTS", 10**9)


@mutant(
    "pipe-query-size-in-utf16-units",
    "PIPE-14",
    "the query bound counts UTF-16 code units (JavaScript's length), so astral text is refused",
    seams=("reference.request.parse_request",),
)
def _pipe_query_utf16() -> None:
    req = _mod("reference.request")
    original = req.parse_request

    def parse_request(obj: Any) -> Any:
        query = obj.get("query") if isinstance(obj, Mapping) else None
        if isinstance(query, str) and len(query.encode("utf-16-le")) // 2 > 4096:
            raise req.InvalidInput("request.query is too long (UTF-16 units)")
        return original(obj)

    swap(req, "parse_request", parse_request)


@mutant(
    "pipe-vector-error-fails-search",
    "PIPE-15",
    "a vector leg error fails the whole search even when BM25 answered",
    seams=("reference.pipeline._run_vector_leg",),
)
def _pipe_vector_error() -> None:
    pipe = _mod("reference.pipeline")
    original = pipe._run_vector_leg

    def run_vector_leg(*args: Any) -> Any:
        leg = original(*args)
        if leg.error is not None:
            raise pipe.IndexError_(leg.error["message"])
        return leg

    set_attr(pipe, "_run_vector_leg", run_vector_leg)


@mutant(
    "bm25-leg-error-fails-call",
    "PIPE-7",
    "the 3.x reading: index_error when every leg that ran errored, although BM25 ran and erred",
    seams=("reference.pipeline.leg_errors_fail_call",),
)
def _bm25_error_fails_call() -> None:
    pipe = _mod("reference.pipeline")

    def leg_errors_fail_call(bm25_ran: bool, errors: Sequence[Any]) -> bool:
        return bool(errors) and all(error is not None for error in errors)

    swap(pipe, "leg_errors_fail_call", leg_errors_fail_call)


@mutant(
    "semantic-vector-error-answers-empty",
    "PIPE-15",
    "a call whose only legs erred answers results: [] even though BM25 did not run",
    seams=("reference.pipeline.leg_errors_fail_call",),
)
def _semantic_vector_error_empty() -> None:
    swap(_mod("reference.pipeline"), "leg_errors_fail_call", lambda bm25_ran, errors: False)


@mutant(
    "pipe-vector-hits-not-truncated",
    "PIPE-4",
    "the vector leg keeps every hit the store returns, not at most candidateK",
    seams=(
        "reference.backends.scripted.ScriptedVectors.search_vector",
        "reference.pipeline._run_vector_leg",
    ),
)
def _pipe_vector_unbounded() -> None:
    pipe = _mod("reference.pipeline")
    original = pipe._run_vector_leg
    scripted = _mod("reference.backends.scripted")
    search_vector = scripted.ScriptedVectors.search_vector

    def unbounded(self: Any, vector: Sequence[float], limit: int) -> list[Any]:
        return list(search_vector(self, vector, sys.maxsize if limit >= 1 else limit))

    def run_vector_leg(req: Any, backends: Any, normalised: str, profiles: Any) -> Any:
        return original(replace(req, candidate_k=sys.maxsize), backends, normalised, profiles)

    set_attr(scripted.ScriptedVectors, "search_vector", unbounded)
    set_attr(pipe, "_run_vector_leg", run_vector_leg)


@mutant(
    "pipe-results-carry-fused-score",
    "PIPE-6",
    "results report the fused score from before the intent multipliers",
    seams=("reference.pipeline.reweight",),
)
def _pipe_pre_intent_score() -> None:
    pipe = _mod("reference.pipeline")
    original = pipe.reweight

    def reweight(intent: Any, fused: Sequence[Any]) -> tuple[list[Any], list[Any]]:
        items, adjustments = original(intent, fused)
        before = {f.id: f.score for f in fused}
        return [replace(f, score=before[f.id]) for f in items], adjustments

    set_attr(pipe, "reweight", reweight)


@mutant(
    "pipe-zero-weight-leg-runs",
    "PIPE-8",
    "a leg of weight 0 still runs (search, ladder, embed) and votes; only fusion ignores it (1.0)",
    seams=("reference.pipeline.leg_skip",),
)
def _pipe_zero_weight_runs() -> None:
    pipe = _mod("reference.pipeline")

    def leg_skip(runs_in_mode: bool, weight: float) -> str | None:
        return None if runs_in_mode else pipe.SKIP_MODE

    swap(pipe, "leg_skip", leg_skip)


@mutant(
    "op-integers-unbounded",
    "OP-4",
    "integer inputs have no maximum (1.0): 2^31 and 2^63 are accepted and passed to the backends",
    seams=("reference.types.whole_number",),
)
def _op_integers_unbounded() -> None:
    types = _mod("reference.types")
    original = types.whole_number

    def whole_number(value: object, name: str, minimum: int = 1, maximum: int = 0) -> int:
        result: int = original(value, name, minimum, 2**200)
        return result

    swap(types, "whole_number", whole_number)


@mutant(
    "op-null-is-a-value",
    "OP-5",
    "null in an optional field is taken as a value (and rejected) instead of as absent",
    seams=("reference.types.optional", "reference.types.present"),
)
def _op_null_is_a_value() -> None:
    types = _mod("reference.types")

    def optional(obj: Mapping[str, Any], name: str, default: Any) -> Any:
        return obj.get(name, default)

    def present(obj: Mapping[str, Any], name: str) -> bool:
        return name in obj

    swap(types, "optional", optional)
    swap(types, "present", present)


@mutant(
    "pipe-rrf-k-checked-at-fusion",
    "PIPE-9",
    "the request accepts any rrfK >= 1; RRF-1's bound is checked at fusion, after the legs ran",
    seams=("reference.request._positive_int",),
)
def _pipe_rrf_k_late() -> None:
    req = _mod("reference.request")
    types = _mod("reference.types")
    original = req._positive_int

    def positive_int(obj: Mapping[str, Any], name: str) -> int:
        if name == "rrfK":
            value = types.optional(obj, name, req.DEFAULTS[name])
            return int(types.whole_number(value, f"request.{name}", 1, 2**200))
        return int(original(obj, name))

    set_attr(req, "_positive_int", positive_int)


@mutant(
    "trace-effective-mode-echoes-request",
    "TRACE-5",
    "effectiveMode repeats the requested mode, so an auto request reports `auto`",
    seams=("reference.pipeline.search",),
)
def _trace_effective_mode_echo() -> None:
    pipe = _mod("reference.pipeline")
    original = pipe.search

    def search(request: Any, backends: Any) -> Any:
        results, trace = original(request, backends)
        trace["effectiveMode"] = trace["requestedMode"]
        return results, trace

    swap(pipe, "search", search)


@mutant(
    "trace-skipped-row-expression-null",
    "TRACE-8",
    "a row that did not search reports `expression: null` instead of its expression or \"\"",
    seams=("reference.ladder.Attempt.to_json",),
)
def _trace_row_expression_null() -> None:
    ladder = _mod("reference.ladder")
    original = ladder.Attempt.to_json

    def to_json(self: Any) -> dict[str, Any]:
        row: dict[str, Any] = original(self)
        if not self.searched:
            row["expression"] = None
        return row

    set_attr(ladder.Attempt, "to_json", to_json)


@mutant(
    "pipe-vector-leg-embeds-unrewritten-query",
    "PIPE-11",
    "the vector leg embeds the request's query as sent, not the query an extension rewrote",
    seams=("reference.pipeline._run_vector_leg",),
)
def _pipe_vector_unrewritten() -> None:
    pipe = _mod("reference.pipeline")
    text = _mod("reference.text")
    original = pipe._run_vector_leg

    def run_vector_leg(req: Any, backends: Any, normalised: str, profiles: Any) -> Any:
        return original(req, backends, text.normalise(req.query), profiles)

    swap(pipe, "_run_vector_leg", run_vector_leg)


@mutant(
    "pipe-unknown-profile-ignored",
    "PIPE-10",
    "a request naming a profile the port does not implement is served as if it named none",
    seams=("reference.request._profiles",),
)
def _pipe_unknown_profile_ignored() -> None:
    request = _mod("reference.request")
    original = request._profiles

    def profiles(raw: Any) -> Any:
        from reference.profiles import discover

        known = discover()
        if isinstance(raw, dict):
            raw = {k: v for k, v in raw.items() if k in known}
        return original(raw)

    swap(request, "_profiles", profiles)


@mutant(
    "trace-profiles-member-always",
    "TRACE-15",
    "the trace carries an empty profiles member when the request enables no profile",
    seams=("reference.pipeline.search",),
)
def _profiles_member_always() -> None:
    _trace_member_always("profiles", {})
