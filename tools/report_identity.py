"""Compare JSON reports of `hrc run --report-json` apart from timings: the check that a change
made no difference to any verdict or failure text (issues 40 and 41). Left out: `startedAt`,
every `durationMs`, every trace `timings` member (no case compares them) and the `bytes` and
`sha256` of a truncated output (`hrc:truncated`), which cover that output's timings; its
`prefix` is compared. Exit 1 and print the first differences."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

TIMING = frozenset({"startedAt", "durationMs", "timings"})


def strip(value: Any) -> Any:
    """`value` without its timing members, recursively."""
    if isinstance(value, dict):
        truncated = "prefix" in value and "sha256" in value
        return {k: strip(v) for k, v in value.items()
                if k not in TIMING and not (truncated and k in ("bytes", "sha256"))}
    if isinstance(value, list):
        return [strip(v) for v in value]
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
    first, second = (strip(json.loads(Path(p).read_text(encoding="utf-8"))) for p in argv[:2])
    found = differences(first, second)
    for line in found[:20]:
        print(line)
    print(f"{len(found)} difference(s) apart from timings")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
