"""The seed systems' own code, measured (ports/systems/): the committed report of each system was
taken on this suite, the real code fails exactly the cases its expected-failures file lists,
and every listed reason names a departure the profile chapter records. None of this needs the
system: re-measuring does (ports/systems/README.md).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from conformance.judging.cases import load_all
from conformance.judging.profiles import version

ROOT = Path(__file__).resolve().parent.parent
SYSTEMS = ROOT / "ports" / "systems"
NAMES = sorted(
    p.name for p in SYSTEMS.iterdir() if (p / "adapter.mjs").exists() or (p / "adapter.py").exists()
)
REMEASURE = "re-measure the system (ports/systems/README.md)"


def _report(name: str) -> dict[str, Any]:
    document: dict[str, Any] = json.loads((SYSTEMS / name / "report.json").read_text("utf-8"))
    return document


def _expected(name: str) -> list[dict[str, str]]:
    text = (SYSTEMS / name / "expected-failures.yaml").read_text("utf-8")
    entries: list[dict[str, str]] = yaml.safe_load(text)
    return entries


def _chapter(name: str) -> str:
    return (ROOT / "spec" / "profiles" / f"{name}.md").read_text("utf-8")


def _section(text: str, heading: str) -> str:
    start = text.index(f"\n## {heading}")
    end = text.find("\n## ", start + 4)
    return text[start : end if end >= 0 else len(text)]


def departures(chapter: str) -> set[str]:
    """The ids a reason may name: clauses of the "where the code differs" table, decisions."""
    differs = _section(chapter, "Where the system's code differs")
    decisions = _section(chapter, "Decisions")
    ids: set[str] = set()
    for row in differs.splitlines():
        if row.startswith("| ") and not row.startswith("| clause") and not row.startswith("| ---"):
            ids |= set(re.findall(r"[A-Z]+-\d+", row.split("|")[1]))
    for row in decisions.splitlines():
        found = re.match(r"\| (G\d+|E\d+) \|", row)
        if found:
            ids.add(found.group(1))
    return ids


def test_every_system_has_its_files() -> None:
    assert NAMES, "no system under ports/systems/"
    for name in NAMES:
        for file in ("report.json", "expected-failures.yaml"):
            assert (SYSTEMS / name / file).is_file(), (name, file)
    assert (SYSTEMS / "README.md").is_file()


@pytest.mark.parametrize("name", NAMES)
def test_report_was_taken_on_this_suite(name: str) -> None:
    """Same profile version, and exactly the suite's cases of the operations it declared."""
    report = _report(name)
    profile = next(p for p in report["profiles"] if p["name"] == name)
    assert profile["declared"] and profile["version"] == version(ROOT / "spec", name), REMEASURE
    ops = {c["op"] for c in report["cases"]}
    measured = {c["id"] for c in report["cases"] if c["status"] != "not_applicable"}
    suite = {c.id for c in load_all() if c.op in ops and c.profile == name}
    assert measured == suite, f"{REMEASURE}: {sorted(measured ^ suite)[:5]}"


@pytest.mark.parametrize("name", NAMES)
def test_the_code_fails_exactly_the_listed_cases(name: str) -> None:
    report = _report(name)
    statuses = {c["id"]: c["status"] for c in report["cases"] if c["status"] != "not_applicable"}
    assert set(statuses.values()) <= {"passed", "xfail"}, REMEASURE
    listed = {e["id"] for e in _expected(name)}
    assert {i for i, s in statuses.items() if s == "xfail"} == listed


@pytest.mark.parametrize("name", NAMES)
def test_every_reason_names_a_recorded_departure(name: str) -> None:
    """A reason starts with the clause of a "where the code differs" row or a decision id."""
    known = departures(_chapter(name))
    for entry in _expected(name):
        first = re.match(r"([A-Z]+-\d+|[GE]\d+)\b", entry["reason"])
        assert first and first.group(1) in known, (entry["id"], entry["reason"][:80], sorted(known))


def test_departures_read_the_chapter_tables() -> None:
    """The parser can fail: it finds GBRAIN-7 (a differs row) and G6 (a decision), not GBRAIN-2."""
    known = departures(_chapter("gbrain"))
    assert {"GBRAIN-7", "G6"} <= known and "GBRAIN-2" not in known
