"""`hrc report --html` and `--badge`: page content, files, and how a real browser shows it.

`test_html_report_in_headless_chromium` opens the page in Debian's Chromium. It needs the
`chromium` package (`.ci/run` installs it): outside CI it is skipped with the reason when the
browser is missing; under CI (`CI` set) a missing browser FAILS the test.
"""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import struct
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from conformance import cli
from conformance.judging import authority
from conformance.reports import badge, html_report

MUTANT = f"{sys.executable} -m conformance.selftest.mutant_adapter rrf-rank-one-based"
SELECT = "rrf/"
IN_CI = bool(os.environ.get("CI"))


def _run(tmp_path: Path, name: str, adapter: str | None) -> Path:
    report = tmp_path / f"{name}.json"
    argv = ["run", "--select", SELECT, "--quiet", "--report-json", str(report)]
    if adapter:
        argv += ["--adapter", adapter]
    cli.main(argv)
    return report


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A passing reference run and a failing broken port, over the same stage."""
    where = tmp_path_factory.mktemp("reports")
    return _run(where, "reference", None), _run(where, "mutant", MUTANT)


def _load(path: Path) -> dict[str, Any]:
    document: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return document


def test_page_has_matrix_failures_diffs_and_clauses(
    reports: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """PROTO-26 One static page: the matrix, every failing case with its diff, the clause texts."""
    out = tmp_path / "report.html"
    assert cli.main(["report", str(reports[0]), str(reports[1]), "--html", str(out)]) == 0
    assert capsys.readouterr().out == f"hrc report: wrote {out}\n"
    page = out.read_text(encoding="utf-8")
    mutant = _load(reports[1])
    failing = [c for c in mutant["cases"] if c["status"] == "failed"]
    assert failing, "the broken port must fail some rrf cases"
    assert page.count('<details id="port-1-case-') == len(failing)
    assert page.count("<details id=") == len(failing)  # the passing port lists none
    assert page.count(" open>") == 1  # the port's first failure is unfolded
    for case in failing:
        assert html.escape(case["id"]) in page
    first = failing[0]
    assert f"expected <code>{html.escape(json.dumps(first['mismatch']['expected']))}</code>" in page
    assert '<span class="del">' in page and '<span class="add">' in page
    for cid in {cid for c in failing for cid in c["clauses"]}:
        assert f'<a href="#clause-{cid}">{cid}</a>' in page
        assert f'<div class="clause" id="clause-{cid}">' in page
    assert "RRF-" in page and "MUST" in page  # the clause text itself is on the page
    # Self-contained: no scripts, no external resources.
    assert "<script" not in page and 'src="' not in page and "http://" not in page.replace(
        'xmlns="http://www.w3.org/2000/svg"', ""
    )
    assert page.count("<svg ") == 2  # one badge per port


def test_clause_url_template_links_each_clause(
    reports: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "report.html"
    template = "https://example.invalid/spec/{file}#L{line}"
    assert cli.main(["report", str(reports[1]), "--html", str(out), "--clause-url", template]) == 0
    capsys.readouterr()
    page = out.read_text(encoding="utf-8")
    assert re.search(r'href="https://example\.invalid/spec/rrf\.md#L[0-9]+"', page)


def test_each_clause_shows_its_authority(
    reports: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """PROTO-48 Each clause a failing case cites is shown with its authority, in the case's
    clause links and in the quoted clause text."""
    out = tmp_path / "report.html"
    assert cli.main(["report", str(reports[1]), "--html", str(out)]) == 0
    capsys.readouterr()
    page = out.read_text(encoding="utf-8")
    index = authority.index_for()
    failing = [c for c in _load(reports[1])["cases"] if c["status"] == "failed"]
    line = authority.summary_line(_load(reports[1])["authority"])
    assert line.startswith("authority: ") and f"<p>{html.escape(line)} (passed/judged" in page
    for cid in {cid for c in failing for cid in c["clauses"]}:
        badge_html = f'<span class="authority">{index[cid]}</span>'
        assert f'<a href="#clause-{cid}">{cid}</a> {badge_html}' in page
        assert f'id="clause-{cid}"><b>{cid}</b> {badge_html}' in page


def test_partial_cases_diff_only_the_listed_fields() -> None:
    """A `partial` case's diff leaves out fields the case does not list (golden/README.md)."""
    expected = {"results": [{"id": "a", "score": 1.0}], "n": 1}
    actual = {"results": [{"id": "a", "score": 2.0, "extra": 1}, {"id": "b"}], "n": 1, "x": 0}
    assert html_report.shaped(expected, actual) == {
        "results": [{"id": "a", "score": 2.0}, {"id": "b"}], "n": 1
    }


def test_badges_colour_and_text() -> None:
    """PROTO-29 Green: all passed; yellow: nothing failed, some not applicable; red: failures
    or a failed data check."""
    def doc(*statuses: str, data: str = "ok") -> dict[str, Any]:
        return {"suite": {"specVersion": "2.0.0"}, "dataCheck": {"status": data, "files": []},
                "cases": [{"status": s} for s in statuses]}

    assert badge.colour(doc("passed", "passed")) == badge.GREEN
    assert badge.colour(doc("passed", "not_applicable")) == badge.YELLOW
    assert badge.colour(doc("passed", "crashed")) == badge.RED
    assert badge.colour(doc("passed", "xpass")) == badge.RED
    assert badge.colour(doc("passed", data="failed")) == badge.RED
    assert badge.message(doc("passed", "not_applicable")) == "1/2 passed"
    assert badge.message(doc("passed", data="failed")) == "1/1 passed, data stale"
    svg = badge.port_badge(doc("passed"))
    assert svg.startswith('<svg xmlns="http://www.w3.org/2000/svg"')
    assert 'aria-label="hrc 2.0.0: 1/1 passed"' in svg and badge.GREEN in svg
    assert badge.file_name("hrc-js 0.1.0") == "hrc-js-0.1.0.svg"
    assert badge.file_name("../x") == "x.svg"


def test_badge_file_and_directory(
    reports: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    one = tmp_path / "reference.svg"
    assert cli.main(["report", str(reports[0]), "--badge", str(one)]) == 0
    assert badge.GREEN in one.read_text(encoding="utf-8")
    many = tmp_path / "badges"
    assert cli.main(["report", str(reports[0]), str(reports[1]), "--badge", str(many)]) == 0
    names = sorted(p.name for p in many.iterdir())
    from conformance import __version__ as kit

    assert names == [f"hrc-mutant-rrf-rank-one-based-{kit}.svg", f"hrc-reference-{kit}.svg"]
    assert badge.RED in (many / names[0]).read_text(encoding="utf-8")
    capsys.readouterr()


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--badge", "{tmp}/one.svg"], "one badge file needs one report (2 given)"),
        (["--html", "{tmp}/missing/r.html"], "--html {tmp}/missing/r.html: folder"),
        (["--html", "{tmp}/ok.html", "--badge", "{tmp}/missing/badges"], "cannot create"),
        (["--html", "{tmp}/ok.html", "--clause-url", "x/{path}"], "use only {file}, {line}"),
    ],
)
def test_bad_output_paths_are_one_line_and_exit_2(
    reports: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str],
    extra: list[str], message: str,
) -> None:
    """Nothing is written when one target is bad; the error is one line with one prefix."""
    argv = ["report", str(reports[0]), str(reports[1])]
    argv += [a.replace("{tmp}", str(tmp_path)) for a in extra]
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    message = message.replace("{tmp}", str(tmp_path))
    assert err.startswith("hrc report: error: ") and message in err and err.count("\n") == 1
    assert not (tmp_path / "ok.html").exists()


def _chromium() -> str:
    found = os.environ.get("HRC_CHROMIUM") or shutil.which("chromium") or (
        "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None
    )
    if found:
        return found
    message = "chromium is not installed (apt-get install -y chromium)"
    if IN_CI:
        pytest.fail(f"{message}: CI must run the browser test (.ci/run installs it)")
    pytest.skip(message)


def _browser(chromium: str, profile: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
         "--no-first-run", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", f"--user-data-dir={profile}", "--window-size=1280,900", *args],
        capture_output=True, text=True, timeout=180, check=False, stdin=subprocess.DEVNULL,
    )


#: Run in the browser on a copy of the page (the page itself has no script): layout facts.
PROBE = """<script>
const table = document.getElementById('matrix');
const open = document.querySelector('details[open]');
const diff = open.querySelector('pre.diff');
const probe = {
  viewport: document.documentElement.clientWidth,
  tableRight: table.getBoundingClientRect().right,
  rows: table.tBodies[0].rows.length,
  badges: [...document.querySelectorAll('svg')].map(s => s.getBoundingClientRect().width),
  openIds: [...document.querySelectorAll('details[open]')].map(d => d.id),
  diffHeight: diff.getBoundingClientRect().height,
  delColour: getComputedStyle(diff.querySelector('.del')).color,
  failingCell: getComputedStyle(table.querySelector('td.failing')).backgroundColor,
  fullCell: getComputedStyle(table.querySelector('td.full')).backgroundColor,
  deadLinks: [...document.querySelectorAll('a[href^="#"]')]
    .filter(a => !document.getElementById(a.getAttribute('href').slice(1))).length,
};
document.body.setAttribute('data-probe', JSON.stringify(probe));
</script>"""


@pytest.mark.slow
@pytest.mark.browser
def test_html_report_in_headless_chromium(
    reports: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """CHROMIUM REQUIRED IN CI. The page renders in a real browser: matrix within the window,
    coloured cells, badges drawn, the first failure open with its diff, no dead in-page link;
    the screenshot is kept in the test's output directory and its path printed."""
    chromium = _chromium()
    page = tmp_path / "report.html"
    assert cli.main(["report", str(reports[0]), str(reports[1]), "--html", str(page)]) == 0
    capsys.readouterr()

    shot = tmp_path / "report.png"
    done = _browser(chromium, tmp_path / "profile-1", f"--screenshot={shot}", page.as_uri())
    assert done.returncode == 0 and shot.is_file(), done.stderr[-2000:]
    header = shot.read_bytes()[:24]
    assert header[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", header[16:24]) == (1280, 900)
    with capsys.disabled():
        print(f"\nhrc report --html screenshot: {shot}")

    probed = tmp_path / "probed.html"
    probed.write_text(
        page.read_text(encoding="utf-8").replace("</body>", PROBE + "</body>"), encoding="utf-8"
    )
    done = _browser(chromium, tmp_path / "profile-2", "--dump-dom", probed.as_uri())
    assert done.returncode == 0, done.stderr[-2000:]
    match = re.search(r'data-probe="([^"]*)"', done.stdout)
    assert match, "the browser did not run the probe: " + done.stdout[:500]
    probe = json.loads(html.unescape(match.group(1)))
    mutant = _load(reports[1])
    first_failing = next(c["id"] for c in mutant["cases"] if c["status"] == "failed")
    assert probe["rows"] == 2
    assert probe["tableRight"] <= probe["viewport"], "the matrix must fit a 1280 px window"
    assert len(probe["badges"]) == 2 and all(w > 80 for w in probe["badges"])
    assert probe["openIds"] == [f"port-1-case-{re.sub(r'[^A-Za-z0-9_-]+', '_', first_failing)}"]
    assert probe["diffHeight"] > 40
    assert probe["delColour"] == "rgb(183, 28, 28)"
    assert probe["failingCell"] == "rgb(248, 208, 204)"
    assert probe["fullCell"] == "rgb(215, 240, 216)"
    assert probe["deadLinks"] == 0


def test_the_selected_stage_has_cases(reports: tuple[Path, Path]) -> None:
    """The fixture's selection must hold cases, or the tests above would test nothing."""
    assert len(_load(reports[0])["cases"]) > 50


def test_not_applicable_cases_are_grouped_by_reason() -> None:
    """PROTO-7 The page lists the port's to-do list: not-applicable cases counted by reason."""
    missing = "operation 'normalise' is not declared by the adapter"
    document = {"cases": [
        {"status": "not_applicable", "message": missing},
        {"status": "not_applicable", "message": missing},
        {"status": "not_applicable", "message": "capability 'sqlite-fts5' is not declared"},
        {"status": "passed"},
    ]}
    (block,) = html_report._not_applicable(document)
    assert "<summary>3 not applicable, by reason</summary>" in block
    assert block.index(f"2 × {html.escape(missing)}") < block.index("1 × capability")


def test_every_clause_has_its_own_text_on_the_page() -> None:
    """The page quotes each clause's own bullet: never empty, never the line above it (a
    definition after a blank line was once found one line too early, with empty text)."""
    texts = html_report.clause_texts()
    assert len(texts) > 300
    wrong = {cid: t.text[:40] for cid, t in texts.items()
             if not t.text.startswith(f"**{cid}**") or len(t.text) <= len(cid) + 6}
    assert wrong == {}
    # The `spec/FILE:LINE` the page links to is the line that defines the clause.
    spec = Path(html_report.__file__).resolve().parents[2] / "spec"
    for cid, t in texts.items():
        line = (spec / t.clause.file).read_text(encoding="utf-8").splitlines()[t.clause.line - 1]
        assert f"**{cid}**" in line, (cid, t.clause)


@pytest.mark.slow
@pytest.mark.browser
def test_a_matrix_of_every_stage_fits_1400_px(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 38: the three-port matrix of every stage and profile was wider than 1400 px. With
    vertical stage headers it fits a 1400 px window (three runs of the whole suite)."""
    chromium = _chromium()
    run = tmp_path / "reference.json"
    assert cli.main(["run", "--quiet", "--report-json", str(run)]) in (0, 1)
    page = tmp_path / "report.html"
    assert cli.main(["report", str(run), str(run), str(run), "--html", str(page)]) == 0
    capsys.readouterr()
    probe = ("<script>const t = document.getElementById('matrix');"
             "document.body.setAttribute('data-width', JSON.stringify("
             "[t.getBoundingClientRect().width, document.documentElement.clientWidth]));"
             "</script>")
    probed = tmp_path / "probed.html"
    probed.write_text(page.read_text(encoding="utf-8").replace("</body>", probe + "</body>"),
                      encoding="utf-8")
    done = _browser(chromium, tmp_path / "profile", "--window-size=1400,900", "--dump-dom",
                    probed.as_uri())
    assert done.returncode == 0, done.stderr[-2000:]
    match = re.search(r'data-width="([^"]*)"', done.stdout)
    assert match, done.stdout[:500]
    width, viewport = json.loads(html.unescape(match.group(1)))
    assert width <= viewport, f"the matrix is {width} px wide in a {viewport} px window"
