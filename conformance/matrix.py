"""`hrc report R1.json [R2.json ...]`: a compliance matrix, ports x stages.

A cell is `passed/total` for the cases of that stage in that report; `n/a` marks stages where
every case was not applicable, a trailing `*` marks cells with some not-applicable cases, and
` ✗N` cells where N cases failed the run (bold in Markdown), so a failing port never reads as
an incomplete but correct one.
Profiles (`profile:NAME`, PROFILE-6) come after the core stages; the `data` column shows the
data check (PROTO-29). Reports are validated and must be complete (PROTO-26).
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from conformance import errors
from conformance.printable import printable
from conformance.report import ReportError, load
from conformance.runner import FAILING

#: Marks a cell with cases that failed the run, followed by how many (`5/95* ✗3`).
FAILED_MARK = "✗"


@dataclass
class Cell:
    passed: int = 0
    total: int = 0
    not_applicable: int = 0
    #: cases that failed the run (failed, errored, crashed, timed_out, protocol_violation, xpass)
    failing: int = 0

    def add(self, status: str) -> None:
        self.total += 1
        if status == "passed":
            self.passed += 1
        elif status == "not_applicable":
            self.not_applicable += 1
        elif status in FAILING:
            self.failing += 1

    def render(self) -> str:
        """`passed/total`, `*` when some are not applicable, ` ✗N` when N failed the run."""
        if self.total == 0:
            return "–"
        if self.not_applicable == self.total:
            return "n/a"
        mark = "*" if self.not_applicable else ""
        failed = f" {FAILED_MARK}{self.failing}" if self.failing else ""
        return f"{self.passed}/{self.total}{mark}{failed}"


@dataclass
class Row:
    port: str
    cells: dict[str, Cell] = field(default_factory=dict)
    total: Cell = field(default_factory=Cell)
    data: str = "–"


def data_cell(document: dict[str, Any]) -> str:
    """`ok`, `FAILED (n)` (stale or unknown files), `unreported`, or `–` without a hello."""
    check = document.get("dataCheck")
    if check is None:
        return "–"
    if check["status"] == "failed":
        bad = sum(f["status"] in ("stale", "unknown") for f in check["files"])
        return f"FAILED ({bad})"
    return str(check["status"])


def stage_order(stage: str) -> tuple[bool, str]:
    """Core stages first, then profiles, each alphabetically."""
    return (stage.startswith("profile:"), stage)


def port_label(document: dict[str, Any]) -> str:
    adapter = document["adapter"]
    if "name" in adapter:
        return f"{adapter['name']} {adapter['version']}"
    return " ".join(adapter["command"])


def build(documents: list[dict[str, Any]]) -> tuple[list[str], list[Row]]:
    stages: set[str] = set()
    rows: list[Row] = []
    for document in documents:
        row = Row(port_label(document), data=data_cell(document))
        for case in document["cases"]:
            stage = case["stage"] or "(none)"
            stages.add(stage)
            row.cells.setdefault(stage, Cell()).add(case["status"])
            row.total.add(case["status"])
        rows.append(row)
    return sorted(stages, key=stage_order), rows


#: Markdown punctuation that could start emphasis, code, a link or an image, or end a cell.
_MARKDOWN_PUNCT = re.compile(r"([\\`*_\[\]|!#~])")


def _escape(text: str) -> str:
    """A report's text (a port's hello name and version) as inert Markdown: controls escaped
    (PROTO-37), `&`, `<`, `>` as entities so no HTML is live, Markdown punctuation escaped."""
    text = printable(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return _MARKDOWN_PUNCT.sub(r"\\\1", text)


def _markdown_cell(cell: Cell) -> str:
    """A cell, in bold when a case of it failed the run."""
    text = cell.render()
    return f"**{text}**" if cell.failing else text


def render_markdown(stages: list[str], rows: list[Row]) -> str:
    header = ["port", *stages, "total", "data"]
    lines = [
        "| " + " | ".join(_escape(h) for h in header) + " |",
        "|" + "|".join(["---"] + [":---:"] * (len(header) - 1)) + "|",
    ]
    for row in rows:
        cells = [_markdown_cell(row.cells.get(s, Cell())) for s in stages]
        row_cells = [_escape(row.port), *cells, _markdown_cell(row.total), row.data]
        lines.append("| " + " | ".join(row_cells) + " |")
    lines.append("")
    lines.append("`passed/total` per stage; `*` some cases not applicable; `n/a` none applicable;")
    lines.append(f"**`{FAILED_MARK}N`** N cases failed the run.")
    lines.append("`profile:NAME` columns are profiles; `data` is the spec/data check (PROTO-29).")
    return "\n".join(lines) + "\n"


def render_text(stages: list[str], rows: list[Row]) -> str:
    header = ["port", *stages, "total", "data"]
    table = [header] + [
        [
            printable(row.port),
            *[row.cells.get(s, Cell()).render() for s in stages],
            row.total.render(),
            row.data,
        ]
        for row in rows
    ]
    widths = [max(len(r[i]) for r in table) for i in range(len(header))]
    lines = "".join(
        "  ".join(cell.ljust(widths[i]) for i, cell in enumerate(r)).rstrip() + "\n"
        for r in table
    )
    if any(row.total.failing for row in rows):
        lines += f"{FAILED_MARK}N: N cases failed the run (see each report)\n"
    return lines


def register(subparsers: Any) -> None:
    p: argparse.ArgumentParser = subparsers.add_parser(
        "report",
        help="compliance matrix from run reports",
        description="Read `hrc run --report-json` files and print ports x stages.",
    )
    p.add_argument("reports", type=Path, nargs="+", metavar="REPORT.json")
    p.add_argument("--markdown", action="store_true", help="print a Markdown table")
    p.add_argument("--html", type=Path, metavar="FILE",
                   help="write one self-contained HTML page: matrix, failing cases, badges")
    p.add_argument("--badge", type=Path, metavar="FILE.svg|DIR",
                   help="write an SVG badge (one report) or one per port into DIR")
    p.add_argument("--clause-url", metavar="TEMPLATE",
                   help="link clauses in --html to TEMPLATE with {file}, {line}, {id} filled in")
    p.set_defaults(func=cmd_report)


def cmd_report(args: argparse.Namespace) -> int:
    try:
        documents = [load(path) for path in args.reports]
    except ReportError as exc:
        return errors.emit("report", str(exc))
    if args.html is not None or args.badge is not None:
        from conformance import html_report

        try:
            written = html_report.write_outputs(documents, args.html, args.badge, args.clause_url)
        except html_report.OutputError as exc:
            return errors.emit("report", str(exc))
        for path in written:
            print(f"hrc report: wrote {path}")
        if not args.markdown:
            return 0
    stages, rows = build(documents)
    render = render_markdown if args.markdown else render_text
    sys.stdout.write(render(stages, rows))
    return 0
