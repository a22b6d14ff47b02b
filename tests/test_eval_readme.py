"""The README's `hrc eval` table is the output of tools/readme_eval_table.py, not typed by hand."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _tool() -> object:
    path = ROOT / "tools" / "readme_eval_table.py"
    spec = importlib.util.spec_from_file_location("readme_eval_table", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["readme_eval_table"] = module
    spec.loader.exec_module(module)
    return module


def test_readme_eval_table_is_current() -> None:
    """Regenerate with `python tools/readme_eval_table.py --write` (METRIC-11 means)."""
    tool = _tool()
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert tool.readme_block(readme) == tool.table()  # type: ignore[attr-defined]


def test_every_judged_path_exists_in_the_demo_corpus() -> None:
    """A typo in a judged path would silently lower every mode's recall."""
    from conformance.reports.eval_trec import read_qrels, read_queries

    qrels = read_qrels(ROOT / "corpus/demo-qrels/qrels.txt")
    queries = read_queries(ROOT / "corpus/demo-qrels/queries.tsv")
    assert len(queries) >= 30 and set(qrels) == set(queries)
    corpus = ROOT / "corpus/demo"
    missing = sorted(d for j in qrels.values() for d in j if not (corpus / d).is_file())
    assert missing == []
