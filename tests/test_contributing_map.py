"""CONTRIBUTING.md's map (one row per chapter: prefixes, reference, operations, broken ports,
tests, JS, Go) stays true: a newcomer finds a chapter's files by the map alone."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conformance.selftest.broken_ports import MUTANTS

ROOT = Path(__file__).resolve().parent.parent
BROKEN = "conformance/selftest/broken_ports"
COLUMNS = ("chapter", "prefixes", "reference", "operations", "broken", "tests", "js", "go")
_CLAUSE = re.compile(r"^- \*\*([A-Z]+)-\d+\*\*", re.MULTILINE)


def _rows() -> list[dict[str, list[str]]]:
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    block = text.split("<!-- map:begin -->", 1)[1].split("<!-- map:end -->", 1)[0]
    rows = []
    for line in block.strip().splitlines()[2:]:
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        assert len(cells) == len(COLUMNS), line
        pairs = zip(COLUMNS, cells, strict=True)
        row = {name: re.findall(r"`([^`]+)`", cell) for name, cell in pairs}
        row["chapter"] = row["chapter"] or [cells[0]]
        row["prefixes"] = [p.strip() for p in cells[1].split(",") if p.strip() != "—"]
        row["broken"] = [f"{BROKEN}/{p}" for p in row["broken"] if "/" not in p]
        rows.append(row)
    return rows


ROWS = _rows()


def _files(pattern: str) -> set[Path]:
    return {p for p in ROOT.glob(pattern) if p.is_file()}


def _chapters() -> dict[str, set[str]]:
    out = {}
    for path in [*sorted(ROOT.glob("spec/*.md")), *sorted(ROOT.glob("spec/profiles/*.md"))]:
        prefixes = set(_CLAUSE.findall(path.read_text(encoding="utf-8")))
        if prefixes:
            out[str(path.relative_to(ROOT))] = prefixes
    return out


def test_every_chapter_has_one_row_with_its_clause_prefixes() -> None:
    chapters = _chapters()
    mapped = {r["chapter"][0]: set(r["prefixes"]) for r in ROWS if r["chapter"][0] != "(shared)"}
    assert mapped == chapters


@pytest.mark.parametrize("row", ROWS, ids=[r["chapter"][0] for r in ROWS])
def test_every_path_of_a_row_names_files(row: dict[str, list[str]]) -> None:
    for column in COLUMNS[2:]:
        for pattern in row[column]:
            assert _files(pattern), f"{row['chapter'][0]}: {column} {pattern} names no file"
    assert row["tests"], f"{row['chapter'][0]} lists no test"


def test_every_source_module_is_on_the_map() -> None:
    mapped: set[Path] = set()
    for row in ROWS:
        for column in COLUMNS[2:]:
            for pattern in row[column]:
                mapped |= _files(pattern)
    sources = (
        _files("reference/**/*.py")
        | _files("conformance/adapters/ops/*.py")
        | _files(f"{BROKEN}/*.py")
        | _files("ports/js/src/**/*.mjs")
        | {p for p in _files("ports/go/hrc/*.go") if not p.name.endswith("_test.go")}
    )
    assert sorted(str(p.relative_to(ROOT)) for p in sources - mapped) == []


def test_each_broken_port_lives_where_its_clause_row_says() -> None:
    by_prefix: dict[str, set[Path]] = {}
    for row in ROWS:
        modules = {p for pattern in row["broken"] for p in _files(pattern)}
        for prefix in row["prefixes"]:
            by_prefix.setdefault(prefix, set()).update(modules)
    misplaced = []
    for m in MUTANTS.values():
        module = ROOT / BROKEN / (m.apply.__module__.rsplit(".", 1)[1] + ".py")
        if module not in by_prefix.get(m.clause.rsplit("-", 1)[0], set()):
            misplaced.append(f"{m.name} ({m.clause}) in {module.name}")
    assert misplaced == []
