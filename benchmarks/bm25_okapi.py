"""Benchmark: profile bm25-okapi against FTS5's own bm25() on the same corpus (not a test).

    python benchmarks/bm25_okapi.py [--sizes 10000 100000] [--queries 100]

For each size, one fixed-seed synthetic corpus (benchmarks/_corpus.py) is indexed on disk;
the okapi tables are built by `sync` (reference/profiles/bm25_okapi/sqlite_index.py). Each query
(two mid-frequency words) is then answered in the same run, one after the other, by
- `fts5`: SQLite's bm25() ordering every match (`search_bm25_scored` with no effective limit),
- `okapi tables`: every chunk holding a query word, scored and ranked from the okapi tables,
- `fts5 + okapi rerank`: profile 1.x's core-search hook (retired in 2.0.0): the fts5 search,
  then its matches re-ranked by their Okapi scores (`score_ids`),
and the table prints p50/p95 in ms with the ratio to fts5, plus how far the two rankings
agree (candidates FTS5 matches that Okapi scores, and the overlap of the top 10).
"""

from __future__ import annotations

import argparse
import platform
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _corpus import documents, queries

from reference.backends.sqlite_fts import SqliteIndex
from reference.profiles.bm25_okapi.scoring import Params
from reference.profiles.bm25_okapi.sqlite_index import OkapiIndex, sync
from reference.types import MAX_INTEGER


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run(n: int, n_queries: int, workdir: Path) -> list[str]:
    docs = documents(n)
    index = SqliteIndex(workdir / f"okapi-{n}.db")
    t0 = time.perf_counter()
    with index.transaction():
        for path, chunks in docs:
            index.upsert_document(path, chunks, "h")
    fts_build = time.perf_counter() - t0
    t0 = time.perf_counter()
    sync(index)
    okapi_build = time.perf_counter() - t0
    okapi = OkapiIndex(index)
    params = Params()
    times: dict[str, list[float]] = {"fts5": [], "okapi tables": [], "fts5 + okapi rerank": []}
    matched = scored = overlap = 0
    qs = queries(n_queries)
    index.search_bm25_scored('"warm" OR "up"', 10)  # warm-up
    for q in qs:
        expression = " OR ".join(f'"{w}"' for w in q.split())
        t0 = time.perf_counter()
        fts = index.search_bm25_scored(expression, MAX_INTEGER)
        times["fts5"].append((time.perf_counter() - t0) * 1000)
        t0 = time.perf_counter()
        ranked = okapi.search(q, params)
        times["okapi tables"].append((time.perf_counter() - t0) * 1000)
        t0 = time.perf_counter()
        ids = [h.candidate.id for h in fts]
        scores = okapi.score_ids(q, ids, params)
        sorted(fts, key=lambda h: (-scores[h.candidate.id], h.candidate.path, h.candidate.id))
        times["fts5 + okapi rerank"].append(
            times["fts5"][-1] + (time.perf_counter() - t0) * 1000
        )
        matched += len(fts)
        scored += sum(1 for i in ids if scores[i] > 0)
        overlap += len({h.candidate.id for h in fts[:10]} & {r.id for r in ranked[:10]})
    base = statistics.median(times["fts5"])
    rows = [
        f"| {n:,} | build | {fts_build:.2f} s (FTS5) | {okapi_build:.2f} s (okapi tables) | "
        f"{okapi_build / fts_build:.2f} |"
    ]
    for name, values in times.items():
        p50 = statistics.median(values)
        rows.append(
            f"| {n:,} | {name} | {p50:.2f} | {_pct(values, 0.95):.2f} | {p50 / base:.2f} |"
        )
    rows.append(
        f"| {n:,} | agreement | {scored}/{matched} FTS5 matches have an Okapi score | "
        f"top-10 overlap {overlap / (10 * len(qs)):.2f} | |"
    )
    index.close()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--queries", type=int, default=100)
    args = parser.parse_args()
    print(f"Python {platform.python_version()}, SQLite {sqlite3.sqlite_version}, "
          f"{platform.machine()}, {args.queries} queries per size\n")
    print("| chunks | what | p50 (ms) | p95 (ms) | p50 / fts5 p50 |")
    print("|---:|---|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        for n in args.sizes:
            for row in run(n, args.queries, Path(tmp)):
                print(row, flush=True)


if __name__ == "__main__":
    main()
