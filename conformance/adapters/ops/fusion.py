"""Reference handlers of the fusion and post-fusion operations (spec/operations.md).

rrf (spec/rrf.md), intent_* (spec/intent.md), unanimity (spec/unanimity.md) and rerank
(spec/rerank.md). Inputs are validated here; a bad input raises InvalidInput (OP-2).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from conformance.adapters.ops import JSON, operation
from reference import intent, rerank, rrf, unanimity
from reference.backends.protocols import RerankEntry
from reference.types import InvalidInput, candidate_from_json, optional, present

# RERANK-9: the only way to write a non-finite reranker score in JSON.
NON_FINITE_SPELLINGS = {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}


def _list(inp: JSON, name: str) -> list[Any]:
    value = inp.get(name)
    if not isinstance(value, list):
        raise InvalidInput(f"{name} must be a list")
    return value


def _str(inp: JSON, name: str) -> str:
    value = inp.get(name)
    if not isinstance(value, str):
        raise InvalidInput(f"{name} must be a string")
    return value


def _finite(value: Any, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidInput(f"{what} must be a number, got {value!r}")
    out = float(value)
    if not math.isfinite(out):
        raise InvalidInput(f"{what} must be finite")
    return out


def _fused_list(raw: Any, what: str) -> list[rrf.Fused]:
    """A list of fused items (candidate + score); ids must be unique (INTENT-10, RERANK-12)."""
    if not isinstance(raw, list):
        raise InvalidInput(f"{what} must be a list")
    out: list[rrf.Fused] = []
    seen: set[str] = set()
    for obj in raw:
        cand = candidate_from_json(obj)
        if cand.id in seen:
            raise InvalidInput(f"{what}: duplicate id {cand.id!r}")
        seen.add(cand.id)
        score = _finite(obj.get("score"), f"{what}: score of {cand.id!r}")
        out.append(rrf.Fused(candidate=cand, score=score, exact=Fraction(score)))
    return out


def fused_json(item: rrf.Fused) -> JSON:
    """A fused item as the `rrf` op emits it (RRF-9)."""
    return {**item.candidate.to_json(), "score": item.score}


@operation("rrf")
def op_rrf(inp: JSON) -> JSON:
    lists: list[rrf.RankedList] = []
    for raw in _list(inp, "lists"):
        if not isinstance(raw, dict):
            raise InvalidInput("each list must be an object")
        name = optional(raw, "name", "")
        if not isinstance(name, str):
            raise InvalidInput("list name must be a string")
        weight = rrf.check_weight(optional(raw, "weight", 1))
        items = tuple(candidate_from_json(c) for c in _list(raw, "items"))
        lists.append(rrf.RankedList(name=name, weight=weight, items=items))
    k = rrf.check_k(optional(inp, "k", rrf.DEFAULT_K))
    return {"results": [fused_json(f) for f in rrf.fuse(lists, k)]}


def _table(inp: JSON) -> str:
    """INTENT-13: optional `table`, default "anchor"; an unknown name is invalid_input."""
    return intent.check_table_name(optional(inp, "table", intent.DEFAULT_TABLE))


@operation("intent_patterns")
def op_intent_patterns(inp: JSON) -> JSON:
    return {"patterns": intent.patterns(_table(inp))}


@operation("intent_detect")
def op_intent_detect(inp: JSON) -> JSON:
    from reference.request import check_query_bound

    name = _table(inp)
    found = intent.detect(check_query_bound(_str(inp, "query"), "query", "INTENT-14"), name)
    return {
        "preference": found.preference,
        "concreteFact": found.concrete_fact,
        "label": found.label,
    }


@operation("intent_reweight")
def op_intent_reweight(inp: JSON) -> JSON:
    name = _table(inp)
    found = intent.detect(_str(inp, "query"), name)
    fused = _fused_list(inp.get("results"), "results")
    items, adjustments = intent.reweight(found, fused)
    by_id = intent.adjustments_by_id(adjustments)
    out: list[JSON] = []
    for item in items:
        adj = by_id.get(item.id)
        out.append(
            {
                "id": item.id,
                "score": item.score,
                "multiplier": adj.multiplier if adj else 1.0,
                "rules": list(adj.rules) if adj else [],
            }
        )
    return {"results": out}


def _ids(inp: JSON, name: str) -> list[str]:
    ids = _list(inp, name)
    if not all(isinstance(i, str) and i != "" for i in ids):
        raise InvalidInput(f"{name} must be a list of non-empty strings")
    return ids


@operation("unanimity")
def op_unanimity(inp: JSON) -> JSON:
    result = unanimity.check(_ids(inp, "bm25"), _ids(inp, "vector"))
    return {"agreements": result.agreements, "fired": result.fired}


def _rerank_score(value: Any) -> float:
    """RERANK-9: a number, or "NaN" / "Infinity" / "-Infinity" for non-finite scores."""
    if isinstance(value, str) and value in NON_FINITE_SPELLINGS:
        return NON_FINITE_SPELLINGS[value]
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidInput(f"reranker score must be a number, got {value!r}")
    return float(value)


def _entries(raw: Any) -> Sequence[RerankEntry]:
    if not isinstance(raw, list):
        raise InvalidInput("reranker.results must be a list")
    out: list[RerankEntry] = []
    for e in raw:
        if not isinstance(e, dict) or not isinstance(e.get("id"), str):
            raise InvalidInput("each reranker result needs a string id")
        out.append(RerankEntry(id=e["id"], score=_rerank_score(e.get("score"))))
    return out


@operation("rerank")
def op_rerank(inp: JSON) -> JSON:
    fused = _fused_list(inp.get("fused"), "fused")
    top_n = rerank.check_top_n(optional(inp, "rerankTopN", rerank.DEFAULT_TOP_N))
    reranker = inp.get("reranker")
    if not isinstance(reranker, dict):
        raise InvalidInput("reranker must be an object")
    provider = _str(reranker, "name")
    if provider == "":
        raise InvalidInput("reranker.name must be a non-empty string")  # RERANK-12
    has_results, has_error = present(reranker, "results"), present(reranker, "error")
    if has_results == has_error:
        raise InvalidInput("reranker needs exactly one of results and error")
    entries = _entries(reranker["results"]) if has_results else None
    error = _str(reranker, "error") if has_error else None
    skip = rerank.skip_before_unanimity(True, True, len(fused))
    if skip is not None:
        outcome = rerank.skipped(fused, skip, provider)
    else:
        outcome = rerank.rerank_head(fused, top_n, entries, error, provider)
    return {
        "results": [
            {"id": item.id, "rerankScore": outcome.rerank_scores[item.id]}
            for item in outcome.items
        ],
        "report": outcome.report(),
    }


@operation("rerank_text")
def op_rerank_text(inp: JSON) -> JSON:
    """RERANK-13, RERANK-14: the text a reranker is shown for `{title?, summary?, content?}`."""
    from reference.rerank_text import rerank_text

    fields = []
    for name in ("title", "summary", "content"):
        value = optional(inp, name, "")
        if not isinstance(value, str):
            raise InvalidInput(f"{name} must be a string")
        fields.append(value)
    return {"text": rerank_text(*fields)}
