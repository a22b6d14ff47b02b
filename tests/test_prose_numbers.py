"""Numbers the documentation states about the kit as it is now, checked against the kit.

A count written by hand rots the day a case is added; each one here is either generated (the
README's ports matrix: `python tools/readme_ports_matrix.py --write`) or recomputed below, so a
stale number fails a test instead of misleading a porter.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

from conformance.adapters.adapter_reference import hello_message
from conformance.adapters.ops import registry
from conformance.adapters.protocol import Hello
from conformance.commands import init_port as scaffold
from conformance.common.version import kit_version
from conformance.judging.cases import load_all
from conformance.reports.matrix import stage_order
from reference import SPEC_VERSION

ROOT = Path(__file__).resolve().parent.parent


def _text(rel: str) -> str:
    return (ROOT / rel).read_text(encoding="utf-8")


def _go_port_version() -> str:
    found = re.findall(r'"version": "([^"]+)"', _text("ports/go/cmd/adapter/main.go"))
    assert len(found) == 1
    return found[0]


def test_readme_ports_matrix_matches_the_suite_and_the_ports_versions() -> None:
    """Every stage column and the total are the suite's counts; each row names the port's
    current version (regenerate with tools/readme_ports_matrix.py --write)."""
    text = _text("README.md")
    block = text.split("<!-- ports-matrix -->", 1)[1].split("<!-- /ports-matrix -->", 1)[0]
    header, _, *rows = [line.strip("|").split(" | ") for line in block.strip().splitlines()]
    header = [h.strip() for h in header]
    counts = Counter(c.stage or "(none)" for c in load_all())
    stages = sorted(counts, key=stage_order)
    assert header == ["port", *stages, "total", "data"]
    expected = [f"{counts[s]}/{counts[s]}" for s in stages] + [f"{sum(counts.values())}/"
                                                               f"{sum(counts.values())}", "ok"]
    js = json.loads(_text("ports/js/package.json"))["version"]
    labels = [f"hrc-reference {kit_version()}", f"hrc-js {js}", f"hrc-go {_go_port_version()}"]
    assert [row[0].strip() for row in rows] == labels
    for row in rows:
        assert [cell.strip() for cell in row[1:]] == expected, row[0]


def test_js_port_without_npm_ci_not_applicable_count() -> None:
    """ports/README.md: the cases the JS port reports not_applicable without its optional
    SQLite dependency (it drops three operations and `sqlite-fts5`, ports/js/src/ops.mjs)."""
    ops_src = _text("ports/js/src/ops.mjs")
    dropped_ops = json.loads(re.search(r"SQLITE_OPERATIONS = (\[[^\]]*\])", ops_src)
                             .group(1).replace("'", '"'))  # type: ignore[union-attr]
    dropped_caps = json.loads(re.search(r"SQLITE_CAPABILITIES = (\[[^\]]*\])", ops_src)
                              .group(1).replace("'", '"'))  # type: ignore[union-attr]
    full = hello_message(registry())
    hello = Hello.from_message({
        **full,
        "operations": [o for o in full["operations"] if o not in dropped_ops],
        "capabilities": [c for c in full["capabilities"] if c not in dropped_caps],
    })
    skipped = [c.id for c in load_all() if hello.not_applicable_reason(c.op, c.requires)]
    demo = sum(cid.startswith("e2e/demo/") for cid in skipped)
    said = re.search(r"those cases \((\d+), the (\d+) `e2e/demo/\*` among them\)",
                     _text("ports/README.md"))
    assert said is not None, "ports/README.md no longer states the count this test checks"
    assert (int(said.group(1)), int(said.group(2))) == (len(skipped), demo)


def test_hello_examples_carry_the_current_spec_version() -> None:
    for rel in ("ports/README.md", "spec/adapter-protocol.md"):
        versions = re.findall(r'"specVersion":"([^"]+)"', _text(rel))
        assert versions and set(versions) == {SPEC_VERSION}, rel


def test_java_versions_agree() -> None:
    """The scaffold runs on Java 17; shortest floats need the Java that ports/README names."""
    readme = re.findall(r"Java (\d+)\+ `Double.toString`", _text("ports/README.md"))
    note = scaffold.LANGUAGES["java"].tools
    assert re.match(r"javac and java \(17 or later", note)
    assert readme and re.findall(r"(\d+) or later, whose `Double.toString`", note) == readme


def test_readme_counts_of_broken_ports_and_labelled_queries() -> None:
    from conformance.reports.eval_trec import read_queries
    from conformance.selftest.broken_ports import MUTANTS

    text = _text("README.md")
    assert re.findall(r"(\d+) deliberately broken ports", text) == [str(len(MUTANTS))]
    assert re.findall(r"each of the (\d+) fails at least two distinct cases", text) == [
        str(len(MUTANTS))
    ]
    queries = read_queries(ROOT / "corpus" / "demo-qrels" / "queries.tsv")
    assert re.findall(r"`corpus/demo-qrels/` holds (\d+) queries", text) == [str(len(queries))]


def test_the_porter_checklist_cites_exact_arithmetic_only_where_the_spec_orders_exactly() -> None:
    """Issue 38: the trap checklist still sent RRF-6 to big-integer fractions after 3.0.0 made
    it order by the emitted float. A checklist line about exact values or fractions cites only
    clauses whose text says `exact`, and never one that orders by the emitted score."""
    text = _text("ports/README.md")
    checklist = [line for line in text.split("\n- [ ] ") if line.startswith("**")]
    assert checklist
    for item in checklist:
        claim = item.split("No fractions")[0]
        if not re.search(r"big-integer|fraction|[Ee]xact arithmetic", claim):
            continue
        for cid in re.findall(r"\b[A-Z]+-\d+\b", item):
            body = _clause_text(cid)
            assert "exact" in body.lower(), f"{cid} is cited for exact arithmetic: {body[:80]}"
            assert "ordered by the emitted score" not in body, cid


def _clause_text(cid: str) -> str:
    (text,) = [t for p in sorted((ROOT / "spec").glob("*.md"))
               if f"- **{cid}**" in (t := p.read_text(encoding="utf-8"))]
    start = text.index(f"- **{cid}**")
    end = text.find("\n- **", start)
    return text[start:end if end != -1 else None]
