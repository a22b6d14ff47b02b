"""`hrc report --html`: one static, self-contained HTML page from run reports.

The page holds the ports x stages matrix with pass rates (the same cells as the text matrix),
then one section per port with its SVG badge and every failing case as a `<details>` block:
status, message, source file:line, clause links, the case input, and a line diff of the
expected against the actual answer. The clauses those cases cite follow, with their spec text.
No scripts, no external resources: the file opens from disk, in CI artefacts, anywhere.
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Any

from conformance.common import atomic_write, errors
from conformance.judging import authority
from conformance.judging.cases import Case, CaseFileError, load_file
from conformance.judging.clauses import Clause, defined_clauses
from conformance.judging.compare import drop_timings
from conformance.judging.suite import kit_suite
from conformance.reports import badge, markdown_inline
from conformance.reports.matrix import Cell, Row, build, port_label
from conformance.running.results import FAILING

#: Lines of a diff, and characters of an input, shown per case (big traces stay readable).
MAX_DIFF_LINES = 200
MAX_INPUT_CHARS = 4000


@dataclass(frozen=True)
class ClauseText:
    """A clause with its defining spec file, line and paragraph."""

    clause: Clause
    text: str
    #: who decided the clause (spec/authority.json, PROTO-48); None when the spec has no index.
    authority: str | None = None


def clause_texts(spec_dir: Path | None = None) -> dict[str, ClauseText]:
    """Every clause id -> its definition paragraph (the bullet from `- **ID**` to the next)."""
    out: dict[str, ClauseText] = {}
    try:
        defined = defined_clauses(spec_dir)
    except (OSError, ValueError):
        return out
    base = spec_dir or kit_suite().spec
    try:
        index = authority.index_for(spec_dir)
    except authority.AuthorityError:
        index = {}
    lines_of: dict[str, list[str]] = {}
    for cid, clause in defined.items():
        lines = lines_of.setdefault(
            clause.file, (base / clause.file).read_text(encoding="utf-8").splitlines()
        )
        para = [lines[clause.line - 1].strip()]
        for line in lines[clause.line :]:
            if not line.strip() or line.lstrip().startswith(("- **", "#", "|", "```")):
                break
            para.append(line.strip())
        out[cid] = ClauseText(clause, " ".join(para).removeprefix("- "), index.get(cid))
    return out


def golden_cases(documents: list[dict[str, Any]]) -> dict[str, Case]:
    """The failing cases of the reports, by id, read from the case files their `source` names
    (relative to the kit, or absolute); a file that cannot be read just means no diff."""
    from reference.data import kit_root

    out: dict[str, Case] = {}
    files: dict[Path, Path | None] = {}
    for document in documents:
        where = document["suite"].get("golden")
        root = Path(where) if where and Path(where).is_dir() else None
        for case in document["cases"]:
            if case["status"] in FAILING and case.get("source"):
                name = Path(case["source"].rsplit(":", 1)[0])
                files.setdefault(name if name.is_absolute() else kit_root() / name, root)
    for path, root in files.items():
        try:
            for case in load_file(path, root=root):
                out.setdefault(case.id, case)
        except (CaseFileError, OSError):
            continue
    return out


def _json(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False, sort_keys=True)


def answer_of(case: Mapping[str, Any]) -> Any:
    """What the adapter answered: its output, its error, or nothing."""
    if "output" in case:
        return case["output"]
    if "error" in case:
        return {"error": case["error"]["kind"], "message": case["error"]["message"]}
    return None


def expected_of(golden: Case) -> Any:
    """The expected answer: the output, the error kind, or the first of `one_of`."""
    expect = golden.expect
    if "output" in expect:
        return expect["output"]
    if "error" in expect:
        return {"error": expect["error"]}
    if expect.get("one_of"):
        return expect["one_of"][0]
    return expect


def shaped(expected: Any, actual: Any) -> Any:
    """`actual` cut to the fields `expected` lists (a `partial` comparison ignores the rest)."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        return {k: shaped(expected[k], actual[k]) for k in expected if k in actual}
    if isinstance(expected, list) and isinstance(actual, list):
        head = [shaped(e, a) for e, a in zip(expected, actual, strict=False)]
        return head + actual[len(expected):]
    return actual


def case_diff(golden: Case, answer: Any) -> tuple[str, list[str]]:
    """(a note on how the case compares, the diff lines) for one failing answer."""
    expected = drop_timings(expected_of(golden))
    actual = drop_timings(answer)
    expect = golden.expect
    note = "exact comparison"
    if expect.get("compare") == "partial" and "output" in expect:
        actual = shaped(expected, actual)
        note = "partial comparison: fields the case does not list are left out"
    elif expect.get("compare") == "set":
        note = "lists compare as multisets: order does not matter"
    elif expect.get("one_of"):
        note = f"any of {len(expect['one_of'])} answers passes; the diff is against the first"
    return note, diff_lines(expected, actual)


def diff_lines(expected: Any, actual: Any) -> list[str]:
    """A unified diff of the two answers as sorted, indented JSON (at most MAX_DIFF_LINES)."""
    lines = list(
        difflib.unified_diff(
            _json(expected).splitlines(), _json(actual).splitlines(),
            "expected", "actual", lineterm="", n=3,
        )
    )
    if len(lines) > MAX_DIFF_LINES:
        cut = len(lines) - MAX_DIFF_LINES
        lines = [*lines[:MAX_DIFF_LINES], f"… {cut} more diff lines (see the JSON report)"]
    return lines


def _anchor(*parts: str) -> str:
    return "-".join(re.sub(r"[^A-Za-z0-9_-]+", "_", p) for p in parts)


def _rate(cell: Cell) -> tuple[str, str]:
    """(css class, percentage text) of a matrix cell; the rate is over applicable cases."""
    applicable = cell.total - cell.not_applicable
    if cell.total == 0:
        return "empty", ""
    if applicable == 0:
        return "na", "n/a"
    pct = 100.0 * cell.passed / applicable
    text = f"{pct:.1f} %" if cell.passed != applicable else "100 %"
    if cell.passed == applicable:
        return ("full" if cell.not_applicable == 0 else "partial"), text
    return "failing", text


CSS = """
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:24px;color:#1b1b1b}
h1{font-size:22px;margin:0 0 4px}h2{font-size:18px;margin:28px 0 8px;border-bottom:1px solid #ddd}
h3{font-size:15px;margin:16px 0 6px}.muted{color:#666}
.scroll{overflow-x:auto}table.matrix{border-collapse:collapse;margin:12px 0}
.matrix th,.matrix td{border:1px solid #ccc;padding:3px 4px;font-size:12px;text-align:center;
white-space:nowrap}
.matrix thead th.stage{writing-mode:vertical-rl;transform:rotate(180deg);text-align:left;
vertical-align:bottom;padding:6px 2px;max-height:160px}
code{font-size:12px;background:#f4f4f4;padding:0 2px;border-radius:2px}
.matrix th.port,.matrix td.port{text-align:left;position:sticky;left:0;background:#fff;z-index:1}
.matrix td small{display:block;font-size:11px;color:#444}
td.full{background:#d7f0d8}td.partial{background:#fff1c2}td.failing{background:#f8d0cc}
td.na{background:#eee;color:#777}td.empty{color:#aaa}
td a{color:inherit}
details{border:1px solid #ddd;border-radius:4px;margin:6px 0;padding:4px 8px;background:#fafafa}
details[open]{background:#fff}summary{cursor:pointer}
.status{font-weight:600;color:#b71c1c}
pre{background:#f4f4f4;padding:6px 8px;overflow:auto;max-height:420px;font-size:12px}
.diff .add{color:#1b5e20;background:#e3f6e3}.diff .del{color:#b71c1c;background:#fbe4e2}
.diff .hunk{color:#6a1b9a}
dl{display:grid;grid-template-columns:max-content auto;gap:2px 12px;margin:6px 0}dt{color:#555}
dd{margin:0}.clause{margin:6px 0 12px}.clause p{margin:2px 0 0 0}
.authority{font-size:11px;padding:0 4px;border:1px solid #999;border-radius:3px;color:#333}
"""


def _cell_html(cell: Cell, href: str | None) -> str:
    css, pct = _rate(cell)
    text = escape(cell.render())
    if href:
        text = f'<a href="#{href}">{text}</a>'
    small = f"<small>{escape(pct)}</small>" if pct and css != "na" else ""
    return f'<td class="{css}">{text}{small}</td>'


def _matrix(stages: list[str], rows: list[Row], documents: list[dict[str, Any]]) -> list[str]:
    out = ['<div class="scroll"><table class="matrix" id="matrix">', "<thead><tr>",
           '<th class="port">port</th>']
    out += ["<th>total</th><th>data</th>"] + [f'<th class="stage">{escape(s)}</th>'
                                              for s in stages]
    out += ["</tr></thead><tbody>"]
    for index, (row, document) in enumerate(zip(rows, documents, strict=True)):
        failing_stages = {
            c["stage"] or "(none)" for c in document["cases"] if c["status"] in FAILING
        }
        port_id = _anchor("port", str(index))
        out.append(f'<tr><td class="port"><a href="#{port_id}">{escape(row.port)}</a></td>')
        out.append(_cell_html(row.total, port_id if failing_stages else None))
        out.append(f"<td>{escape(row.data)}</td>")
        for stage in stages:
            href = _anchor("port", str(index), stage) if stage in failing_stages else None
            out.append(_cell_html(row.cells.get(stage, Cell()), href))
        out.append("</tr>")
    out.append("</tbody></table></div>")
    return out


def _clause_links(ids: list[str], known: Mapping[str, ClauseText]) -> str:
    links = []
    for cid in ids:
        if cid in known:
            links.append(f'<a href="#{_anchor("clause", cid)}">{escape(cid)}</a>'
                         + _authority_badge(known[cid].authority))
        else:
            links.append(escape(cid))
    return ", ".join(links) or "–"


def _authority_badge(name: str | None) -> str:
    """` <span class="authority">anchor</span>`: who decided a clause (PROTO-48), or ""."""
    return f' <span class="authority">{escape(name)}</span>' if name else ""


def _diff_html(lines: list[str]) -> str:
    rendered = []
    for line in lines:
        css = ""
        if line.startswith("@@"):
            css = "hunk"
        elif line.startswith("+") and not line.startswith("+++"):
            css = "add"
        elif line.startswith("-") and not line.startswith("---"):
            css = "del"
        text = escape(line)
        rendered.append(f'<span class="{css}">{text}</span>' if css else text)
    return '<pre class="diff">' + "\n".join(rendered) + "</pre>"


def _case_html(
    case: Mapping[str, Any],
    golden: Case | None,
    known: Mapping[str, ClauseText],
    anchor: str,
    open_: bool = False,
) -> str:
    opened = " open" if open_ else ""
    status = escape(case["status"])
    parts = [f'<details id="{anchor}"{opened}><summary><span class="status">[{status}]</span> '
             f"<code>{escape(case['id'])}</code>"]
    if case.get("message"):
        parts.append(f" — {escape(case['message'].splitlines()[0][:300])}")
    parts.append("</summary><dl>")
    if golden is not None:
        parts.append(f"<dt>why</dt><dd>{escape(golden.description)}</dd>")
    parts.append(f"<dt>op</dt><dd><code>{escape(case['op'])}</code></dd>")
    if case.get("source"):
        parts.append(f"<dt>case</dt><dd><code>{escape(case['source'])}</code></dd>")
    parts.append(f"<dt>clauses</dt><dd>{_clause_links(list(case.get('clauses', [])), known)}</dd>")
    mismatch = case.get("mismatch")
    if mismatch:
        parts.append(
            f"<dt>first difference</dt><dd>at <code>{escape(mismatch['path'] or '/')}</code>"
            f"{': ' + escape(mismatch['reason']) if mismatch.get('reason') else ''}; expected "
            f"<code>{escape(json.dumps(mismatch['expected'], ensure_ascii=False))}</code>, actual "
            f"<code>{escape(json.dumps(mismatch['actual'], ensure_ascii=False))}</code></dd>"
        )
    parts.append("</dl>")
    if case.get("message") and "\n" in case["message"]:
        parts.append(f"<pre>{escape(case['message'])}</pre>")
    if golden is not None:
        note, lines = case_diff(golden, answer_of(case))
        parts.append(f'<h3>diff: expected → actual <span class="muted">({escape(note)})</span>'
                     "</h3>")
        parts.append(_diff_html(lines))
        shown = _json(golden.input)
        if len(shown) > MAX_INPUT_CHARS:
            shown = shown[:MAX_INPUT_CHARS] + "\n…"
        parts.append(f"<h3>input</h3><pre>{escape(shown)}</pre>")
    elif "output" in case or "error" in case:
        parts.append(f"<h3>answer</h3><pre>{escape(_json(answer_of(case)))}</pre>")
    if case.get("stderr"):
        parts.append("<h3>adapter stderr</h3><pre>" + escape("\n".join(case["stderr"])) + "</pre>")
    parts.append("</details>")
    return "".join(parts)


def _not_applicable(document: dict[str, Any]) -> list[str]:
    """The port's to-do list: not-applicable cases grouped by reason (missing op or capability)."""
    reasons: dict[str, int] = {}
    for case in document["cases"]:
        if case["status"] == "not_applicable":
            reason = (case.get("message") or "not applicable").splitlines()[0]
            reasons[reason] = reasons.get(reason, 0) + 1
    if not reasons:
        return []
    total = sum(reasons.values())
    rows = "".join(
        f"<li>{count} × {escape(reason)}</li>"
        for reason, count in sorted(reasons.items(), key=lambda item: (-item[1], item[0]))
    )
    return [f'<details class="todo"><summary>{total} not applicable, by reason</summary>'
            f"<ul>{rows}</ul></details>"]


def _port_section(
    index: int,
    document: dict[str, Any],
    goldens: Mapping[str, Case],
    known: Mapping[str, ClauseText],
) -> list[str]:
    c = badge.counts(document)
    port_id = _anchor("port", str(index))
    out = [f'<section id="{port_id}"><h2>{escape(port_label(document))} '
           f"{badge.port_badge(document)}</h2>"]
    command = " ".join(document["adapter"]["command"])
    out.append(
        f'<p class="muted">adapter <code>{escape(command)}</code>; {c["passed"]} passed, '
        f'{c["failing"]} failing, {c["not_applicable"]} not applicable of {c["total"]}; '
        f"spec {escape(document['suite']['specVersion'])}, kit "
        f"{escape(document['hrc']['kitVersion'])}"
        + (f", started {escape(document['startedAt'])}" if document.get("startedAt") else "")
        + "</p>"
    )
    counts = document.get("authority")
    if isinstance(counts, dict) and (line := authority.summary_line(counts)):
        out.append(f"<p>{escape(line)} (passed/judged cases per authority, PROTO-48)</p>")
    check = document.get("dataCheck")
    if check is not None and check["status"] == "failed":
        bad = [f for f in check["files"] if f["status"] in ("stale", "unknown")]
        out.append("<p><b>data check failed (PROTO-29):</b> "
                   + ", ".join(escape(f"{f['name']} ({f['status']})") for f in bad) + "</p>")
    aborted = document.get("aborted")
    if aborted:
        out.append(f"<p><b>run aborted (PROTO-40):</b> {escape(str(aborted.get('message', '')))}"
                   "</p>")
    out += _not_applicable(document)
    failing = [case for case in document["cases"] if case["status"] in FAILING]
    if not failing:
        out.append("<p>No failing case.</p></section>")
        return out
    by_stage: dict[str, list[Mapping[str, Any]]] = {}
    for case in failing:
        by_stage.setdefault(case["stage"] or "(none)", []).append(case)
    unfolded = False  # the port's first failure on the page is shown open
    for stage in sorted(by_stage, key=lambda s: (s.startswith("profile:"), s)):
        cases = by_stage[stage]
        out.append(f'<h3 id="{_anchor("port", str(index), stage)}">{escape(stage)}: '
                   f"{len(cases)} failing</h3>")
        for case in cases:
            anchor = _anchor("port", str(index), "case", case["id"])
            out.append(_case_html(case, goldens.get(case["id"]), known, anchor, not unfolded))
            unfolded = True
    out.append("</section>")
    return out


def _clauses_section(
    documents: list[dict[str, Any]], known: Mapping[str, ClauseText], clause_url: str | None
) -> list[str]:
    cited = sorted(
        {cid for d in documents for c in d["cases"] if c["status"] in FAILING
         for cid in c.get("clauses", []) if cid in known},
        key=lambda cid: (cid.split("-")[0], int(cid.split("-")[1])),
    )
    if not cited:
        return []
    out = ['<section id="clauses"><h2>Clauses cited by failing cases</h2>']
    for cid in cited:
        entry = known[cid]
        where = f"spec/{entry.clause.file}:{entry.clause.line}"
        if clause_url:
            url = clause_url.format(file=entry.clause.file, line=entry.clause.line, id=cid)
            where = f'<a href="{escape(url)}">{escape(where)}</a>'
        else:
            where = escape(where)
        out.append(f'<div class="clause" id="{_anchor("clause", cid)}"><b>{escape(cid)}</b>'
                   f'{_authority_badge(entry.authority)} <span class="muted">{where}</span>'
                   f'<p>{markdown_inline.to_html(entry.text)}</p></div>')
    out.append("</section>")
    return out


def render(
    documents: list[dict[str, Any]],
    goldens: Mapping[str, Case] | None = None,
    known: Mapping[str, ClauseText] | None = None,
    clause_url: str | None = None,
) -> str:
    """The whole page. `goldens` and `known` default to the reports' goldens and the kit's
    spec; `clause_url` (with `{file}`, `{line}`, `{id}`) links each clause to its source."""
    goldens = golden_cases(documents) if goldens is None else goldens
    known = clause_texts() if known is None else known
    stages, rows = build(documents)
    specs = sorted({d["suite"]["specVersion"] for d in documents})
    body = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>hrc conformance report: {escape(', '.join(r.port for r in rows))}</title>",
        f"<style>{CSS}</style></head><body>",
        "<h1>hrc conformance report</h1>",
        f'<p class="muted">spec {escape(", ".join(specs))}; {len(documents)} port(s). A cell is '
        "passed/total for that stage, with the pass rate over applicable cases; * some cases "
        "not applicable, n/a none. Click a red cell for its failing cases.</p>",
        *_matrix(stages, rows, documents),
    ]
    for index, document in enumerate(documents):
        body += _port_section(index, document, goldens, known)
    body += _clauses_section(documents, known, clause_url)
    body.append("</body></html>")
    return "\n".join(body) + "\n"


class OutputError(Exception):
    """An output path that cannot be written; the message is one line."""


def _write(path: Path, text: str) -> None:
    try:
        atomic_write.write_text(path, text)  # PROTO-49
    except OSError as exc:
        raise OutputError(f"cannot write {errors.os_message(exc, path)}") from exc


def badge_targets(documents: list[dict[str, Any]], where: Path) -> list[tuple[Path, str]]:
    """(file, svg) per report: `where` is the file when it ends in `.svg` (one report only),
    else a directory holding one `<port>.svg` per report."""
    if where.suffix.lower() == ".svg":
        if len(documents) != 1:
            raise OutputError(
                f"{where}: one badge file needs one report ({len(documents)} given); "
                "name a directory to get one badge per port"
            )
        return [(where, badge.port_badge(documents[0]))]
    if where.exists() and not where.is_dir():
        raise OutputError(f"{where}: not a directory (name a .svg file or a directory)")
    return [(where / badge.file_name(port_label(d)), badge.port_badge(d)) for d in documents]


def write_outputs(
    documents: list[dict[str, Any]],
    html: Path | None,
    badges: Path | None,
    clause_url: str | None = None,
) -> list[Path]:
    """Write the HTML page and/or the badges; every target is checked before anything is written."""
    if clause_url is not None:
        try:
            clause_url.format(file="rrf.md", line=1, id="RRF-1")
        except (KeyError, IndexError, ValueError) as exc:
            raise OutputError(
                f"--clause-url {clause_url!r}: use only {{file}}, {{line}} and {{id}} ({exc!r})"
            ) from exc
    targets: list[tuple[Path, str | None]] = []
    if badges is not None:
        targets += badge_targets(documents, badges)
    if html is not None:
        targets.append((html, None))
    for path, text in targets:
        if path.parent == badges and badges.suffix.lower() != ".svg":
            continue  # the badge directory is created below
        try:  # PROTO-44: checked before anything is written
            errors.check_writable(path, "--html" if text is None else "--badge")
        except errors.HrcError as exc:
            raise OutputError(str(exc)) from exc
    if badges is not None and badges.suffix.lower() != ".svg":
        try:
            badges.mkdir(parents=False, exist_ok=True)
        except OSError as exc:
            raise OutputError(f"--badge {badges}: cannot create: {exc.strerror or exc}") from exc
    written: list[Path] = []
    for path, text in targets:
        _write(path, text if text is not None else render(documents, clause_url=clause_url))
        written.append(path)
    return written
