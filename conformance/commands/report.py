"""`hrc report`: merge JSON reports into the ports matrix, HTML and badges."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from conformance.common import errors
from conformance.reports.matrix import build, render_markdown, render_text
from conformance.reports.report import ReportError, load


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
        from conformance.reports import html_report

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
