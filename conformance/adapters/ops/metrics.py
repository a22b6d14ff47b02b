"""Reference handler of the `metrics` operation (spec/metrics.md METRIC-1, METRIC-13)."""

from __future__ import annotations

from typing import Any

from conformance.adapters.ops import JSON, operation
from reference import metrics
from reference.types import MAX_INTEGER, InvalidInput, optional, whole_number


def _object(value: Any, what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise InvalidInput(f"{what} must be an object")
    for key in value:
        if not key:
            raise InvalidInput(f"{what}: an id must be a non-empty string")
    return value


def parse_run(value: Any) -> dict[str, list[str]]:
    """METRIC-1: query id -> list of non-empty document ids (repeats allowed, METRIC-3)."""
    out: dict[str, list[str]] = {}
    for qid, docs in _object(value, "run").items():
        if not isinstance(docs, list):
            raise InvalidInput(f"run[{qid!r}] must be a list")
        for doc in docs:
            if not isinstance(doc, str) or not doc:
                raise InvalidInput(f"run[{qid!r}]: {doc!r} is not a non-empty string")
        out[qid] = list(docs)
    return out


def parse_qrels(value: Any) -> dict[str, dict[str, int]]:
    """METRIC-1: query id -> document id -> integer relevance, |rel| <= 2^31 - 1."""
    out: dict[str, dict[str, int]] = {}
    for qid, judged in _object(value, "qrels").items():
        docs = _object(judged, f"qrels[{qid!r}]")
        out[qid] = {
            doc: whole_number(rel, f"qrels[{qid!r}][{doc!r}]", -MAX_INTEGER, MAX_INTEGER)
            for doc, rel in docs.items()
        }
    return out


@operation("metrics")
def op_metrics(inp: JSON) -> JSON:
    if "run" not in inp or inp["run"] is None:
        raise InvalidInput("run is required")
    if "qrels" not in inp or inp["qrels"] is None:
        raise InvalidInput("qrels is required")
    run = parse_run(inp["run"])
    qrels = parse_qrels(inp["qrels"])
    k = whole_number(optional(inp, "k", metrics.DEFAULT_K), "k", 1, metrics.MAX_K)
    return metrics.evaluate(run, qrels, k).to_json()
