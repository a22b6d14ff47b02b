"""The reference metrics (spec/metrics.md): hand-checked values, edge cases, the log2 claim."""

from __future__ import annotations

import decimal
import json
import math
import subprocess

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from conformance.adapters.ops.metrics import op_metrics
from reference import metrics
from reference.types import InvalidInput


def _row(run: list[str], judged: dict[str, int], k: int = 5) -> metrics.QueryScores:
    return metrics.score_query("q", run, judged, k)


def test_worked_example_of_the_chapter() -> None:
    """METRIC-2, METRIC-3, METRIC-5..10: the table of spec/metrics.md."""
    row = _row(["a", "c", "a", "d", "b"], {"a": 2, "b": 1, "c": 0, "d": -1, "e": 3})
    assert (row.relevant, row.retrieved, row.relevant_retrieved) == (3, 4, 2)
    assert row.precision == 0.4
    assert row.recall == 2 / 3
    assert row.reciprocal_rank == 1.0
    assert row.hit == 1.0
    assert row.average_precision == 0.5
    dcg = 2 / 1 + 0 / math.log2(3) + 0 / math.log2(4) + 1 / math.log2(5)
    idcg = 3 / 1 + 2 / math.log2(3) + 1 / math.log2(4)
    assert row.ndcg == dcg / idcg == 0.5104469282277887


def test_duplicates_count_at_first_occurrence() -> None:
    """METRIC-3."""
    assert metrics.dedupe(["a", "b", "a", "c", "b"]) == ["a", "b", "c"]
    assert _row(["x", "a", "a", "b"], {"a": 1, "b": 1}, 3).relevant_retrieved == 2


def test_zero_negative_and_absent_are_gain_zero() -> None:
    """METRIC-2."""
    judged = {"z": 0, "n": -4, "r": 3}
    assert [metrics.gain(judged, d) for d in ("z", "n", "missing", "r")] == [0, 0, 0, 3]


def test_short_run_precision_and_recall() -> None:
    """METRIC-5, METRIC-6: P@k divides by k, R@k by R."""
    row = _row(["a"], {"a": 1, "b": 1}, 10)
    assert (row.precision, row.recall) == (0.1, 0.5)


def test_reciprocal_rank_reads_the_whole_run_and_hit_only_k() -> None:
    """METRIC-7, METRIC-9."""
    row = _row(["n1", "n2", "r"], {"r": 1}, 2)
    assert (row.reciprocal_rank, row.hit) == (1 / 3, 0.0)


def test_discount_uses_one_based_rank() -> None:
    """METRIC-8: rank 1 is not discounted, rank 3 by log2 4 = 2."""
    assert metrics.discount(1) == 1.0
    assert metrics.discount(3) == 2.0
    assert metrics.dcg([0, 0, 4]) == 2.0


def test_average_precision() -> None:
    """METRIC-10: (1/1 + 2/3 + 3/5) / 4, left to right."""
    row = _row(["a", "x", "b", "y", "c"], {"a": 1, "b": 1, "c": 1, "d": 1})
    assert row.average_precision == ((1.0 + 2 / 3) + 3 / 5) / 4


def test_query_sets_and_null_means() -> None:
    """METRIC-4, METRIC-11, METRIC-13: excluded, unjudged, missing run, null means."""
    out = metrics.evaluate({"q9": ["a"], "q1": []}, {"q1": {"a": 1}, "q0": {"a": 0}})
    assert [r.query for r in out.queries] == ["q1"]
    assert out.excluded == ("q0",) and out.unjudged == ("q9",)
    empty = metrics.evaluate({}, {"q": {"a": -1}})
    assert set(empty.mean.values()) == {None}


def test_means_sum_in_query_id_order() -> None:
    """METRIC-11, METRIC-12: the order of addition is fixed, so the bits are."""
    qrels = {"c": {"1": 1, "2": 1, "3": 1}, "b": {"1": 1, "2": 1}, "a": {"1": 1}}
    run = {q: list(j) for q, j in qrels.items()}
    assert metrics.evaluate(run, qrels, 10).mean["precision"] == (0.1 + 0.2 + 0.3) / 3
    assert (0.3 + 0.2 + 0.1) / 3 != (0.1 + 0.2 + 0.3) / 3


@pytest.mark.parametrize(
    "inp",
    [
        {"run": {"q": ["a"]}, "qrels": {"q": {"a": 1}}, "k": 0},
        {"run": {"q": ["a"]}, "qrels": {"q": {"a": 1}}, "k": 1001},
        {"run": {"q": ["a"]}, "qrels": {"q": {"a": 1.5}}},
        {"run": {"q": ["a"]}, "qrels": {"q": {"a": True}}},
        {"run": {"q": [""]}, "qrels": {"q": {"a": 1}}},
        {"run": ["a"], "qrels": {"q": {"a": 1}}},
        {"run": {"q": ["a"]}},
        {"run": {"": ["a"]}, "qrels": {"q": {"a": 1}}},
    ],
)
def test_invalid_inputs(inp: dict[str, object]) -> None:
    """METRIC-1."""
    with pytest.raises(InvalidInput):
        op_metrics(inp)


def test_output_shape() -> None:
    """METRIC-13: the fields and their order."""
    out = op_metrics({"run": {"q": ["a"]}, "qrels": {"q": {"a": 1}}, "k": 1})
    assert list(out) == ["queries", "excluded", "unjudged", "mean"]
    assert list(out["queries"][0]) == [
        "query", "relevant", "retrieved", "relevantRetrieved", *metrics.MEASURES
    ]


def _correctly_rounded_log2(n: int) -> float:
    with decimal.localcontext() as ctx:
        ctx.prec = 60
        return float(decimal.Decimal(n).ln() / decimal.Decimal(2).ln())


def test_python_log2_is_correctly_rounded_on_every_allowed_discount() -> None:
    """METRIC-12, METRIC-1: log2(2..1001) is correctly rounded, so k <= 1000 is portable."""
    bad = [n for n in range(2, metrics.MAX_K + 2) if math.log2(n) != _correctly_rounded_log2(n)]
    assert bad == []
    # ... and the ratio of natural logarithms is not: the reason the spec says "correctly rounded".
    assert math.log(3) / math.log(2) != _correctly_rounded_log2(3)


def test_node_log2_is_correctly_rounded_on_every_allowed_discount() -> None:
    """METRIC-12: V8's Math.log2 agrees with the correctly rounded value on 2..1001."""
    script = f"const a=[];for(let i=2;i<={metrics.MAX_K + 1};i++)a.push(Math.log2(i));" \
             "process.stdout.write(JSON.stringify(a))"
    values = json.loads(subprocess.run(["node", "-e", script], check=True,
                                       capture_output=True, text=True).stdout)
    bad = [n for n, v in enumerate(values, 2) if v != _correctly_rounded_log2(n)]
    assert bad == []


_JUDGED = st.dictionaries(st.sampled_from([f"d{i}" for i in range(30)]),
                          st.integers(-3, 5), min_size=1, max_size=20)


@given(_JUDGED, st.integers(1, 40))
def test_the_ideal_run_scores_one(judged: dict[str, int], k: int) -> None:
    """METRIC-8, METRIC-10: the judged order itself (gain descending) has nDCG = AP = 1."""
    assume(any(r > 0 for r in judged.values()))
    ideal = sorted((d for d, r in judged.items() if r > 0), key=lambda d: -judged[d])
    row = _row(ideal, judged, k)
    assert row.ndcg == 1.0 and row.average_precision == 1.0 and row.reciprocal_rank == 1.0


@given(_JUDGED, st.lists(st.sampled_from([f"d{i}" for i in range(40)]), max_size=60),
       st.integers(1, 1000))
def test_every_measure_is_between_zero_and_one(judged: dict[str, int], run: list[str],
                                               k: int) -> None:
    """METRIC-5..10: values are fractions of what was possible."""
    assume(any(r > 0 for r in judged.values()))
    row = _row(run, judged, k)
    assert all(0.0 <= row.value(m) <= 1.0 for m in metrics.MEASURES)
