"""Benchmark: exact RRF against float baselines measured in the same run (not a test).

    python benchmarks/rrf_speed.py [--json PATH] [--repeat 5]

For each input shape it times, on the same lists and in the same process:

- `plain float sum`: `score[id] += w / (k + r + 1)` into a dict, nothing else (no sort, no
  output objects): the floor of any RRF in Python;
- `obvious float RRF`: the same sum, then a sort by float and a list of (candidate, score):
  what a port written the obvious way does (and gets wrong, RRF-6/RRF-7);
- `exact RRF (before)`: the Fraction-per-contribution implementation this kit shipped until
  the fast path (benchmarks/_rrf_fraction.py);
- `exact RRF (2.1.0)`: the fast path as spec 2.1.0 shipped it (benchmarks/_rrf_v210.py), so
  the speed-up of the current one is measured in the same run;
- `exact RRF`: reference.rrf.fuse. Since spec 3.0.0 it orders by the emitted float, as the
  anchor does (D1 withdrawn), so it is no longer exact; the column keeps its name.

Each time is the best of `--repeat` (25) batches of ~5 ms, interleaved (the machine is
shared: best-of is the least noisy estimate). It also reports whether the output is identical
to both older ones (order, fields, every score bit; since 3.0.0 it may differ on exact ties
and repeated ids, by design) and prints the ratios the
issue asks for: exact / plain (goal <= 2) and obvious / exact (goal >= 2).
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import timeit
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _rrf_fraction as before
import _rrf_v210 as v210

from reference.rrf import RankedList, fuse
from reference.types import Candidate

K = 60


def plain_float_sum(lists: Sequence[RankedList], k: int = K) -> dict[str, float]:
    scores: dict[str, float] = {}
    for ranked in lists:
        w = ranked.weight
        for rank, cand in enumerate(ranked.items):
            scores[cand.id] = scores.get(cand.id, 0.0) + w / (k + rank + 1)
    return scores


def obvious_float_rrf(lists: Sequence[RankedList], k: int = K) -> list[tuple[Candidate, float]]:
    scores: dict[str, float] = {}
    first: dict[str, Candidate] = {}
    for ranked in lists:
        w = ranked.weight
        for rank, cand in enumerate(ranked.items):
            scores[cand.id] = scores.get(cand.id, 0.0) + w / (k + rank + 1)
            if cand.id not in first:
                first[cand.id] = cand
    order = sorted(scores, key=lambda i: scores[i], reverse=True)
    return [(first[i], scores[i]) for i in order]


def _pool(n: int) -> list[Candidate]:
    return [
        Candidate(f"gen/{i // 100:03d}/doc-{i:06d}.md#0", f"gen/{i // 100:03d}/doc-{i:06d}.md",
                  f"title {i}", f"summary {i}", f"content {i}")
        for i in range(n)
    ]


def overlapping(n_lists: int, size: int, seed: int, weight: float = 1.0) -> list[RankedList]:
    """n lists of `size` drawn from a pool of 2.5·size ids (legs agree on ~40 % of them)."""
    rng = random.Random(seed)
    pool = _pool(int(size * 2.5))
    return [
        RankedList(f"L{i}", weight, tuple(rng.sample(pool, size))) for i in range(n_lists)
    ]


def disjoint_ties(size: int) -> list[RankedList]:
    """Two disjoint lists: every rank is an exact tie between two items (2·size/2 runs)."""
    pool = _pool(2 * size)
    return [RankedList("a", 1.0, tuple(pool[:size])), RankedList("b", 1.0, tuple(pool[size:]))]


def all_tiny(size: int) -> list[RankedList]:
    """Weights 1e-300: every score is below 1e-290, so the whole list is one run that is
    ordered exactly, item by item (the fallback's worst case)."""
    return overlapping(2, size, 99, weight=1e-300)


def near_ties(size: int) -> list[RankedList]:
    """Six lists with weights 0.1, 0.2, 0.3, 0.7, 1, 1.1 over a small pool: many items share
    floats or land within 1e-9 with different contributions (exact comparison needed)."""
    rng = random.Random(5)
    pool = _pool(size)
    weights = [0.1, 0.2, 0.3, 0.7, 1.0, 1.1]
    return [RankedList(f"W{i}", w, tuple(rng.sample(pool, size))) for i, w in enumerate(weights)]


SHAPES: list[tuple[str, Callable[[], list[RankedList]]]] = [
    ("2×60", lambda: overlapping(2, 60, 1)),
    ("4×60", lambda: overlapping(4, 60, 2)),
    ("6×100", lambda: overlapping(6, 100, 3)),
    ("2×1000", lambda: overlapping(2, 1000, 4)),
    ("ties: 2×1000 disjoint", lambda: disjoint_ties(1000)),
    ("near ties: 6×100, weights 0.1–1.1", lambda: near_ties(100)),
    ("worst case: 2×1000, all below 1e-290", lambda: all_tiny(1000)),
]


def signature(fused: Sequence[Any]) -> list[tuple[Any, ...]]:
    return [(f.candidate, f.score.hex()) for f in fused]


def timed(fns: dict[str, Callable[[], object]], repeat: int) -> dict[str, float]:
    """Microseconds per call of each function: batches of ~5 ms, interleaved (so a burst of
    load hits every contender alike), best of `repeat` per function."""
    numbers = {}
    for name, fn in fns.items():
        number = 1
        while timeit.timeit(fn, number=number) < 0.005:
            number *= 4
        numbers[name] = number
    found: dict[str, list[float]] = {name: [] for name in fns}
    for _ in range(repeat):
        for name, fn in fns.items():
            found[name].append(timeit.timeit(fn, number=numbers[name]) / numbers[name])
    return {name: min(times) * 1e6 for name, times in found.items()}


def run(repeat: int) -> list[dict[str, Any]]:
    rows = []
    for name, make in SHAPES:
        lists = make()
        ours = signature(fuse(lists, K))
        identical = ours == signature(before.fuse(lists, K)) == signature(v210.fuse(lists, K))
        us = timed(
            {
                "plain": lambda lists=lists: plain_float_sum(lists),
                "obvious": lambda lists=lists: obvious_float_rrf(lists),
                "before": lambda lists=lists: before.fuse(lists, K),
                "v210": lambda lists=lists: v210.fuse(lists, K),
                "exact": lambda lists=lists: fuse(lists, K),
            },
            repeat,
        )
        row: dict[str, Any] = {
            "shape": name,
            "items": sum(len(x.items) for x in lists),
            "fused": len(fuse(lists, K)),
            **{f"{key}_us": value for key, value in us.items()},
            "identical": identical,
        }
        row["exact_over_plain"] = row["exact_us"] / row["plain_us"]
        row["obvious_over_exact"] = row["obvious_us"] / row["exact_us"]
        row["before_over_exact"] = row["before_us"] / row["exact_us"]
        row["v210_over_exact"] = row["v210_us"] / row["exact_us"]
        rows.append(row)
        print(
            f"| {name} | {row['fused']} | {row['plain_us']:.0f} | {row['obvious_us']:.0f} | "
            f"{row['before_us']:.0f} | {row['v210_us']:.0f} | {row['exact_us']:.0f} | "
            f"{row['exact_over_plain']:.1f}× | {row['obvious_over_exact']:.2f}× | "
            f"{row['before_over_exact']:.1f}× | {row['v210_over_exact']:.1f}× | "
            f"{'yes' if identical else 'NO'} |",
            flush=True,
        )
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=25)
    parser.add_argument("--json", type=Path, help="also write the rows as JSON here")
    args = parser.parse_args(argv)
    print(f"python {platform.python_version()}, {platform.machine()}, {platform.platform()}")
    print()
    print("| lists | fused | plain float sum (µs) | obvious float RRF (µs) | exact before (µs) | "
          "exact (2.1.0) (µs) | exact (µs) | exact / plain | obvious / exact | speed-up | "
          "speed-up over 2.1.0 | identical |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    rows = run(args.repeat)
    if args.json:
        args.json.write_text(json.dumps({"rrf": rows}, indent=1), encoding="utf-8")
    return 0  # 3.0.0 changed the order (D1 withdrawn): "identical" is information, not a gate


if __name__ == "__main__":
    raise SystemExit(main())
