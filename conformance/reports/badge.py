"""An SVG status badge for one port's run report (`hrc report --badge`, and in the HTML report).

The badge reads `hrc SPEC | passed/total`: green when every case of the suite passed, yellow
when nothing failed but some cases were not applicable (the port covers part of the suite),
red when a case failed or the data check failed (PROTO-29). Self-contained: no fonts, no
links, no scripts; text widths are fixed with `textLength` so any renderer keeps it in its box.
"""

from __future__ import annotations

import re
from html import escape
from typing import Any

from conformance.running.results import FAILING

GREEN, YELLOW, RED, GREY = "#2e7d32", "#b58105", "#c62828", "#555"
#: Approximate advance widths (px) of 11 px Verdana, the badge font; the rest default to 7.
_NARROW = {c: 3.5 for c in "ijl.,:;|!'() "} | {c: 4.5 for c in "frt/-"}
_WIDE = {c: 9.5 for c in "mwMW%"}


def text_width(text: str) -> float:
    return sum(_NARROW.get(c, _WIDE.get(c, 7.0)) for c in text)


def counts(document: dict[str, Any]) -> dict[str, int]:
    """passed, failing, not_applicable and total over the cases of one report."""
    out = {"passed": 0, "failing": 0, "not_applicable": 0, "total": 0}
    for case in document["cases"]:
        out["total"] += 1
        if case["status"] == "passed":
            out["passed"] += 1
        elif case["status"] in FAILING or case["status"] == "not_run":
            out["failing"] += 1
        elif case["status"] == "not_applicable":
            out["not_applicable"] += 1
    return out


def data_failed(document: dict[str, Any]) -> bool:
    check = document.get("dataCheck")
    return check is not None and check.get("status") == "failed"


def colour(document: dict[str, Any]) -> str:
    """Red also when the run says it is not ok (an aborted run, an unmet --require)."""
    c = counts(document)
    run_ok = document.get("summary", {}).get("ok", True)
    if c["failing"] or data_failed(document) or c["total"] == 0 or not run_ok:
        return RED
    if c["passed"] < c["total"]:
        return YELLOW
    return GREEN


def message(document: dict[str, Any]) -> str:
    c = counts(document)
    text = f"{c['passed']}/{c['total']} passed"
    return text + ", data stale" if data_failed(document) else text


def label(document: dict[str, Any]) -> str:
    return f"hrc {document['suite']['specVersion']}"


def render(left: str, right: str, fill: str) -> str:
    """A flat two-part badge; `left` and `right` are plain text (escaped here)."""
    lw, rw = round(text_width(left)) + 12, round(text_width(right)) + 12
    total = lw + rw
    title = escape(f"{left}: {right}")
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{total}" height="20" '
        f'role="img" aria-label="{title}">',
        f"<title>{title}</title>",
        f'<rect width="{lw}" height="20" fill="{GREY}"/>',
        f'<rect x="{lw}" width="{rw}" height="20" fill="{fill}"/>',
        '<g fill="#fff" font-family="Verdana,DejaVu Sans,sans-serif" font-size="11">',
        f'<text x="{lw / 2}" y="14" text-anchor="middle" textLength="{lw - 12}" '
        f'lengthAdjust="spacingAndGlyphs">{escape(left)}</text>',
        f'<text x="{lw + rw / 2}" y="14" text-anchor="middle" textLength="{rw - 12}" '
        f'lengthAdjust="spacingAndGlyphs">{escape(right)}</text>',
        "</g></svg>",
    ]
    return "".join(parts)


def port_badge(document: dict[str, Any]) -> str:
    """The badge of one run report."""
    return render(label(document), message(document), colour(document))


def file_name(port: str) -> str:
    """`hrc-js 0.1.0` -> `hrc-js-0.1.0.svg`: one badge file per port in a directory."""
    slug = re.sub(r"[^A-Za-z0-9._-]+", "-", port).strip("-.") or "port"
    return f"{slug}.svg"
