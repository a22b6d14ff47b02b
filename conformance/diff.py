"""`hrc diff A.json B.json`: compare two recorded outputs, traces or run reports.

`timings` keys are dropped at every depth (TRACE-2) and values compare under
conformance.compare (numbers by TEXT-12/13). Two run reports compare case by case: which ids
only one side ran, and per case the status and the adapter's output (or error). Exit 0 when
equal, 1 when different, 2 when a file cannot be read.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from conformance.compare import differences, drop_timings

_REASONS = {"missing field": "only in A", "unexpected field": "only in B"}


@dataclass(frozen=True)
class Difference:
    path: str
    reason: str
    a: Any
    b: Any

    def render(self) -> str:
        if self.reason == "only in A":
            return f"{self.path}: only in A: {_show(self.a)}"
        if self.reason == "only in B":
            return f"{self.path}: only in B: {_show(self.b)}"
        return f"{self.path or '/'}: {self.reason}\n  A: {_show(self.a)}\n  B: {_show(self.b)}"


def _show(value: Any, limit: int = 300) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[:limit] + "…"


def diff_values(a: Any, b: Any, prefix: str = "") -> list[Difference]:
    """Every difference between two JSON values, `timings` ignored."""
    return [
        Difference(prefix + m.path, _REASONS.get(m.reason, m.reason), m.expected, m.actual)
        for m in differences(drop_timings(a), drop_timings(b), "exact")
    ]


def is_report(value: Any) -> bool:
    return (
        isinstance(value, dict)
        and isinstance(value.get("cases"), list)
        and "summary" in value
        and "adapter" in value
    )


def _answer(case: dict[str, Any]) -> dict[str, Any]:
    return {k: case[k] for k in ("output", "error") if k in case}


def diff_reports(a: dict[str, Any], b: dict[str, Any]) -> list[Difference]:
    """Per case: presence, status, and what the adapter answered."""
    cases_a = {c["id"]: c for c in a["cases"]}
    cases_b = {c["id"]: c for c in b["cases"]}
    out: list[Difference] = []
    for case_id in sorted(cases_a.keys() | cases_b.keys()):
        ca, cb = cases_a.get(case_id), cases_b.get(case_id)
        if cb is None:
            assert ca is not None
            out.append(Difference(case_id, "only in A", ca["status"], None))
            continue
        if ca is None:
            out.append(Difference(case_id, "only in B", None, cb["status"]))
            continue
        if ca["status"] != cb["status"]:
            status = Difference(f"{case_id} status", "status differs", ca["status"], cb["status"])
            out.append(status)
        out.extend(diff_values(_answer(ca), _answer(cb), prefix=f"{case_id} "))
    return out


def diff_files(path_a: Path, path_b: Path) -> list[Difference]:
    a, b = _load(path_a), _load(path_b)
    if is_report(a) and is_report(b):
        return diff_reports(a, b)
    return diff_values(a, b)


def _load(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise DiffInputError(f"{path}: {exc}") from exc


class DiffInputError(ValueError):
    pass


def register(subparsers: Any) -> None:
    p: argparse.ArgumentParser = subparsers.add_parser(
        "diff",
        help="compare two outputs, traces or reports",
        description="Compare two JSON files (outputs, traces or hrc run reports), ignoring "
        "`timings`. Exit 1 when they differ.",
    )
    p.add_argument("a", type=Path, metavar="A.json")
    p.add_argument("b", type=Path, metavar="B.json")
    p.set_defaults(func=cmd_diff)


def cmd_diff(args: argparse.Namespace) -> int:
    try:
        found = diff_files(args.a, args.b)
    except DiffInputError as exc:
        print(f"hrc diff: {exc}", file=sys.stderr)
        return 2
    for difference in found:
        print(difference.render())
    if found:
        print(f"hrc diff: {len(found)} difference(s) between {args.a} (A) and {args.b} (B)")
        return 1
    print(f"hrc diff: no differences between {args.a} and {args.b}")
    return 0
