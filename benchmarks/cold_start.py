"""Benchmark: one-shot `hrc search` (a fresh process per query) and its peak memory.

    python benchmarks/cold_start.py [--sizes 10000] [--json PATH]

For each size it writes the fixed-seed synthetic corpus (benchmarks/_corpus.py) as Markdown
files, runs `hrc index` once (timed, with its peak RSS), then times fresh `hrc search`
processes, each the best of three:

- hybrid: a two-word query (vectors loaded from the index, BACKEND-25);
- fuzzy: a misspelled word that only the trigram rung finds (words loaded, TRI-1);
- bm25 only: `--no-embedder --mode bm25`, the floor of a one-shot search;
- old layout: the same hybrid query on a copy of the index without stored vectors and words
  (what every index looked like before): every chunk is re-embedded in the process.

Peak RSS is the child's own maximum resident set (os.wait4), in MB. Not a test.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _corpus import documents, queries

HRC = [sys.executable, "-m", "conformance.cli"]


def timed(argv: list[str]) -> tuple[float, float, str]:
    """(seconds, peak RSS in MB, stdout) of one child process; fails loudly on a bad exit."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.perf_counter()
        proc = subprocess.Popen(argv, stdout=out, stderr=err)
        _, status, rusage = os.wait4(proc.pid, 0)
        elapsed = time.perf_counter() - started
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        if proc.returncode != 0:
            raise SystemExit(f"{argv} failed: {err.read().decode(errors='replace')}")
        return elapsed, rusage.ru_maxrss / 1024, out.read().decode()


def best_of(argv: list[str], n: int = 3) -> tuple[float, float]:
    runs = [timed(argv)[:2] for _ in range(n)]
    return min(r[0] for r in runs), max(r[1] for r in runs)


def run_size(n: int, work: Path) -> dict[str, Any]:
    folder = work / f"corpus-{n}"
    for path, chunks in documents(n):
        target = folder / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(f"# {chunks[0].title}\n\n{chunks[0].content}\n", encoding="utf-8")
    db = work / f"index-{n}.db"
    index_s, index_mb, _ = timed([*HRC, "index", str(folder), "--db", str(db)])
    old = work / f"index-{n}-old.db"
    shutil.copy(db, old)
    con = sqlite3.connect(old)
    for table in ("chunk_vectors", "chunk_words", "trigram_words", "trigram_blobs", "meta"):
        con.execute(f"DELETE FROM {table}")
    con.commit()
    con.close()
    query = queries(1)[0]
    fuzzy = query.split()[0] + "qx"
    search = [*HRC, "search", "--db"]
    rows = {
        "hrc index": (index_s, index_mb),
        "hybrid": best_of([*search, str(db), query]),
        "fuzzy (trigram rung)": best_of([*search, str(db), fuzzy, "--mode", "bm25"]),
        "bm25 only": best_of([*search, str(db), query, "--no-embedder", "--mode", "bm25"]),
        "hybrid, old layout (re-embeds)": best_of([*search, str(old), query], 1),
    }
    for name, (seconds, mb) in rows.items():
        print(f"| {n:,} | {name} | {seconds:.2f} | {mb:.0f} |", flush=True)
    return {name: {"seconds": s, "peak_mb": mb} for name, (s, mb) in rows.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10000])
    parser.add_argument("--json", type=Path, help="also write the rows as JSON here")
    args = parser.parse_args(argv)
    print("| chunks | one-shot process | wall (s) | peak RSS (MB) |")
    print("|---:|---|---:|---:|")
    found = {}
    with tempfile.TemporaryDirectory(prefix="hrc-cold-") as tmp:
        for n in args.sizes:
            found[str(n)] = run_size(n, Path(tmp))
    if args.json:
        args.json.write_text(json.dumps({"cold": found}, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
