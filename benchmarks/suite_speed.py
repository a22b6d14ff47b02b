"""Benchmark: the whole golden suite per implementation, wall time and cases per second.

    python benchmarks/suite_speed.py [--json PATH]

Runs `hrc run --quiet` once against the reference adapter, the JavaScript port and the Go
port (each only if it is available: `node`, `ports/go/bin/adapter`), the way CI does, and
prints the wall time and cases per second. The case cache (conformance/judging/case_cache.py) is
warmed first; one more reference run with `HRC_NO_CACHE=1` shows what a cold run costs.
Not a test: nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HRC = [sys.executable, "-m", "conformance.cli", "run", "--quiet"]
ADAPTERS = {
    "reference (Python), no case cache": [],
    "reference (Python)": [],
    "JavaScript port": ["--adapter", "node ports/js/adapter.mjs",
                        "--expected-failures", "ports/js/expected-failures.yaml"],
    "Go port": ["--adapter", "ports/go/bin/adapter",
                "--expected-failures", "ports/go/expected-failures.yaml"],
}


def available(name: str) -> bool:
    if name.startswith("JavaScript"):
        return shutil.which("node") is not None
    if name.startswith("Go"):
        return (ROOT / "ports/go/bin/adapter").is_file()
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", type=Path, help="also write the rows as JSON here")
    args = parser.parse_args(argv)
    print("| implementation | cases run | wall (s) | cases / s |")
    print("|---|---:|---:|---:|")
    found = {}
    subprocess.run([*HRC, "--select", "rrf/"], cwd=ROOT, capture_output=True)  # warm the cache
    for name, extra in ADAPTERS.items():
        if not available(name):
            print(f"| {name} | not available | | |")
            continue
        started = time.perf_counter()
        env = {**os.environ, "HRC_NO_CACHE": "1"} if "no case cache" in name else None
        proc = subprocess.run(
            [*HRC, *extra], cwd=ROOT, capture_output=True, text=True, env=env
        )
        elapsed = time.perf_counter() - started
        # The footer line `hrc: N passed, ...` (the per-profile lines repeat some cases).
        footer = [line for line in proc.stdout.splitlines() if line.startswith("hrc: ")]
        counts = re.findall(
            r"(\d+) (passed|failed|skipped|xfailed|errored)", footer[-1] if footer else ""
        )
        cases = sum(int(n) for n, _ in counts)
        found[name] = {"cases": cases, "seconds": elapsed, "exit": proc.returncode}
        print(f"| {name} | {cases:,} | {elapsed:.2f} | {cases / elapsed:,.0f} |", flush=True)
    if args.json:
        args.json.write_text(json.dumps({"suite": found}, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
