"""`hrc diff A.json B.json`: compare two recorded outputs, traces or run reports.

`timings` keys are dropped at every depth (TRACE-2) and values compare under
conformance.judging.compare (numbers by TEXT-12/13: floats bit-exact except the tolerance fields of
the operation given by `--op`, or by each case's `op` in a report). Two run reports compare
case by case: which ids only one side ran, and per case the status and the adapter's output
(or error). Files are read as strictly as the protocol reads a line (PROTO-2, PROTO-33): NaN,
Infinity (or 1e400), a repeated key or a lone surrogate is an error at `path:line`. Exit 0
when equal, 1 when different, 2 when a file cannot be read. `--status-only` keeps, of two
reports, the cases whose status changed and tallies the changes.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from conformance.common import errors, input_files
from conformance.judging.compare import differences, drop_timings
from conformance.reports import diff_lists

_REASONS = {"missing field": "only in A", "unexpected field": "only in B"}


@dataclass(frozen=True)
class Difference:
    path: str
    reason: str
    a: Any
    b: Any

    def render(self) -> str:
        if self.reason == "only in A" or self.reason.startswith("removed"):
            return f"{self.path}: {self.reason}: {_show(self.a)}"
        if self.reason == "only in B" or self.reason.startswith("inserted"):
            return f"{self.path}: {self.reason}: {_show(self.b)}"
        if self.reason.startswith("moved"):
            return f"{self.path}: {self.reason}"
        text_a, text_b = _text(self.a), _text(self.b)
        if len(text_a) > _LIMIT or len(text_b) > _LIMIT:
            cut_a, cut_b, at = diff_lists.around_first_difference(text_a, text_b)
            return (f"{self.path or '/'}: {self.reason} (first difference at character {at} "
                    f"of {len(text_a)} / {len(text_b)})\n  A: {cut_a}\n  B: {cut_b}")
        return f"{self.path or '/'}: {self.reason}\n  A: {text_a}\n  B: {text_b}"


_LIMIT = 300


def _text(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _show(value: Any, limit: int = 300) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[:limit] + "…"


def diff_values(a: Any, b: Any, prefix: str = "", op: str | None = None) -> list[Difference]:
    """Every difference between two JSON values, `timings` ignored; `op` for TEXT-13's table.
    Lists of identifiable items are aligned (moved / inserted / removed, diff_lists.py)."""

    def leaf(x: Any, y: Any, path: str) -> list[tuple[str, str, Any, Any]]:
        return [(m.path, _REASONS.get(m.reason, m.reason), m.expected, m.actual)
                for m in differences(x, y, "exact", path, op)]

    found = diff_lists.walk(drop_timings(a), drop_timings(b), "", leaf)
    return [Difference(prefix + path, reason, x, y) for path, reason, x, y in found]


def _truncated_outputs(case_id: str, a: Any, b: Any) -> list[Difference] | None:
    """Two outputs the runner kept as digests (PROTO-39): their sizes and kept prefixes around
    the first difference, instead of two SHA-256 values; None unless both are such records."""
    ra, rb = diff_lists.truncated(a), diff_lists.truncated(b)
    if ra is None or rb is None:
        return None
    if ra.get("sha256") == rb.get("sha256"):
        return []
    prefix_a, prefix_b = str(ra.get("prefix", "")), str(rb.get("prefix", ""))
    if prefix_a == prefix_b:
        reason = (f"output too long to keep (PROTO-39: {ra.get('bytes')} / {rb.get('bytes')} "
                  f"bytes): the kept first {len(prefix_a)} characters agree, the change lies "
                  "after them; rerun the case alone (hrc run --select ID) to see it")
        return [Difference(f"{case_id} /output", reason, ra.get("bytes"), rb.get("bytes"))]
    reason = f"output too long to keep (PROTO-39: {ra.get('bytes')} / {rb.get('bytes')} bytes)"
    return [Difference(f"{case_id} /output", reason, prefix_a, prefix_b)]


def is_report(value: Any) -> bool:
    return (
        isinstance(value, dict)
        and isinstance(value.get("cases"), list)
        and "summary" in value
        and "adapter" in value
    )


def _answer(case: dict[str, Any]) -> dict[str, Any]:
    """What is normative in an answer (PROTO-46): the output, or the error's `kind` only; the
    wording of an error message is the port's own (OP-2)."""
    out: dict[str, Any] = {}
    if "output" in case:
        out["output"] = case["output"]
    if "error" in case:
        error = case["error"]
        out["error"] = {"kind": error.get("kind")} if isinstance(error, dict) else error
    return out


def diff_reports(a: dict[str, Any], b: dict[str, Any]) -> list[Difference]:
    """Per case: presence, status, and what is normative in the answer (PROTO-46): the output
    or the error kind; messages, durations, stderr and the adapter's name are not compared."""
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
        op = ca.get("op") if isinstance(ca.get("op"), str) else None
        answer_a, answer_b = _answer(ca), _answer(cb)
        if "output" in answer_a and "output" in answer_b:
            kept = _truncated_outputs(case_id, answer_a["output"], answer_b["output"])
            if kept is not None:
                out.extend(kept)
                continue
            # Tolerances are keyed by pointers into the output (TEXT-13).
            found = diff_values(answer_a["output"], answer_b["output"], f"{case_id} /output", op)
            out.extend(found)
            continue
        out.extend(diff_values(answer_a, answer_b, prefix=f"{case_id} "))
    return out


def status_changes(differences: list[Difference]) -> list[Difference]:
    """Only the cases whose status differs or that one report alone ran (`--status-only`)."""
    return [d for d in differences
            if d.reason in ("status differs", "only in A", "only in B") and " /" not in d.path]


def transitions(changes: list[Difference]) -> list[tuple[str, int]]:
    """`A status -> B status` with how many cases made that change, most first."""
    tally = Counter(f"{d.a or '(not run)'} -> {d.b or '(not run)'}" for d in changes)
    return sorted(tally.items(), key=lambda item: (-item[1], item[0]))


def diff_files(
    path_a: Path, path_b: Path, op: str | None = None, status_only: bool = False
) -> list[Difference]:
    a, b = load_strict(path_a), load_strict(path_b)
    if status_only and not (is_report(a) and is_report(b)):
        raise DiffInputError("--status-only compares two hrc run reports")
    for path, value in ((path_a, a), (path_b, b)):
        if is_report(value) and value.get("complete") is not True:
            raise DiffInputError(
                f"{path}: incomplete report (no \"complete\": true; PROTO-26): the run was cut "
                "and a diff against it would be wrong"
            )
    if is_report(a) and is_report(b):
        found = diff_reports(a, b)
        return status_changes(found) if status_only else found
    return diff_values(a, b, op=op)


class DiffInputError(ValueError):
    """A file `hrc diff` cannot read; the text starts with `path:line:` when a line is known."""


def load_strict(path: Path) -> Any:
    """A JSON file read as PROTO-2 reads a line, bounded (conformance/common/input_files.py);
    DiffInputError("path:line: why") otherwise."""
    try:
        return input_files.load_json(path)
    except input_files.InputFileError as exc:
        raise DiffInputError(str(exc)) from None


def register(subparsers: Any) -> None:
    p: argparse.ArgumentParser = subparsers.add_parser(
        "diff",
        help="compare two outputs, traces or reports",
        description="Compare two JSON files (outputs, traces or hrc run reports), ignoring "
        "`timings`; floats bit-exact except TEXT-13's tolerance fields, integers exactly. "
        "Exit 1 when they differ, 2 when a file is not strict JSON (NaN, Infinity, a "
        "repeated key, a lone surrogate).",
    )
    p.add_argument("a", type=Path, metavar="A.json")
    p.add_argument("b", type=Path, metavar="B.json")
    p.add_argument(
        "--op",
        metavar="OP",
        help="the operation the two outputs come from, for the tolerance fields of TEXT-13 "
        "(reports name it per case); without it every float compares bit-exact",
    )
    p.add_argument(
        "--status-only",
        action="store_true",
        help="two reports: only the cases whose status changed (or that one side alone ran), "
        "one line each, then a tally of the changes",
    )
    p.set_defaults(func=cmd_diff)


def cmd_diff(args: argparse.Namespace) -> int:
    try:
        found = diff_files(args.a, args.b, args.op, args.status_only)
    except DiffInputError as exc:
        return errors.emit("diff", str(exc))
    if args.status_only:
        for d in found:
            print(f"{d.path.removesuffix(' status')}: {d.a or '(not run)'} -> "
                  f"{d.b or '(not run)'}")
        for change, count in transitions(found):
            print(f"  {count:>6}  {change}")
    else:
        for difference in found:
            print(difference.render())
    if found:
        print(f"hrc diff: {len(found)} difference(s) between {args.a} (A) and {args.b} (B)")
        return 1
    print(f"hrc diff: no differences between {args.a} and {args.b}")
    return 0
