"""`engram.search` (spec/profiles/engram.md ENGRAM-16..27): seed 001's pipeline in engram's
own order. Intent -> four ranked lists (dense, BM25, graph, Hopfield) fused by engram's
weighted RRF -> the RRF head (top `rerankCandidates`; the rest is dropped) -> the boosts on
the head -> the cross-encoder on the boosted head, or the boosted order when it is off ->
the `topK` cut -> the retrieval noise (clamped at 0) -> the confidence threshold."""

from __future__ import annotations

import math
from typing import Any

from reference.profiles.engram import options
from reference.profiles.engram.ops import boost_items
from reference.profiles.engram.table import classify
from reference.types import Candidate, InvalidInput, candidate_from_json

JSON = dict[str, Any]

#: ENGRAM-17: the fused lists in the order engram sums them.
LEGS = ("vector", "bm25", "graph", "hopfield")
#: ENGRAM-18: the Hopfield list's fixed weight (raya-ac/engram engram/retrieval.py:150,
#: commit a7527a12fcdffcebbd3d802e0bbf6d631c9c9dfd, MIT: `weights.get("hopfield", 0.6)`).
HOPFIELD_WEIGHT = 0.6
#: ENGRAM-26: engram's defaults (engram/config.py:14-17 at the same commit).
DEFAULT_RRF_K = 60
DEFAULT_TOP_K = 10
DEFAULT_HEAD = 20
DEFAULT_MIN_CONFIDENCE = 0.60
_INPUT = ("query", "documents", "legs", "now", "halfLifeDays", "rrfK", "topK",
          "rerankCandidates", "crossEncoder", "noise", "minConfidence")
_MAX_INT = 2**31 - 1


def _int(inp: JSON, name: str, default: int, low: int) -> int:
    raw = inp.get(name)
    if raw is None:
        return default
    if isinstance(raw, bool) or not isinstance(raw, int | float) or raw != int(raw):
        raise InvalidInput(f"{name} must be an integer")
    if not low <= raw <= _MAX_INT:
        raise InvalidInput(f"{name} must be between {low} and {_MAX_INT}")
    return int(raw)


def _documents(raw: Any) -> dict[str, Candidate]:
    if not isinstance(raw, list):
        raise InvalidInput("documents must be a list")
    out: dict[str, Candidate] = {}
    for obj in raw:
        cand = candidate_from_json(obj)
        if cand.id in out:
            raise InvalidInput(f"documents: repeated id {cand.id!r}")
        out[cand.id] = cand
    return out


def _legs(raw: Any, docs: dict[str, Candidate]) -> dict[str, list[str]]:
    """ENGRAM-16: each leg a ranked list of `{id, score?}`, best first; the Hopfield leg may be
    `{error}` (engram reads a failed Hopfield channel as no list, ENGRAM-18)."""
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise InvalidInput("legs must be an object")
    out: dict[str, list[str]] = {}
    for name in raw:
        if name not in LEGS:
            raise InvalidInput(f"legs.{name}: unknown leg (one of {', '.join(LEGS)})")
    for name in LEGS:
        value = raw.get(name)
        ids: list[str] = []
        if isinstance(value, dict) and name == "hopfield" and isinstance(value.get("error"), str):
            out[name] = ids
            continue
        if value is None:
            out[name] = ids
            continue
        if not isinstance(value, list):
            raise InvalidInput(f"legs.{name} must be a list of hits")
        for hit in value:
            if not isinstance(hit, dict) or not isinstance(hit.get("id"), str):
                raise InvalidInput(f"legs.{name}: each hit is an object with a string id")
            score = hit.get("score")
            if score is not None:
                options.number(score, f"legs.{name}: score of {hit['id']!r}")
            if hit["id"] not in docs:
                raise InvalidInput(f"legs.{name}: {hit['id']!r} is not in documents")
            if hit["id"] in ids:
                raise InvalidInput(f"legs.{name}: repeated id {hit['id']!r}")
            ids.append(hit["id"])
        out[name] = ids
    return out


def fuse(lists: dict[str, list[str]], weights: dict[str, float], k: int) -> list[tuple[str, float]]:
    """ENGRAM-17: engram's weighted RRF. Per list in LEGS order, per rank r (0-based):
    `acc[id] = acc[id] + w * (1 / (k + r + 1))`, each step one binary64 operation, `acc`
    starting at 0.0; then by score descending, ties in order of first appearance."""
    acc: dict[str, float] = {}
    for name in LEGS:
        w = weights[name]
        for rank, item_id in enumerate(lists[name]):
            acc[item_id] = acc.get(item_id, 0.0) + w * (1.0 / float(k + rank + 1))
    return sorted(acc.items(), key=lambda kv: -kv[1])


def _cross_encoder(raw: Any, head: list[str]) -> dict[str, float] | None:
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise InvalidInput("crossEncoder must be an object of scores by id")
    out: dict[str, float] = {}
    for item_id in head:
        if item_id not in raw:
            raise InvalidInput(f"crossEncoder: no score for head candidate {item_id!r}")
        out[item_id] = options.number(raw[item_id], f"crossEncoder score of {item_id!r}")
    for item_id, value in raw.items():
        options.number(value, f"crossEncoder score of {item_id!r}")
    return out


def _noise(raw: Any) -> dict[str, float]:
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise InvalidInput("noise must be an object of deviates by id")
    return {k: options.number(v, f"noise of {k!r}") for k, v in raw.items()}


def op_search(inp: JSON) -> JSON:
    """ENGRAM-16..27: the engram pipeline over scripted ranked lists."""
    unknown = sorted(k for k in inp if k not in _INPUT)
    if unknown:
        raise InvalidInput(f"input.{unknown[0]}: unknown field")
    query = inp.get("query")
    if not isinstance(query, str):
        raise InvalidInput("query must be a string")
    opts = options.parse({k: inp.get(k) for k in ("now", "halfLifeDays")}, "input",
                         ("now", "halfLifeDays"))
    rrf_k = _int(inp, "rrfK", DEFAULT_RRF_K, 0)
    top_k = _int(inp, "topK", DEFAULT_TOP_K, 1)
    head_n = _int(inp, "rerankCandidates", DEFAULT_HEAD, 1)
    raw_min = inp.get("minConfidence")
    min_conf = (DEFAULT_MIN_CONFIDENCE if raw_min is None
                else options.number(raw_min, "minConfidence"))
    docs = _documents(inp.get("documents"))
    lists = _legs(inp.get("legs"), docs)
    noise = _noise(inp.get("noise"))

    # ENGRAM-16: whitespace collapsed, then the class and its weights (ENGRAM-3, ENGRAM-17).
    normalized = normalize(query)
    c = classify(normalized)
    weights = {"vector": c.weights["vector"], "bm25": c.weights["bm25"],
               "graph": c.weights["graph"], "hopfield": HOPFIELD_WEIGHT}
    fused = fuse(lists, weights, rrf_k)
    head = take_head(fused, head_n)
    items = [(i, dict(docs[i].metadata), s) for i, s in head]
    wanted, boosts = boost_items(normalized, opts, items)
    ce = _cross_encoder(inp.get("crossEncoder"), [r["id"] for r in boosts])
    results = rank(boosts, ce)[:top_k]
    results = add_noise(results, noise)
    results, removed, applied = gate(results, min_conf, ce is not None)
    trace: JSON = {
        "intent": c.intent, "matched": list(c.matched), "weights": weights,
        "fused": [{"id": i, "score": s} for i, s in fused],
        "head": [i for i, _ in head],
        "querySignal": wanted, "boosts": boosts,
        "crossEncoder": ce is not None,
        "threshold": {"minConfidence": min_conf, "applied": applied, "removed": removed},
    }
    return {"results": [{"id": i, "path": docs[i].path, "score": s} for i, s in results],
            "trace": trace}


def normalize(query: str) -> str:
    """ENGRAM-16: split on Python's whitespace, joined by single spaces."""
    return " ".join(query.split())


def take_head(fused: list[tuple[str, float]], n: int) -> list[tuple[str, float]]:
    """ENGRAM-19: the RRF top n, before any boost; the rest is dropped."""
    return fused[:n]


def rank(boosts: list[JSON], ce: dict[str, float] | None) -> list[tuple[str, float]]:
    """ENGRAM-21: by cross-encoder score (stable over the boosted order), or the boosted order."""
    if ce is None:
        return [(r["id"], r["score"]) for r in boosts]
    return sorted(((r["id"], ce[r["id"]]) for r in boosts), key=lambda kv: -kv[1])


def add_noise(results: list[tuple[str, float]], noise: dict[str, float]) -> list[tuple[str, float]]:
    """ENGRAM-23: score + deviate, clamped at 0, then a stable re-sort by score."""
    out = [(i, _clamp(s + noise.get(i, 0.0))) for i, s in results]
    out.sort(key=lambda kv: -kv[1])
    return out


def gate(results: list[tuple[str, float]], min_conf: float,
         ce_ran: bool) -> tuple[list[tuple[str, float]], list[str], bool]:
    """ENGRAM-24: only after the cross-encoder, only when minConfidence > 0; equal is kept."""
    applied = ce_ran and bool(results) and min_conf > 0
    if not applied:
        return results, [], False
    return ([(i, s) for i, s in results if s >= min_conf],
            [i for i, s in results if s < min_conf], True)


def _clamp(x: float) -> float:
    """ENGRAM-23: `max(0, x)`; -0.0 and negatives become 0.0; NaN cannot occur (finite inputs)."""
    return x if x > 0 else 0.0 if not math.isnan(x) else x
