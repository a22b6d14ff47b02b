"""Benchmark: search latency per mode, and the pipeline's own overhead (not a test).

    python benchmarks/search_latency.py [--sizes 1000 10000 100000] [--queries 200]

For each corpus size (fixed-seed synthetic one-chunk documents, benchmarks/_corpus.py) it
builds an in-memory SqliteIndex and a MemoryVectorStore (hrc-hash-v1) and reports p50/p95 in
milliseconds of:

- backend calls alone: bm25 (compile + search_bm25), semantic (embed + search_vector),
  hybrid (both + RRF);
- the full pipeline `reference.pipeline.search` in bm25, semantic and hybrid modes;
- orchestration overhead: the pipeline in hybrid mode on scripted backends that return
  precomputed hits instantly, i.e. everything except backend work.

If `reference.pipeline` cannot be imported yet, the pipeline rows are skipped with a message.
"""

from __future__ import annotations

import argparse
import platform
import sqlite3
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _corpus import documents, queries

from reference.backends.embedder import HashEmbedder
from reference.backends.scripted import ScriptedEmbedder, ScriptedIndex, ScriptedVectors
from reference.backends.sqlite_fts import SqliteIndex
from reference.backends.vector import MemoryVectorStore
from reference.text import normalise
from reference.types import Candidate

CANDIDATE_K = 60

try:
    from reference.pipeline import Backends, search

    PIPELINE_ERROR = ""
except Exception as exc:  # the pipeline is written by another engineer
    PIPELINE_ERROR = f"{type(exc).__name__}: {exc}"

try:
    from reference.query import compile_query, parse

    def compile_expression(q: str) -> str:
        return compile_query(parse(q))
except Exception:  # fall back to the DSL's shape for plain words: quoted terms joined by OR

    def compile_expression(q: str) -> str:
        return " OR ".join(f'"{w}"' for w in q.split())


def rrf(lists: Sequence[Sequence[Candidate]], k: int = 60) -> list[str]:
    scores: dict[str, float] = {}
    for items in lists:
        for rank, c in enumerate(items):
            scores[c.id] = scores.get(c.id, 0.0) + 1.0 / (k + rank + 1)
    return sorted(scores, key=lambda i: -scores[i])


def measure(fn: Callable[[str], Any], qs: Sequence[str]) -> tuple[float, float]:
    fn(qs[0])  # warm-up (first pipeline call builds the trigram index)
    times = []
    for q in qs:
        t0 = time.perf_counter()
        fn(q)
        times.append((time.perf_counter() - t0) * 1000)
    times.sort()
    p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
    return statistics.median(times), p95


def run_size(n: int, n_queries: int) -> list[tuple[str, float, float]]:
    index = SqliteIndex(":memory:")
    with index.transaction():
        for path, chunks in documents(n):
            index.upsert_document(path, chunks)
    embedder = HashEmbedder()
    vectors = MemoryVectorStore.from_chunks(index.chunks(), embedder)
    qs = queries(n_queries)
    rows: list[tuple[str, float, float]] = []

    def bm25(q: str) -> list[Candidate]:
        return index.search_bm25(compile_expression(q), CANDIDATE_K)

    def semantic(q: str) -> list[Candidate]:
        return vectors.search_vector(embedder.embed(normalise(q)), CANDIDATE_K)

    rows.append(("backends: bm25", *measure(bm25, qs)))
    rows.append(("backends: semantic", *measure(semantic, qs)))
    rows.append(("backends: hybrid", *measure(lambda q: rrf([bm25(q), semantic(q)]), qs)))

    if PIPELINE_ERROR:
        return rows
    real = Backends(index=index, embedder=embedder, vectors=vectors)
    t0 = time.perf_counter()
    search({"query": qs[0], "mode": "bm25"}, real)
    rows.append(("pipeline: first call (builds trigram index)", (time.perf_counter() - t0) * 1000,
                 float("nan")))
    for mode in ("bm25", "semantic", "hybrid"):

        def run(q: str, m: str = mode) -> Any:
            return search({"query": q, "mode": m}, real)

        rows.append((f"pipeline: {mode}", *measure(run, qs)))

    # Orchestration overhead: precomputed hits served instantly by scripted backends.
    responses = {compile_expression(q): bm25(q) for q in qs}
    hits = {q: semantic(q) for q in qs}
    scripted_index = ScriptedIndex(responses=responses, chunk_list=None)

    def overhead(q: str) -> Any:
        b = Backends(index=scripted_index, embedder=ScriptedEmbedder(),
                     vectors=ScriptedVectors(hits=hits[q]))
        return search({"query": q, "mode": "hybrid"}, b)

    rows.append(("pipeline overhead (scripted, hybrid)", *measure(overhead, qs)))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 100000])
    parser.add_argument("--queries", type=int, default=200)
    args = parser.parse_args(argv)
    print(f"python {platform.python_version()}, sqlite {sqlite3.sqlite_version}, "
          f"{platform.machine()}, {platform.platform()}")
    if PIPELINE_ERROR:
        print(f"reference.pipeline not importable ({PIPELINE_ERROR}); backend rows only")
    print()
    print("| chunks | what | p50 (ms) | p95 (ms) |")
    print("|---:|---|---:|---:|")
    for n in args.sizes:
        for name, p50, p95 in run_size(n, args.queries):
            p95s = "" if p95 != p95 else f"{p95:.2f}"
            print(f"| {n:,} | {name} | {p50:.2f} | {p95s} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
