"""Benchmark: gbrain link extraction and traversal against the BM25 leg (not a test).

    python benchmarks/gbrain_graph.py [--sizes 10000 100000 17000] [--queries 200]
    python benchmarks/gbrain_graph.py --sizes 17000 --dump pages.json   # for gbrain_extract_js.mjs

For each size it generates that many pages (the fixed-seed bodies of benchmarks/_corpus.py,
each given five links in sentences: root slugs, relative `../` links, wikilinks, a typed-link
blockquote and a link inside a code span) and reports, on the same pages:

- extraction: `gbrain.extract_links` over every page (spec/profiles/gbrain.md GBRAIN-2..9), in
  seconds, against building the FTS5 index of the same pages (BACKEND-12), as a ratio;
- traversal: one `gbrain.traverse` per query (one seed page, depth 2, fan-out 10, both
  directions) on the adjacency built once, p50/p95 ms, against the BM25 leg of the same
  number of queries (compile + `search_bm25`, candidateK 60), as a ratio of p50s; plus the
  one-off adjacency build.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sqlite3
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _corpus import documents, queries

from reference.backends.sqlite_fts import SqliteIndex
from reference.profiles.gbrain.links import Edge, extract_links
from reference.profiles.gbrain.traverse import WalkOptions, adjacency, walk
from reference.query import compile_query, parse

CANDIDATE_K = 60
TRIGGERS = ["founded", "invested in", "advises", "works at", "attended", "met"]


def pages(n: int) -> list[tuple[str, str]]:
    """n (path, markdown) pages: a _corpus body with five links woven into sentences."""
    rng = random.Random(n * 31 + 7)
    out: list[tuple[str, str]] = []
    for path, chunks in documents(n):
        body = chunks[0].content.split(" ")
        others = [f"gen/{j // 1000:03d}/doc-{j:06d}" for j in rng.sample(range(n), 5)]
        lines = [
            " ".join(body[:10]) + f" {rng.choice(TRIGGERS)} [{body[0]}]({others[0]}).",
            " ".join(body[10:20]) + f" [[{others[1]}|{body[1]}]] {rng.choice(TRIGGERS)} it.",
            f"> **Related:** see [x](../{others[2][4:]}.md).",
            " ".join(body[20:]) + f" `[code]({others[3]})` and [y]({others[4]}#part).",
        ]
        out.append((path, "\n".join(lines)))
    return out


def _ms(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered), ordered[int(0.95 * (len(ordered) - 1))]


def run(n: int, n_queries: int) -> None:
    corpus = pages(n)
    t0 = time.perf_counter()
    edges: list[Edge] = []
    for path, markdown in corpus:
        edges.extend(extract_links(path, markdown)[1])
    extract_s = time.perf_counter() - t0

    index = SqliteIndex(":memory:")
    t0 = time.perf_counter()
    with index.transaction():
        for (path, chunks), (_, markdown) in zip(documents(n), corpus, strict=True):
            chunk = chunks[0]
            index.upsert_document(
                path, [type(chunk)(chunk.id, path, chunk.title, "", markdown)], path
            )
    fts_s = time.perf_counter() - t0

    options = WalkOptions()
    t0 = time.perf_counter()
    adjacent = adjacency(edges, options)
    adjacency_s = time.perf_counter() - t0
    rng = random.Random(n)
    seeds = [corpus[rng.randrange(n)][0][:-3] for _ in range(n_queries)]
    walk_ms: list[float] = []
    reached = 0
    for seed in seeds:
        t0 = time.perf_counter()
        reached += len(walk(adjacent, [seed], options))
        walk_ms.append((time.perf_counter() - t0) * 1000)
    bm25_ms: list[float] = []
    for q in queries(n_queries):
        t0 = time.perf_counter()
        index.search_bm25(compile_query(parse(q)), CANDIDATE_K)
        bm25_ms.append((time.perf_counter() - t0) * 1000)
    w50, w95 = _ms(walk_ms)
    b50, b95 = _ms(bm25_ms)
    print(
        f"| {n:,} | {len(edges):,} | {extract_s:.2f} | {fts_s:.2f} | {extract_s / fts_s:.2f} "
        f"| {adjacency_s:.2f} | {reached / n_queries:.0f} | {w50:.3f} / {w95:.3f} "
        f"| {b50:.3f} / {b95:.3f} | {w50 / b50:.2f} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000, 17_000])
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--dump", type=Path, help="only write the pages of --sizes as JSON")
    args = parser.parse_args()
    if args.dump is not None:
        args.dump.write_text(json.dumps([p for n in args.sizes for p in pages(n)]))
        return
    print(f"python {platform.python_version()}, sqlite {sqlite3.sqlite_version}")
    print(
        "| pages | edges | extract (s) | FTS build (s) | extract / FTS | adjacency (s) "
        "| reached / query | traverse p50 / p95 (ms) | BM25 leg p50 / p95 (ms) "
        "| traverse / BM25 (p50) |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for n in args.sizes:
        run(n, args.queries)


if __name__ == "__main__":
    main()
