"""Compare JSON reports of `hrc run --report-json` apart from timings: the check that a change
made no difference to any verdict or failure text (issues 40 and 41).

    python tools/report_identity.py BEFORE.json AFTER.json [MORE_BEFORE MORE_AFTER ...]

Left out: `startedAt`, every `durationMs`, every trace `timings` member (no case compares them)
and the `bytes` and `sha256` of a truncated output (`hrc:truncated`), which cover that output's
timings (two runs of the same code differ there); its `prefix` is compared. Prints, for each
pair, the number of cases, the members removed and the first differences. Exit 0 when every
pair is identical, 1 otherwise, 2 on a wrong number of arguments."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

TIMING = frozenset({"startedAt", "durationMs", "timings"})


def strip(value: Any, removed: set[str] | None = None) -> Any:
    """`value` without its timing members, recursively; their names are added to `removed`."""
    if removed is None:
        removed = set()
    if isinstance(value, dict):
        truncated = "prefix" in value and "sha256" in value
        out = {}
        for k, v in value.items():
            if k in TIMING:
                removed.add(k)
            elif truncated and k in ("bytes", "sha256"):
                removed.add(f"hrc:truncated.{k}")
            else:
                out[k] = strip(v, removed)
        return out
    if isinstance(value, list):
        return [strip(v, removed) for v in value]
    return value


def differences(a: Any, b: Any, where: str = "") -> list[str]:
    """JSON-pointer-like paths where `a` and `b` differ (at most a few per branch)."""
    if type(a) is not type(b):
        return [f"{where or '/'}: {a!r} != {b!r}"]
    if isinstance(a, dict):
        out = []
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                out.append(f"{where}/{k}: only in {'second' if k not in a else 'first'}")
            else:
                out += differences(a[k], b[k], f"{where}/{k}")
        return out
    if isinstance(a, list):
        if len(a) != len(b):
            return [f"{where}: {len(a)} items != {len(b)}"]
        return [d for x, y, i in zip(a, b, range(len(a)), strict=True)
                for d in differences(x, y, f"{where}/{i}")]
    return [] if a == b else [f"{where}: {a!r} != {b!r}"]


def main(argv: list[str]) -> int:
    if len(argv) < 2 or len(argv) % 2:
        print(__doc__, file=sys.stderr)
        return 2
    status = 0
    for before, after in zip(argv[::2], argv[1::2], strict=True):
        removed: set[str] = set()
        first, second = (strip(json.loads(Path(p).read_text(encoding="utf-8")), removed)
                         for p in (before, after))
        found = differences(first, second)
        cases = len(first.get("cases", [])) if isinstance(first, dict) else 0
        if len(argv) > 2:
            print(f"{before} vs {after}: {cases} cases")
        for line in found[:20]:
            print(line)
        print(f"{len(found)} difference(s) apart from timings "
              f"(removed: {', '.join(sorted(removed)) or 'nothing'})")
        status |= bool(found)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
