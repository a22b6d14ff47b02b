"""Print the README's `hrc eval` table for the labelled demo set, or check or rewrite it.

`python tools/readme_eval_table.py` prints the table; `--write` replaces the block between the
README's `<!-- eval-table -->` markers; tests/test_eval_readme.py checks the README is current.
The table is `hrc eval --markdown` on corpus/demo indexed into a temporary database.
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

BEGIN, END = "<!-- eval-table -->", "<!-- /eval-table -->"
COMMAND = ("--qrels", "corpus/demo-qrels/qrels.txt", "--modes", "bm25,semantic,hybrid",
           "--markdown")


def table() -> str:
    """The markdown table, computed now from the demo corpus and its labels."""
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "demo.db"
        quiet = io.StringIO()
        with contextlib.redirect_stdout(quiet):
            if hrc(["index", str(ROOT / "corpus/demo"), "--db", str(db)]) != 0:
                raise SystemExit("indexing corpus/demo failed")
        out = io.StringIO()
        args = ["eval", "--db", str(db), *COMMAND]
        args[args.index("--qrels") + 1] = str(ROOT / "corpus/demo-qrels/qrels.txt")
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            if hrc(args) != 0:
                raise SystemExit("hrc eval failed")
    return out.getvalue().strip()


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
