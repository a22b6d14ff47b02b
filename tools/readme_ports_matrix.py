"""Print the README's compliance matrix of the three adapters, or rewrite it with `--write`.

Each adapter (the reference, `node ports/js/adapter.mjs`, `ports/go/bin/adapter`) runs the
whole suite once (`hrc run --require all --report-json`), and `hrc report --markdown` of the
three reports replaces the block between the README's `<!-- ports-matrix -->` markers. Build
the Go port and run `npm ci` in ports/js first. tests/test_prose_numbers.py checks the block
against the suite's counts, so a new case or a version bump shows up as a stale README.
"""

from __future__ import annotations

import contextlib
import io
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from conformance.cli import main as hrc  # noqa: E402
from tools import readme_markers  # noqa: E402

BEGIN, END = "<!-- ports-matrix -->", "<!-- /ports-matrix -->"
ADAPTERS = (None, "node ports/js/adapter.mjs", "ports/go/bin/adapter")


def table() -> str:
    """The Markdown matrix (table rows only), from one fresh run of each adapter."""
    with tempfile.TemporaryDirectory() as tmp:
        reports = []
        for n, adapter in enumerate(ADAPTERS):
            report = Path(tmp) / f"r{n}.json"
            argv = ["run", "--quiet", "--require", "all", "--report-json", str(report)]
            if adapter is not None:
                argv += ["--adapter", adapter]
            with contextlib.redirect_stdout(io.StringIO()):
                if hrc(argv) != 0:
                    raise SystemExit(f"hrc run failed for {adapter or 'the reference'}")
            reports.append(str(report))
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            hrc(["report", *reports, "--markdown"])
    return out.getvalue().split("\n\n", 1)[0].strip()


def readme_block(text: str) -> str:
    """The table currently between the markers."""
    return readme_markers.block(text, BEGIN, END)


def main(argv: list[str]) -> int:
    current = table()
    if "--write" in argv:
        readme_markers.write_block(current, BEGIN, END, ROOT / "README.md")
    print(current)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
