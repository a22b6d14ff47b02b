"""Benchmark: build time and size of the FTS5 index and the vector store (not a test).

    python benchmarks/index_build.py [--sizes 1000 10000 100000]

Generates fixed-seed synthetic corpora of one-chunk documents (benchmarks/_corpus.py), builds
an on-disk SqliteIndex (one transaction) and a MemoryVectorStore over the hrc-hash-v1
embedder, and prints a Markdown table.
"""

from __future__ import annotations

import argparse
import platform
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _corpus import documents

from reference.backends.embedder import HashEmbedder
from reference.backends.sqlite_fts import SqliteIndex
from reference.backends.vector import MemoryVectorStore


def build(n: int, workdir: Path) -> dict[str, float]:
    docs = documents(n)
    db = workdir / f"bench-{n}.db"
    t0 = time.perf_counter()
    index = SqliteIndex(db)
    with index.transaction():
        for path, chunks in docs:
            index.upsert_document(path, chunks, "h")
    fts_s = time.perf_counter() - t0
    index.close()
    size_mb = db.stat().st_size / 1e6

    index = SqliteIndex(db)
    t0 = time.perf_counter()
    chunks = index.chunks()
    load_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    store = MemoryVectorStore.from_chunks(chunks, HashEmbedder())
    embed_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    store.search_vector(HashEmbedder().embed("warm up"), 1)  # builds the matrix
    matrix_s = time.perf_counter() - t0
    index.close()
    return {
        "chunks": n,
        "fts_s": fts_s,
        "db_mb": size_mb,
        "load_s": load_s,
        "embed_s": embed_s,
        "matrix_s": matrix_s,
        "matrix_mb": n * 256 * 4 / 1e6,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 100000])
    args = parser.parse_args(argv)
    print(f"python {platform.python_version()}, sqlite {sqlite3.sqlite_version}, "
          f"{platform.machine()}, {platform.processor() or platform.platform()}")
    print()
    print("| chunks | FTS build (s) | db size (MB) | load chunks (s) | embed (s) "
          "| vector matrix (s) | matrix (MB) |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        for n in args.sizes:
            r = build(n, Path(tmp))
            print(f"| {n:,} | {r['fts_s']:.2f} | {r['db_mb']:.1f} | {r['load_s']:.2f} "
                  f"| {r['embed_s']:.2f} | {r['matrix_s']:.2f} | {r['matrix_mb']:.0f} |",
                  flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
