"""Retrieval metrics against relevance judgements (spec/metrics.md, METRIC-1..13).

Pure functions over already-validated data. Every float follows METRIC-12: integers converted
exactly, one division per `/`, sums left to right in the order the spec names.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

#: The seed's cut-off (BrainBench P@5, R@5, nDCG@5); METRIC-1.
DEFAULT_K = 5

#: The largest cut-off: every discount log2(2..1001) is correctly rounded in CPython and V8.
MAX_K = 1000

#: The measures, in output order (METRIC-13).
MEASURES = ("precision", "recall", "reciprocalRank", "ndcg", "hit", "averagePrecision")

Run = Mapping[str, Sequence[str]]
Qrels = Mapping[str, Mapping[str, int]]


@dataclass(frozen=True)
class QueryScores:
    """One evaluated query's row (METRIC-13)."""

    query: str
    relevant: int
    retrieved: int
    relevant_retrieved: int
    precision: float
    recall: float
    reciprocal_rank: float
    ndcg: float
    hit: float
    average_precision: float

    def value(self, measure: str) -> float:
        """The value of `measure` (a name of MEASURES)."""
        return {
            "precision": self.precision,
            "recall": self.recall,
            "reciprocalRank": self.reciprocal_rank,
            "ndcg": self.ndcg,
            "hit": self.hit,
            "averagePrecision": self.average_precision,
        }[measure]

    def to_json(self) -> dict[str, object]:
        return {
            "query": self.query,
            "relevant": self.relevant,
            "retrieved": self.retrieved,
            "relevantRetrieved": self.relevant_retrieved,
            **{m: self.value(m) for m in MEASURES},
        }


@dataclass(frozen=True)
class Evaluation:
    """The whole answer of `metrics` (METRIC-13)."""

    queries: tuple[QueryScores, ...]
    excluded: tuple[str, ...]
    unjudged: tuple[str, ...]
    mean: dict[str, float | None]

    def to_json(self) -> dict[str, object]:
        return {
            "queries": [q.to_json() for q in self.queries],
            "excluded": list(self.excluded),
            "unjudged": list(self.unjudged),
            "mean": dict(self.mean),
        }


def dedupe(ranked: Sequence[str]) -> list[str]:
    """METRIC-3: the run's order, each id at its first occurrence only."""
    seen: set[str] = set()
    out: list[str] = []
    for doc in ranked:
        if doc not in seen:
            seen.add(doc)
            out.append(doc)
    return out


def gain(judgements: Mapping[str, int], doc: str) -> int:
    """METRIC-2: the relevance when > 0, else 0 (0, negative and absent alike)."""
    rel = judgements.get(doc, 0)
    return rel if rel > 0 else 0


def discount(rank: int) -> float:
    """METRIC-8/12: log2(rank + 1), correctly rounded (exact for powers of two)."""
    return math.log2(rank + 1)


def dcg(gains: Sequence[int]) -> float:
    """METRIC-8/12: Σ gain / log2(i + 1) over 1-based ranks, left to right from +0.0."""
    total = 0.0
    for i, g in enumerate(gains, 1):
        total += float(g) / discount(i)
    return total


def score_query(query: str, ranked: Sequence[str], judgements: Mapping[str, int],
                k: int) -> QueryScores:
    """All measures of one evaluated query (METRIC-5..10); `judgements` has R >= 1."""
    run = dedupe(ranked)
    gains = [gain(judgements, d) for d in run]
    relevant = sum(1 for rel in judgements.values() if rel > 0)
    head = gains[:k]
    relret = sum(1 for g in head if g > 0)
    first = next((i for i, g in enumerate(gains, 1) if g > 0), 0)
    ideal = sorted((rel for rel in judgements.values() if rel > 0), reverse=True)[:k]
    ap_sum = 0.0
    hits = 0
    for i, g in enumerate(gains, 1):
        if g > 0:
            hits += 1
            ap_sum += float(hits) / float(i)
    return QueryScores(
        query=query,
        relevant=relevant,
        retrieved=len(run),
        relevant_retrieved=relret,
        precision=float(relret) / float(k),
        recall=float(relret) / float(relevant),
        reciprocal_rank=1.0 / float(first) if first else 0.0,
        ndcg=dcg(head) / dcg(ideal),
        hit=1.0 if relret else 0.0,
        average_precision=ap_sum / float(relevant),
    )


def mean(values: Sequence[float]) -> float | None:
    """METRIC-11: left-to-right sum from +0.0, one division; None for no values."""
    if not values:
        return None
    total = 0.0
    for v in values:
        total += v
    return total / float(len(values))


def evaluate(run: Run, qrels: Qrels, k: int = DEFAULT_K) -> Evaluation:
    """METRIC-4/11/13: score every evaluated query and average them, in query-id order."""
    evaluated = sorted(q for q, j in qrels.items() if any(rel > 0 for rel in j.values()))
    excluded = sorted(q for q in qrels if q not in set(evaluated))
    unjudged = sorted(q for q in run if q not in qrels)
    rows = tuple(score_query(q, run.get(q, ()), qrels[q], k) for q in evaluated)
    return Evaluation(
        queries=rows,
        excluded=tuple(excluded),
        unjudged=tuple(unjudged),
        mean={m: mean([r.value(m) for r in rows]) for m in MEASURES},
    )
