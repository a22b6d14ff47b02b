"""The kit's own test times in README.md, from a measurement in the repository (issue 38).

`HRC_TEST_TIMES=benchmarks/results/test-times.json pytest` (tests/conftest.py) appends one run to
the file: wall time, the time spent in `slow` tests and in the others, test counts, CPU count,
load average, Python, date. `python tools/readme_test_times.py --write` rewrites the sentence
between the `test-times` markers of README.md from the newest complete run (every test, exit 0)
and the newest runs of `-m "not slow"`; tests/test_readme_test_times.py fails when the README
says anything else. Record a run on the machine CI uses, with nothing else running if you can
(the load is printed beside the numbers either way).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from readme_markers import README, block, write_block

ROOT = Path(__file__).resolve().parent.parent
TIMES = ROOT / "benchmarks" / "results" / "test-times.json"
BEGIN, END = "<!-- test-times -->", "<!-- /test-times -->"


def record_run(target: str | Path, *, wall_s: float, slow_s: float, not_slow_s: float,
               counts: dict[str, int], args: list[str], exit_status: int) -> None:
    """Append one pytest run to the measurement file (called by tests/conftest.py)."""
    path = Path(target)
    runs: list[dict[str, Any]] = json.loads(path.read_text("utf-8")) if path.is_file() else []
    positional = [a for a in args if not a.startswith("-") and a != "not slow"]
    chosen = any(a.startswith(("-m", "-k", "--deselect", "--lf")) for a in args) or any(
        a.rstrip("/") != "tests" for a in positional)
    selection = "not slow" if args in (["-m", "not slow"], ["-m not slow"]) else (
        "other" if chosen else "all")
    runs.append({
        "date": datetime.date.today().isoformat(),
        "selection": selection,
        "args": args,
        "exitStatus": exit_status,
        "wallSeconds": round(wall_s, 1),
        "slowSeconds": round(slow_s, 1),
        "notSlowSeconds": round(not_slow_s, 1),
        "tests": counts,
        "cpus": os.cpu_count(),
        "load": [round(x, 1) for x in os.getloadavg()],
        "python": platform.python_version(),
        "source": "HRC_TEST_TIMES (tests/conftest.py)",
    })
    path.write_text(json.dumps(runs, indent=2) + "\n", encoding="utf-8")


def _minutes(seconds: float) -> str:
    return f"{seconds / 60:.1f} min"


def _load(run: dict[str, Any]) -> str:
    load = run["load"]
    return load if isinstance(load, str) else f"{load[0]:g}"


def sentence(runs: list[dict[str, Any]]) -> str:
    """What README.md says about the test times, from the recorded runs."""
    whole = [r for r in runs if r["selection"] == "all" and r.get("exitStatus") == 0]
    quick = [r for r in runs if r["selection"] == "not slow"]
    parts = []
    if whole:
        r = whole[-1]
        parts.append(
            f"The kit's own tests took {_minutes(r['wallSeconds'])} on {r['cpus']} cores at "
            f"load {_load(r)} ({r['date']}), {_minutes(r['slowSeconds'])} of it in the "
            f"`slow` groups; `pytest -m \"not slow\"` leaves those out (the other tests took "
            f"{_minutes(r['notSlowSeconds'])} of that run)")
    else:
        parts.append("No complete run of the kit's own tests is recorded yet; it takes several "
                     "minutes on a 2-core machine. `pytest -m \"not slow\"` leaves out the "
                     "slow groups")
    for r in quick[-1:]:
        low, high = r["wallSecondsRange"] if "wallSecondsRange" in r else [r["wallSeconds"]] * 2
        span = _minutes(low) if low == high else f"{low / 60:g} to {high / 60:g} min"
        when = r["source"] if not r["date"][:1].isdigit() else f"{r['date']}, {r['source']}"
        parts.append(f"; run alone it took {span} on {r['cpus']} shared cores at load "
                     f"{_load(r)} ({when})")
    return "".join(parts) + (
        ". The times are measured, not estimated: `benchmarks/results/test-times.json`, "
        "recorded by `HRC_TEST_TIMES=benchmarks/results/test-times.json pytest`, written here "
        "by `python tools/readme_test_times.py --write`.")


def current() -> str:
    runs = json.loads(TIMES.read_text(encoding="utf-8"))
    return sentence(runs)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--write", action="store_true", help="rewrite README.md's block")
    args = parser.parse_args(argv)
    text = current()
    if args.write:
        write_block(text, BEGIN, END)
    elif block(README.read_text(encoding="utf-8"), BEGIN, END) != text:
        print("README.md's test times are stale: python tools/readme_test_times.py --write")
        return 1
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
