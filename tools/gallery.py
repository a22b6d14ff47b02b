"""Rebuild the conformance gallery of ports/wild/ (issue 28): popular RRF and metrics code,
each library in a virtualenv of its own, run through the suite and tabulated.

    python tools/gallery.py install [LIB ...]  # .gallery/LIB/venv from ports/wild/LIB/*.lock
    python tools/gallery.py run [LIB ...]      # hrc run -> ports/wild/LIB/report.json
    python tools/gallery.py render             # ports/wild/README.md's matrices from the reports
    python tools/gallery.py check              # exit 1 when README.md is not what render writes
    python tools/gallery.py all                # install, run, render: refresh the gallery
    python tools/gallery.py verify             # install, run elsewhere, check (`tox -e gallery`)

`install` and `run` need PyPI (hashed locks, `--no-deps`); `render` and `check` read only the
committed reports, so tests/test_gallery.py runs without any install.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from conformance.common import atomic_write  # noqa: E402
from conformance.judging import authority  # noqa: E402
from conformance.reports.matrix import build, markdown_text, render_markdown  # noqa: E402
from conformance.reports.report import load  # noqa: E402
from conformance.running.results import FAILING  # noqa: E402

WILD = ROOT / "ports" / "wild"
GALLERY = ROOT / ".gallery"
README = WILD / "README.md"
#: The libraries, in the order of the matrix rows.
LIBRARIES = ("ranx", "ir-measures", "llamaindex", "haystack", "langchain", "qdrant", "lancedb")
#: The golden cases the gallery runs: the two operations a fusion or evaluation library can have.
SELECT = ("rrf", "metrics")
#: Runner timeouts (s) per library, default 10 per case: ranx compiles its numba kernels at
#: start-up (its adapter warms them before hello: over 30 s in a fresh virtualenv) and for each
#: new argument type, so it gets longer ones; a library that hangs still ends as `timed_out`.
TIMEOUTS = {"ranx": ("120", "600")}
BEGIN = "<!-- gallery:begin (written by tools/gallery.py render; do not edit) -->"
END = "<!-- gallery:end -->"


def venv_python(lib: str) -> Path:
    return GALLERY / lib / "venv" / "bin" / "python"


def adapter_command(lib: str) -> str:
    """The adapter command line, relative to the repository root (reports stay portable)."""
    python = venv_python(lib).relative_to(ROOT)
    return f"{python} {(WILD / lib / 'adapter.py').relative_to(ROOT)}"


def report_path(lib: str, reports: Path | None = None) -> Path:
    """The committed report of `lib`, or `reports/LIB.json` for a fresh run elsewhere."""
    return WILD / lib / "report.json" if reports is None else reports / f"{lib}.json"


def install(lib: str) -> None:
    """A fresh virtualenv holding exactly the hashed lock; skipped when the lock is unchanged."""
    lock = WILD / lib / "requirements.lock"
    digest = hashlib.sha256(lock.read_bytes()).hexdigest()
    stamp = GALLERY / lib / "lock.sha256"
    if venv_python(lib).exists() and stamp.exists() and stamp.read_text().strip() == digest:
        print(f"gallery: {lib}: up to date", flush=True)
        return
    shutil.rmtree(GALLERY / lib, ignore_errors=True)
    (GALLERY / lib).mkdir(parents=True)
    print(f"gallery: {lib}: installing {lock.relative_to(ROOT)}", flush=True)
    subprocess.run([sys.executable, "-m", "venv", str(GALLERY / lib / "venv")], check=True)
    pip = [str(venv_python(lib)), "-m", "pip", "--disable-pip-version-check", "--quiet"]
    subprocess.run([*pip, "install", "--require-hashes", "--no-deps", "-r", str(lock)],
                   check=True)
    subprocess.run([*pip, "check"], check=True)
    stamp.write_text(digest + "\n")


def install_all(libs: Sequence[str]) -> None:
    """`install` for each library, three at a time (downloads overlap); the first failure
    stops the step."""
    with ThreadPoolExecutor(max_workers=3) as pool:
        for future in [pool.submit(install, lib) for lib in libs]:
            future.result()


def run(lib: str, reports: Path | None = None) -> None:
    """`hrc run` of the rrf and metrics cases; a failing case is a finding, not an error."""
    hrc = Path(sys.executable).parent / "hrc"
    command = [str(hrc) if hrc.exists() else "hrc", "run", "--quiet", "--golden", "golden",
               "--timeout", TIMEOUTS.get(lib, ("10", "30"))[0],
               "--handshake-timeout", TIMEOUTS.get(lib, ("10", "30"))[1],
               "--adapter", adapter_command(lib),
               "--report-json", str(report_path(lib, reports))]
    for pattern in SELECT:
        command += ["--select", pattern]
    print(f"gallery: {lib}: {shlex.join(command)}", flush=True)
    done = subprocess.run(command, cwd=ROOT, env={**os.environ, "PYTHONHASHSEED": "0"},
                          capture_output=True, text=True)
    footer = [line for line in done.stdout.splitlines() if line.startswith("hrc:")]
    print(f"gallery: {lib}: exit {done.returncode}: {footer[-1] if footer else ''}", flush=True)
    if done.returncode not in (0, 1):  # 2: the run could not happen (PROTO-40)
        sys.stderr.write(done.stdout[-4000:] + done.stderr[-4000:])
        raise SystemExit(f"gallery: {lib}: hrc run failed with exit {done.returncode}")


def clause_table(documents: Sequence[tuple[str, dict[str, Any]]]) -> str:
    """Clauses x libraries: `passed/judged` over the cases citing the clause (PROTO-48's
    counting: not-applicable cases are not judged); `n/a` when none was judged."""
    index: Mapping[str, str] = authority.index_for()
    tallies: dict[str, dict[str, list[int]]] = {}
    for lib, document in documents:
        for case in document["cases"]:
            judged = case["status"] == "passed" or case["status"] in FAILING
            for clause in case.get("clauses", ()):
                cell = tallies.setdefault(clause, {}).setdefault(lib, [0, 0])
                if judged:
                    cell[0] += case["status"] == "passed"
                    cell[1] += 1
    libs = [lib for lib, _ in documents]
    lines = ["| clause | authority | " + " | ".join(libs) + " |",
             "|---|---|" + "|".join([":---:"] * len(libs)) + "|"]
    for clause in sorted(tallies, key=_clause_key):
        if not any(judged for _, judged in tallies[clause].values()):
            continue  # no library declares what its cases need
        cells = []
        for lib in libs:
            passed, judged = tallies[clause].get(lib, [0, 0])
            text = "n/a" if judged == 0 else f"{passed}/{judged}"
            cells.append(f"**{text}**" if passed < judged else text)
        lines.append(f"| {clause} | {index.get(clause, '?')} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def _clause_key(clause: str) -> tuple[str, int]:
    prefix, _, number = clause.rpartition("-")
    return (prefix, int(number) if number.isdigit() else 0)


def rendered(reports: Path | None = None) -> str:
    """The generated block of ports/wild/README.md, from the committed reports (or those in
    `reports`). Only hello fields and case outcomes enter it, never durations."""
    documents = [(lib, load(report_path(lib, reports))) for lib in LIBRARIES]
    stages, rows = build([doc for _, doc in documents])
    def cell(value: Any) -> str:  # a report's hello text is inert Markdown (issue 39)
        return markdown_text(str(value))

    versions = "\n".join(
        f"| [`{lib}`]({lib}/) | {cell(doc['adapter'].get('name', '?'))} "
        f"{cell(doc['adapter'].get('version', '?'))} "
        f"| {', '.join(cell(o) for o in doc['adapter'].get('operations', []))} "
        f"| {', '.join(cell(c) for c in doc['adapter'].get('capabilities', [])) or '–'} "
        f"| {doc['summary']['passed']} passed, "
        f"{sum(doc['summary'][s] for s in FAILING)} failing, "
        f"{doc['summary']['not_applicable']} not applicable "
        f"| [FINDINGS]({lib}/FINDINGS.md) |"
        for lib, doc in documents
    )
    return "\n".join([
        BEGIN,
        "",
        "| library | wrapped | operations | capabilities | cases | findings |",
        "|---|---|---|---|---|---|",
        versions,
        "",
        "### Stages",
        "",
        render_markdown(stages, rows).rstrip("\n"),
        "",
        "### Clauses",
        "",
        "`passed/judged` of the cases citing each clause; **bold** where a case failed; `n/a`"
        " where none was judged (operation or capability not declared).",
        "",
        clause_table(documents).rstrip("\n"),
        "",
        END,
    ]) + "\n"


def render(check: bool, reports: Path | None = None) -> int:
    """Write the generated block of README.md, or (`check`) exit 1 when it differs."""
    text = README.read_text(encoding="utf-8")
    start, end = text.find(BEGIN), text.find(END)
    if start < 0 or end < 0:
        print(f"{README.relative_to(ROOT)}:1: gallery markers missing", file=sys.stderr)
        return 2
    new = text[:start] + rendered(reports) + text[end + len(END) + 1:]
    if check:
        if new != text:
            line = text[:start].count("\n") + 1
            source = "the committed reports" if reports is None else f"the reports in {reports}"
            print(f"{README.relative_to(ROOT)}:{line}: the gallery matrix is not what {source} "
                  "give; run `python tools/gallery.py all` and commit", file=sys.stderr)
            return 1
        return 0
    atomic_write.write_text(README, new)  # PROTO-49
    print(f"gallery: wrote {README.relative_to(ROOT)}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tools/gallery.py", description=__doc__.split("\n")[0])
    parser.add_argument("step", choices=("install", "run", "render", "check", "all", "verify"))
    parser.add_argument("libs", nargs="*", metavar="LIB", help=f"default: {' '.join(LIBRARIES)}")
    parser.add_argument("--reports", type=Path, metavar="DIR",
                        help="verify: write the fresh reports here (default: a temporary folder)")
    args = parser.parse_args(argv)
    unknown = [lib for lib in args.libs if lib not in LIBRARIES]
    if unknown:
        parser.error(f"unknown library {unknown[0]!r}; known: {', '.join(LIBRARIES)}")
    libs = args.libs or list(LIBRARIES)
    if args.step == "verify":  # the committed matrix is what a fresh rebuild gives
        if args.libs:
            parser.error("verify rebuilds every library")
        with tempfile.TemporaryDirectory() as tmp:
            reports = args.reports or Path(tmp)
            reports.mkdir(parents=True, exist_ok=True)
            install_all(libs)
            for lib in libs:
                run(lib, reports)
            return render(check=True, reports=reports)
    if args.step in ("install", "all"):
        install_all(libs)
    if args.step in ("run", "all"):
        for lib in libs:
            run(lib)
    if args.step in ("render", "all"):
        return render(check=False)
    if args.step == "check":
        return render(check=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
