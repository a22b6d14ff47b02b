"""Benchmark: search latency per mode, the measured floor, and the pipeline's own overhead.

    python benchmarks/search_latency.py [--sizes 1000 10000 100000] [--queries 200] [--json P]

For each corpus size (fixed-seed synthetic one-chunk documents, benchmarks/_corpus.py) it
builds an in-memory SqliteIndex and a MemoryVectorStore (hrc-hash-v1) and reports p50/p95 in
milliseconds of:

- backend calls alone: bm25 (compile + search_bm25), semantic (embed + search_vector),
  hybrid (both + RRF);
- the full pipeline `reference.pipeline.search` in bm25, semantic and hybrid modes;
- orchestration overhead: the pipeline in hybrid mode on scripted backends that return
  precomputed hits instantly, i.e. everything except backend work;
- the floor, measured in the same run: FTS5 MATCH alone (rowids of the top 60 by bm25, no
  column read) and the matrix product alone (the query's non-zero buckets times those rows of
  the store's float32 matrix); `floor` is the sum of their p50s, and hybrid p50 is reported
  as a multiple of it;
- the first query that reaches the trigram rung, on a fresh index that stored its words at
  index time (TRI-1) and on one that did not (the trigram index is then built from the texts).

If `reference.pipeline` cannot be imported yet, the pipeline rows are skipped with a message.
"""

from __future__ import annotations

import argparse
import json
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
from reference.backends.sqlite_schema import _RANK
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


FLOOR_SQL = f"SELECT rowid FROM chunks WHERE chunks MATCH ? ORDER BY {_RANK} LIMIT ?"


def run_size(n: int, n_queries: int) -> list[tuple[str, float, float]]:
    index = SqliteIndex(":memory:", store_words=True)
    with index.transaction():
        for path, chunks in documents(n):
            index.upsert_document(path, chunks)
        index.store_missing_words()  # as `hrc index` does at the end of a run
    embedder = HashEmbedder()
    vectors = MemoryVectorStore.from_chunks(index.chunks(), embedder)
    qs = queries(n_queries)
    rows: list[tuple[str, float, float]] = []

    import numpy as np

    def fts_floor(q: str) -> Any:
        return index._db.execute(FLOOR_SQL, (compile_expression(q), CANDIDATE_K)).fetchall()

    vectors._build()
    matrix = vectors._matrix  # dimension × chunks, float32 (the store's own layout)
    # The product the vector leg cannot avoid: the query's non-zero buckets times those rows
    # of the transposed count matrix (one float32 vector-matrix product, no ordering).
    sparse = {}
    for q in qs:
        v = embedder.embed_counts(normalise(q))
        nz = [i for i, x in enumerate(v) if x]
        sparse[q] = (np.array([v[i] for i in nz], dtype=np.float32), nz)

    def matmul_floor(q: str) -> Any:
        weights, nz = sparse[q]
        return weights @ matrix[nz]

    rows.append(("floor: FTS5 MATCH alone", *measure(fts_floor, qs)))
    rows.append(("floor: matmul alone", *measure(matmul_floor, qs)))

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
    fuzzy = qs[0].split()[0] + "qx"  # no BM25 hit on any rung before trigram_fuzzy
    t0 = time.perf_counter()
    _, trace = search({"query": fuzzy, "mode": "bm25"}, real)
    elapsed = (time.perf_counter() - t0) * 1000
    assert trace["bm25"]["winningRung"] == "trigram_fuzzy", trace["bm25"]["winningRung"]
    rows.append(("pipeline: first query reaching the trigram rung (stored words)", elapsed,
                 float("nan")))
    plain = SqliteIndex(":memory:")
    with plain.transaction():
        for path, chunks in documents(n):
            plain.upsert_document(path, chunks)
    t0 = time.perf_counter()
    search({"query": fuzzy, "mode": "bm25"}, Backends(index=plain))
    rows.append(("pipeline: the same, trigram index built from the texts",
                 (time.perf_counter() - t0) * 1000, float("nan")))
    plain.close()
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
    parser.add_argument("--json", type=Path, help="also write the rows as JSON here")
    args = parser.parse_args(argv)
    found: dict[str, dict[str, list[float]]] = {}
    print(f"python {platform.python_version()}, sqlite {sqlite3.sqlite_version}, "
          f"{platform.machine()}, {platform.platform()}")
    if PIPELINE_ERROR:
        print(f"reference.pipeline not importable ({PIPELINE_ERROR}); backend rows only")
    print()
    print("| chunks | what | p50 (ms) | p95 (ms) |")
    print("|---:|---|---:|---:|")
    for n in args.sizes:
        rows = run_size(n, args.queries)
        for name, p50, p95 in rows:
            p95s = "" if p95 != p95 else f"{p95:.2f}"
            print(f"| {n:,} | {name} | {p50:.2f} | {p95s} |", flush=True)
        by = {name: [p50, p95 if p95 == p95 else None] for name, p50, p95 in rows}
        floor = by["floor: FTS5 MATCH alone"][0] + by["floor: matmul alone"][0]
        ratio = by["pipeline: hybrid"][0] / floor
        print(f"| {n:,} | floor (FTS5 + matmul p50) | {floor:.2f} | |")
        print(f"| {n:,} | hybrid p50 / floor | {ratio:.1f}× | |", flush=True)
        found[str(n)] = {**by, "floor": [floor, None], "hybrid_over_floor": [ratio, None]}
    if args.json:
        args.json.write_text(json.dumps({"search": found}, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
