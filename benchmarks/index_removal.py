"""Benchmark: re-indexing a folder that lost most of its files (not a test; issue 29, item 2).

    python benchmarks/index_removal.py [--total 10000] [--removed 200 2600 9900]

Writes `total` fixed-seed one-chunk documents (benchmarks/_corpus.py) to a folder, indexes it
into an on-disk SqliteIndex, then for each count re-indexes a copy of that index against the
folder with that many files gone, and prints the CPU seconds of the re-index and per removal.
Linear removal keeps the per-removal figure flat as the count grows.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _corpus import documents

from reference.backends.indexer import index_directory
from reference.backends.sqlite_fts import SqliteIndex


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--total", type=int, default=10000)
    parser.add_argument("--removed", type=int, nargs="+", default=[200, 2600, 9900])
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        full = root / "full"
        paths = []
        for path, chunks in documents(args.total):
            (full / path).parent.mkdir(parents=True, exist_ok=True)
            (full / path).write_text(f"# {chunks[0].title}\n\n{chunks[0].content}\n")
            paths.append(path)
        base = root / "base.db"
        index = SqliteIndex(base)
        index_directory(full, index)
        index.close()
        print(f"{args.total:,} documents indexed\n")
        print("| removed | re-index CPU (s) | per removal (ms) |")
        print("|---:|---:|---:|")
        for n in args.removed:
            kept = root / f"kept-{n}"
            for path in paths[n:]:
                (kept / path).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy(full / path, kept / path)
            kept.mkdir(exist_ok=True)
            db = root / f"copy-{n}.db"
            shutil.copy(base, db)
            index = SqliteIndex(db)
            t0 = time.process_time()
            report = index_directory(kept, index)
            cpu = time.process_time() - t0
            index.close()
            assert len(report.removed) == n
            print(f"| {n:,} | {cpu:.2f} | {1000 * cpu / max(n, 1):.2f} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
