"""Every spec clause is cited by a golden case and by a test; no case cites a missing clause."""

from __future__ import annotations

from pathlib import Path

from conformance.judging.cases import load_all
from conformance.judging.clauses import cited_in_texts, defined_clauses

TESTS = Path(__file__).resolve().parent

# spec/README.md "Clause ids": these prefixes constrain the runner and the transport (PROTO) and
# the loader (PROFILE), which no operation can observe; the kit's tests cover them instead
# (tests/test_runner_*.py, tests/test_data_check.py, tests/test_profiles.py).
GOLDEN_EXEMPT_PREFIXES = {"PROTO", "PROFILE"}


def _prefixes() -> set[str]:
    return {cid.split("-")[0] for cid in defined_clauses()}


def test_every_clause_is_defined_once_and_the_spec_defines_some() -> None:
    """The spec's clause ids are unique across files (defined_clauses raises otherwise)."""
    assert len(defined_clauses()) > 50


def test_every_clause_cited_by_a_golden_case() -> None:
    """Every port-observable clause has at least one golden case."""
    defined = {
        c: v for c, v in defined_clauses().items()
        if c.split("-")[0] not in GOLDEN_EXEMPT_PREFIXES
    }
    cited = {c for case in load_all() for c in case.clauses}
    missing = sorted(set(defined) - cited, key=lambda c: (c.split("-")[0], int(c.split("-")[1])))
    assert not missing, "clauses without a golden case: " + ", ".join(
        f"{c} ({defined[c].file}:{defined[c].line})" for c in missing
    )


def test_exempt_prefixes_are_not_cited_by_golden_cases() -> None:
    """An exempt prefix that cases start citing should lose its exemption."""
    cited = {c.split("-")[0] for case in load_all() for c in case.clauses}
    assert not cited & GOLDEN_EXEMPT_PREFIXES


def test_golden_cases_cite_only_defined_clauses() -> None:
    defined = defined_clauses()
    bad = sorted(
        f"{case.file}:{case.line} {case.id} cites {c}"
        for case in load_all()
        for c in case.clauses
        if c not in defined
    )
    assert not bad, "cases citing unknown clauses:\n" + "\n".join(bad)


def test_every_clause_cited_by_a_test() -> None:
    defined = defined_clauses()
    texts = [
        p.read_text(encoding="utf-8")
        for p in TESTS.rglob("test_*.py")
        if p.name != Path(__file__).name
    ]
    cited = cited_in_texts(texts, _prefixes())
    missing = sorted(set(defined) - cited, key=lambda c: (c.split("-")[0], int(c.split("-")[1])))
    assert not missing, "clauses without a test: " + ", ".join(
        f"{c} ({defined[c].file}:{defined[c].line})" for c in missing
    )
