"""`hrc report R1.json [R2.json ...]`: a compliance matrix, ports x stages.

A cell is `passed/total` for the cases of that stage in that report; `n/a` marks stages where
every case was not applicable, a trailing `*` marks cells with some not-applicable cases, and
` ✗N` cells where N cases failed the run (bold in Markdown), so a failing port never reads as
an incomplete but correct one.
Profiles (`profile:NAME`, PROFILE-6) come after the core stages; the `data` column shows the
data check (PROTO-29). Reports are validated and must be complete (PROTO-26).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from conformance.common.printable import printable
from conformance.running.results import FAILING

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


def markdown_text(text: str) -> str:
    """Any text a report carries, as inert Markdown (for pages built outside this module)."""
    return _escape(text)


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
