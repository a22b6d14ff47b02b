"""Cases per second: one persistent reference adapter vs a fresh adapter process per case.

    python benchmarks/suite_throughput.py [--sample N] [--adapter CMD]

Both modes run the same cases in the same run: the first N cases of the suite (default 60,
spread over the sorted case list) for the comparison, then the whole suite once in
persistent mode. Not a test: nothing is asserted; it prints a table.
"""

from __future__ import annotations

import argparse
import shlex
import sys
import time
from collections.abc import Sequence

from conformance.adapters.adapter_process import python_command
from conformance.judging.cases import Case, load_all
from conformance.running.results import FAILING
from conformance.running.runner import REFERENCE_ADAPTER_MODULE, run_suite


def persistent(cases: Sequence[Case], argv: list[str]) -> tuple[float, int]:
    started = time.perf_counter()
    run = run_suite(cases, argv)
    return time.perf_counter() - started, sum(r.status in FAILING for r in run.results)


def process_per_case(cases: Sequence[Case], argv: list[str]) -> tuple[float, int]:
    started = time.perf_counter()
    failing = 0
    for case in cases:
        run = run_suite([case], argv)
        failing += sum(r.status in FAILING for r in run.results)
    return time.perf_counter() - started, failing


def spread(cases: list[Case], n: int) -> list[Case]:
    if n >= len(cases):
        return cases
    step = len(cases) / n
    return [cases[int(i * step)] for i in range(n)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=60, help="cases in the comparison")
    parser.add_argument("--adapter", help="adapter command (default: the reference)")
    args = parser.parse_args(argv)
    command = shlex.split(args.adapter) if args.adapter else python_command(
        REFERENCE_ADAPTER_MODULE
    )
    suite = load_all()
    sample = spread(suite, args.sample)

    rows: list[tuple[str, int, float, int]] = []
    seconds, bad = persistent(sample, command)
    rows.append(("persistent (sample)", len(sample), seconds, bad))
    seconds, bad = process_per_case(sample, command)
    rows.append(("process per case (sample)", len(sample), seconds, bad))
    seconds, bad = persistent(suite, command)
    rows.append(("persistent (whole suite)", len(suite), seconds, bad))

    print(f"{'mode':<28} {'cases':>6} {'seconds':>9} {'cases/s':>9} {'failing':>8}")
    for name, count, secs, failing in rows:
        print(f"{name:<28} {count:>6} {secs:>9.3f} {count / secs:>9.1f} {failing:>8}")
    ratio = (rows[0][1] / rows[0][2]) / (rows[1][1] / rows[1][2])
    print(f"persistent / process-per-case throughput on the same {len(sample)} cases: {ratio:.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
