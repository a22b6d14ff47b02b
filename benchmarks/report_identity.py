"""Are two `hrc run --report-json` reports the same apart from timings? (issue 40; not a test)

    python benchmarks/report_identity.py BEFORE.json AFTER.json [MORE_BEFORE MORE_AFTER ...]

Removes the timing members (TIMING below, at any depth) from both reports, then compares what
is left; prints `identical` or the first differing paths, and which members were removed.
Exit 0 when every pair is identical, 1 otherwise.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

#: Members that hold a clock reading or durations (`timings`: a trace's per-stage *Ms, which
#: the port measures), nothing a verdict depends on.
TIMING = frozenset({"startedAt", "durationMs", "timings"})


#: An output too long for the report is kept as `hrc:truncated` {bytes, sha256, prefix}: its
#: size and digest cover the whole output, the trace's timings included, so they differ between
#: two runs of the same code (checked on main: 132665 vs 132666 bytes). Only the prefix stays.
TRUNCATED = "hrc:truncated"


def strip(value: Any, removed: set[str], at: str = "") -> Any:
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            if key in TIMING:
                removed.add(key)
                continue
            if key == TRUNCATED and isinstance(item, dict):
                removed.add(f"{TRUNCATED}.bytes/.sha256")
                out[key] = {k: v for k, v in item.items() if k not in ("bytes", "sha256")}
                continue
            out[key] = strip(item, removed, f"{at}/{key}")
        return out
    if isinstance(value, list):
        return [strip(item, removed, f"{at}/{i}") for i, item in enumerate(value)]
    return value


def differences(one: Any, two: Any, at: str = "") -> list[str]:
    if type(one) is not type(two):
        return [at or "/"]
    if isinstance(one, dict):
        found = [f"{at}/{k}" for k in sorted(set(one) ^ set(two))]
        for key in sorted(set(one) & set(two)):
            found.extend(differences(one[key], two[key], f"{at}/{key}"))
        return found
    if isinstance(one, list):
        if len(one) != len(two):
            return [f"{at} (length {len(one)} vs {len(two)})"]
        return [d for i, (a, b) in enumerate(zip(one, two, strict=True))
                for d in differences(a, b, f"{at}/{i}")]
    return [] if one == two else [at or "/"]


def main(argv: list[str]) -> int:
    if len(argv) < 2 or len(argv) % 2:
        print(__doc__, file=sys.stderr)
        return 2
    status = 0
    for before, after in zip(argv[::2], argv[1::2], strict=True):
        removed: set[str] = set()
        one = strip(json.loads(Path(before).read_text(encoding="utf-8")), removed)
        two = strip(json.loads(Path(after).read_text(encoding="utf-8")), removed)
        found = differences(one, two)
        cases = len(one.get("cases", [])) if isinstance(one, dict) else 0
        verdict = "identical" if not found else f"{len(found)} differences: {found[:10]}"
        print(f"{before} vs {after}: {cases} cases, {verdict} "
              f"(removed: {', '.join(sorted(removed)) or 'nothing'})")
        status |= bool(found)
    return status


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
