"""Broken ports of the metrics (spec/metrics.md), registered on import."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from conformance.selftest.broken_ports.patching import (
    _mod,
    mutant,
    set_attr,
    swap,
)

# -- metrics (spec/metrics.md) -----------------------------------------------------------------


def _metrics_rows(fix: Callable[[Any, Sequence[str], Mapping[str, int], int], Any]) -> None:
    """Rewrite each query's row with `fix(row, ranked, judgements, k)` after the reference."""
    m = _mod("reference.metrics")
    original = m.score_query

    def score_query(query: str, ranked: Sequence[str], judgements: Mapping[str, int],
                    k: int) -> Any:
        return fix(original(query, ranked, judgements, k), ranked, judgements, k)

    set_attr(m, "score_query", score_query)


@mutant(
    "metrics-discount-zero-based",
    "METRIC-8",
    "the 0-based index goes into log2(i + 1), so rank r is discounted by log2(r), rank 1 by 1",
    seams=("reference.metrics.discount",),
)
def _metrics_discount_zero_based() -> None:
    set_attr(_mod("reference.metrics"), "discount", lambda rank: max(1.0, math.log2(rank)))


@mutant(
    "metrics-discount-ln-ratio",
    "METRIC-12",
    "log2 computed as ln(x) / ln(2), which is not correctly rounded (Java has no log2)",
    seams=("reference.metrics.discount",),
)
def _metrics_discount_ln_ratio() -> None:
    set_attr(_mod("reference.metrics"), "discount", lambda rank: math.log(rank + 1) / math.log(2))


@mutant(
    "metrics-recall-over-retrieved",
    "METRIC-6",
    "R@k divides by the number of retrieved documents in the top k instead of by R",
    seams=("reference.metrics.score_query",),
)
def _metrics_recall_over_retrieved() -> None:
    def fix(row: Any, ranked: Sequence[str], judgements: Mapping[str, int], k: int) -> Any:
        shown = min(k, row.retrieved)
        return replace(row, recall=row.relevant_retrieved / shown if shown else 0.0)

    _metrics_rows(fix)


@mutant(
    "metrics-precision-over-retrieved",
    "METRIC-5",
    "P@k divides by min(k, n), rewarding a short run",
    seams=("reference.metrics.score_query",),
)
def _metrics_precision_over_retrieved() -> None:
    def fix(row: Any, ranked: Sequence[str], judgements: Mapping[str, int], k: int) -> Any:
        shown = min(k, row.retrieved)
        return replace(row, precision=row.relevant_retrieved / shown if shown else 0.0)

    _metrics_rows(fix)


@mutant(
    "metrics-judged-is-relevant",
    "METRIC-2",
    "any judged document counts as relevant, so relevance 0 gives a reciprocal rank",
    seams=("reference.metrics.score_query",),
)
def _metrics_judged_is_relevant() -> None:
    m = _mod("reference.metrics")

    def fix(row: Any, ranked: Sequence[str], judgements: Mapping[str, int], k: int) -> Any:
        run = m.dedupe(ranked)
        first = next((i for i, d in enumerate(run, 1) if d in judgements), 0)
        return replace(row, reciprocal_rank=1.0 / first if first else 0.0)

    _metrics_rows(fix)


@mutant(
    "metrics-negative-gain",
    "METRIC-2",
    "a negative relevance is used as a negative gain in DCG",
    seams=("reference.metrics.gain",),
)
def _metrics_negative_gain() -> None:
    set_attr(_mod("reference.metrics"), "gain", lambda judgements, doc: judgements.get(doc, 0))


@mutant(
    "metrics-duplicates-counted",
    "METRIC-3",
    "a document repeated in the run is counted at every occurrence",
    seams=("reference.metrics.dedupe",),
)
def _metrics_duplicates_counted() -> None:
    set_attr(_mod("reference.metrics"), "dedupe", lambda ranked: list(ranked))


@mutant(
    "metrics-rr-cut-at-k",
    "METRIC-7",
    "the reciprocal rank only looks at the top k",
    seams=("reference.metrics.score_query",),
)
def _metrics_rr_cut_at_k() -> None:
    def fix(row: Any, ranked: Sequence[str], judgements: Mapping[str, int], k: int) -> Any:
        return row if row.reciprocal_rank >= 1.0 / k else replace(row, reciprocal_rank=0.0)

    _metrics_rows(fix)


@mutant(
    "metrics-ap-over-retrieved-relevant",
    "METRIC-10",
    "AP divides by the relevant documents retrieved instead of by R",
    seams=("reference.metrics.score_query",),
)
def _metrics_ap_over_retrieved() -> None:
    m = _mod("reference.metrics")

    def fix(row: Any, ranked: Sequence[str], judgements: Mapping[str, int], k: int) -> Any:
        found = sum(1 for d in m.dedupe(ranked) if m.gain(judgements, d) > 0)
        ap = row.average_precision * row.relevant / found if found else 0.0
        return replace(row, average_precision=ap)

    _metrics_rows(fix)


@mutant(
    "metrics-ideal-from-run",
    "METRIC-8",
    "IDCG is computed from the relevant documents the run retrieved, not from the judgements",
    seams=("reference.metrics.score_query",),
)
def _metrics_ideal_from_run() -> None:
    m = _mod("reference.metrics")

    def fix(row: Any, ranked: Sequence[str], judgements: Mapping[str, int], k: int) -> Any:
        gains = [m.gain(judgements, d) for d in m.dedupe(ranked)][:k]
        ideal = sorted((g for g in gains if g > 0), reverse=True)
        return replace(row, ndcg=m.dcg(gains) / m.dcg(ideal) if ideal else 0.0)

    _metrics_rows(fix)


@mutant(
    "metrics-unanswerable-queries-counted",
    "METRIC-4",
    "a query without relevant documents is scored 0 and counted in the means, as trec_eval does",
    seams=("reference.metrics.evaluate",),
)
def _metrics_unanswerable_counted() -> None:
    m = _mod("reference.metrics")
    original = m.evaluate

    def evaluate(run: Any, qrels: Any, k: int = 5) -> Any:
        out = original(run, qrels, k)
        zeros = [0.0] * len(out.excluded)
        mean = {
            name: m.mean([r.value(name) for r in out.queries] + zeros) for name in m.MEASURES
        }
        return replace(out, mean=mean)

    swap(m, "evaluate", evaluate)


@mutant(
    "metrics-mean-in-input-order",
    "METRIC-11",
    "means are summed in the order the queries were given, not by query id",
    seams=("reference.metrics.evaluate",),
)
def _metrics_mean_input_order() -> None:
    m = _mod("reference.metrics")
    original = m.evaluate

    def evaluate(run: Any, qrels: Any, k: int = 5) -> Any:
        out = original(run, qrels, k)
        by_id = {r.query: r for r in out.queries}
        rows = [by_id[q] for q in qrels if q in by_id]
        mean = {name: m.mean([r.value(name) for r in rows]) for name in m.MEASURES}
        return replace(out, mean=mean)

    swap(m, "evaluate", evaluate)


@mutant(
    "metrics-missing-query-ignored",
    "METRIC-4",
    "a judged query absent from the run is skipped, as trec_eval does without -c",
    seams=("reference.metrics.evaluate",),
)
def _metrics_missing_query_ignored() -> None:
    m = _mod("reference.metrics")
    original = m.evaluate

    def evaluate(run: Any, qrels: Any, k: int = 5) -> Any:
        out = original(run, qrels, k)
        rows = tuple(r for r in out.queries if r.query in run)
        mean = {name: m.mean([r.value(name) for r in rows]) for name in m.MEASURES}
        return replace(out, queries=rows, mean=mean)

    swap(m, "evaluate", evaluate)


@mutant(
    "metrics-default-k-10",
    "METRIC-1",
    "an absent k means 10 (the usual nDCG@10), not the seed's 5",
    seams=("reference.metrics.DEFAULT_K",),
)
def _metrics_default_k_10() -> None:
    set_attr(_mod("reference.metrics"), "DEFAULT_K", 10)


@mutant(
    "metrics-hit-whole-run",
    "METRIC-9",
    "hit@k looks at the whole run: a relevant document below rank k still counts as a hit",
    seams=("reference.metrics.score_query",),
)
def _metrics_hit_whole_run() -> None:
    def fix(row: Any, ranked: Sequence[str], judgements: Mapping[str, int], k: int) -> Any:
        found = any(judgements.get(doc, 0) > 0 for doc in ranked)
        return replace(row, hit=1.0 if found else 0.0)

    _metrics_rows(fix)


@mutant(
    "metrics-retrieved-before-dedupe",
    "METRIC-13",
    "a row's `retrieved` is the run's length as given, repeated ids included",
    seams=("reference.metrics.score_query",),
)
def _metrics_retrieved_raw() -> None:
    _metrics_rows(lambda row, ranked, judgements, k: replace(row, retrieved=len(ranked)))
