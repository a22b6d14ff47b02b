"""FTS5 expressions judged by meaning, and the derived `#canonical` cases (spec/query-dsl.md
DSL-23, DSL-24, DSL-25)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from fts5_oracle import sqlite_rejection

from conformance.adapters.protocol import Hello
from conformance.judging import fts5_meaning as fm
from conformance.judging.cases import CANONICAL_FTS5, Case, CaseFileError, load_all, load_text
from conformance.judging.compare import check
from conformance.judging.selection import matches, select
from conformance.judging.suite import kit_suite
from conformance.running.runner import run_suite


def differs(expected: str, actual: str) -> bool:
    return fm.difference(expected, actual) is not None


# -- DSL-24: the rows tell the readings apart ---------------------------------------------------


def test_precedence_not_binds_tighter_than_or() -> None:
    """DSL-18, DSL-24: `a OR (b NOT c)` and `(a OR b) NOT c` differ on the row `a F c`."""
    assert differs('"a" OR "b" NOT "c"', '("a" OR "b") NOT "c"')
    assert not differs('"a" OR "b" NOT "c"', '"a" OR ("b" NOT "c")')


def test_and_is_not_or() -> None:
    """DSL-24: AND and OR differ on a row holding one atom."""
    assert differs('"a" AND "b"', '"a" OR "b"')
    assert differs('"a" OR "b"', '"a" "b"')  # implicit AND


def test_phrase_is_not_two_terms() -> None:
    """DSL-24: a phrase differs from its words as terms (reversed and split rows)."""
    assert differs('"a b"', '"a" "b"')
    assert differs('"a b"', '"a" AND "b"')
    assert differs('"a b"', '"a" OR "b"')
    assert differs('"a b"', '"b a"')


def test_prefix_is_not_a_term_either_way() -> None:
    """DSL-24: the extension row `azq` tells a prefix from a term, in both directions."""
    assert differs('"a"*', '"a"')
    assert differs('"a"', '"a"*')
    assert differs('"a b"*', '"a b"')


def test_respelling_means_the_same() -> None:
    """DSL-23: barewords for plain words, redundant parentheses and case of the words agree."""
    assert not differs('"kubernetes" OR "setup"', "kubernetes OR setup")
    assert not differs('"a" NOT "b"', '("a") NOT ("b")')
    assert not differs('"a" AND "b" OR "c"', '("a" AND "b") OR "c"')
    assert not differs('"café"', '"CAFE"')  # remove_diacritics 2, case folded by the tokenizer
    assert not differs('("k8s" OR "kubernetes")', '"kubernetes" OR k8s')


def test_rejected_expression_fails_with_sqlites_message() -> None:
    """DSL-17, DSL-23: `AND NOT` is an FTS5 syntax error, reported with SQLite's message."""
    why = fm.difference('"a" NOT "b"', '"a" AND NOT "b"')
    said = sqlite_rejection('"a" AND NOT "b"')
    assert said and why is not None and "FTS5 rejects" in why and said in why


def test_bareword_syntax_breaks() -> None:
    """DSL-16, DSL-23: bare phrase text with `:` reaches FTS5 as a column filter and fails."""
    why = fm.difference('"foo:bar baz"', "foo:bar baz")
    assert why is not None and "FTS5 rejects" in why


def test_empty_means_only_empty() -> None:
    """DSL-23: "" is never sent to FTS5 and equals only ""."""
    assert fm.difference("", "") is None
    assert differs("", '"a"')
    assert differs('"a"', "")
    assert differs("", " ")


def test_atoms_in_order_distinct_with_prefix_flag() -> None:
    """DSL-24: strings unquoted (`""` read as `"`), barewords, prefixes; operators skipped."""
    got = fm.atoms('("k8s" OR "kube cluster") NOT "say ""hi"""* AND foo OR "k8s" OR NEAR')
    assert got == [
        fm.Atom("k8s", False),
        fm.Atom("kube cluster", False),
        fm.Atom('say "hi"', True),
        fm.Atom("foo", False),
    ]


def test_fixture_rows_follow_the_documented_rule() -> None:
    """DSL-24: subsets in bitmask order, extension, reversed and split phrase, filler, extras."""
    assert fm.fixture_rows('"a" OR "b c"*', '"a"', ["own row"]) == [
        "",
        "a",
        "b c",
        "a hrcfiller b c",
        "azq",
        "b czq",
        "c b",
        "b hrcfiller c",
        "hrcfiller",
        "own row",
    ]


def test_many_atoms_use_the_reduced_family() -> None:
    """DSL-24: above 8 atoms: none, singles, pairs, all but one, all."""
    expression = " OR ".join(f'"w{i}"' for i in range(9))
    subsets = list(fm.subsets(9))
    assert len(subsets) == 1 + 9 + 36 + 9 + 1
    rows = fm.fixture_rows(expression)
    assert rows[0] == "" and rows[1] == "w0" and rows[10] == "w0 hrcfiller w1"
    assert len(rows) == len(subsets) + 9 + 1


def test_extra_atoms_of_the_port_are_rows_too() -> None:
    """DSL-24: an OR-ed word only the port's expression has (a stopword it kept) is caught."""
    assert fm.difference('"set" OR "cluster"', '"how" OR "set" OR "cluster"') is not None
    assert fm.fixture_rows('"a"', '"a" OR "zzz"')[:4] == ["", "a", "zzz", "a hrcfiller zzz"]


def test_case_fixture_rows_add_discrimination() -> None:
    """DSL-24: a case's own rows are judged too."""
    # On the generated rows (a and b at most one word apart) AND and NEAR agree...
    assert fm.difference('"a" AND "b"', 'NEAR("a" "b", 2)') is None
    # ...a case row with a and b far apart tells them apart.
    assert fm.difference('"a" AND "b"', 'NEAR("a" "b", 2)', ["a x x x x b"]) is not None


# -- DSL-25: which fields are FTS5 -----------------------------------------------------------------


def test_fields_of_each_operation() -> None:
    """DSL-23, DSL-25: compile/sanitise expressions; trace query and attempts, not trigram."""
    assert fm.fields("compile", {"expression": '"a"'}) == ["/expression"]
    assert fm.fields("sanitise", {"tokens": [], "expression": ""}) == ["/expression"]
    assert fm.fields("parse", {"normalised": "a"}) == []
    trace = {
        "query": {"expression": '"a"'},
        "bm25": {
            "attempts": [
                {"rung": "initial", "expression": '"a"'},
                {"rung": "trigram_fuzzy", "expression": "a"},
            ]
        },
    }
    assert fm.fields("search", {"trace": trace}) == [
        "/trace/query/expression",
        "/trace/bm25/attempts/0/expression",
    ]
    assert fm.fields("search", {"results": []}) == []


def test_fields_of_each_variant_bm25_leg() -> None:
    """DSL-25, TRACE-16: each `variants` entry's attempt rows are judged by meaning too."""
    rows = [{"rung": "initial", "expression": '"b"'}, {"rung": "trigram_fuzzy", "expression": "b"}]
    trace = {"variants": [{"query": "a"}, {"query": "b", "bm25": {"attempts": rows}}]}
    assert fm.fields("search", {"trace": trace}) == ["/trace/variants/1/bm25/attempts/0/expression"]


def test_check_compares_meaning_then_the_rest_exactly() -> None:
    """DSL-23: a respelt field passes, a wrong one fails at its path, other fields stay exact."""
    expect = {
        "output": {"tokens": ["a", "b"], "expression": '"a" OR "b"'},
        "fts5": {"fields": ["/expression"]},
    }
    assert check(expect, {"tokens": ["a", "b"], "expression": "a OR b"}) is None
    wrong = check(expect, {"tokens": ["a", "b"], "expression": "a AND b"})
    assert wrong is not None and wrong.path == "/expression" and "different rows" in wrong.reason
    other = check(expect, {"tokens": ["a"], "expression": "a OR b"})
    assert other is not None and other.path == "/tokens"


def test_trace_attempts_compare_by_meaning() -> None:
    """DSL-25: an attempt row's expression is judged by meaning, the trigram row exactly."""
    expected = {
        "trace": {
            "bm25": {
                "attempts": [
                    {"rung": "initial", "expression": '"a" OR "b"', "hits": 0},
                    {"rung": "trigram_fuzzy", "expression": "a b", "hits": 1},
                ]
            }
        }
    }
    pointers = fm.fields("search", expected)
    expect = {"output": expected, "compare": "partial", "fts5": {"fields": pointers}}
    respelt = json.loads(json.dumps(expected))
    respelt["trace"]["bm25"]["attempts"][0]["expression"] = "b OR a"
    assert check(expect, respelt) is None
    respelt["trace"]["bm25"]["attempts"][1]["expression"] = "b a"
    found = check(expect, respelt)
    assert found is not None and found.path == "/trace/bm25/attempts/1/expression"


# -- derived #canonical cases ---------------------------------------------------------------------

_FILE = """op: compile
cases:
  - id: query-dsl/meaning/one
    description: A compile case with a fixture row.
    clauses: [DSL-23]
    fixture: ["extra row"]
    input: {query: "alpha beta"}
    expect:
      output: {expression: "\\"alpha\\" OR \\"beta\\""}
  - id: query-dsl/meaning/error
    description: An error case has no FTS5 field.
    clauses: [DSL-22]
    input: {query: "alpha", stopwordList: x}
    expect:
      error: invalid_input
"""


def _loaded() -> list[Case]:
    return load_text(_FILE, "golden/query-dsl/meaning.yaml", "query-dsl")


def test_a_case_with_fts5_fields_yields_a_canonical_case() -> None:
    """DSL-23: `<id>#canonical`, requiring and tagged canonical-fts5, compared exactly."""
    base, canonical, error = _loaded()
    assert base.expect["fts5"] == {"fields": ["/expression"], "fixture": ["extra row"]}
    assert canonical.id == "query-dsl/meaning/one#canonical"
    assert canonical.derived_from == base.id
    assert CANONICAL_FTS5 in canonical.requires and CANONICAL_FTS5 in canonical.tags
    assert "fts5" not in canonical.expect
    assert check(base.expect, {"expression": "alpha OR beta"}) is None
    assert check(canonical.expect, {"expression": "alpha OR beta"}) is not None
    assert error.derived_from is None and "fts5" not in error.expect
    assert canonical.to_json()["derivedFrom"] == base.id
    assert "derivedFrom" not in base.to_json()


def test_fixture_without_fts5_fields_is_rejected() -> None:
    """DSL-24: a `fixture` on a case with no FTS5 field is a case-file error."""
    text = _FILE.replace("    clauses: [DSL-22]\n", "    clauses: [DSL-22]\n    fixture: [x]\n")
    with pytest.raises(CaseFileError, match="fixture on a case without FTS5 fields"):
        load_text(text, "golden/query-dsl/meaning.yaml", "query-dsl")


def test_selecting_a_case_selects_its_canonical_case() -> None:
    """DSL-23: --select by id, prefix or glob takes the derived case along; the tag selects all."""
    cases = _loaded()
    assert [c.id for c in select(cases, ["query-dsl/meaning/one"])] == [
        "query-dsl/meaning/one",
        "query-dsl/meaning/one#canonical",
    ]
    assert matches(cases[1], "query-dsl/meaning")
    assert [c.id for c in select(cases, [CANONICAL_FTS5])] == ["query-dsl/meaning/one#canonical"]


def test_canonical_cases_are_not_applicable_without_the_capability() -> None:
    """DSL-23: a port that does not declare canonical-fts5 gets not_applicable, never a failure."""
    hello = Hello(
        name="p",
        version="1",
        spec_version="1.0.0",
        protocol=1,
        operations=frozenset({"compile"}),
        capabilities=frozenset(),
    )
    _, canonical, _ = _loaded()
    reason = hello.not_applicable_reason(canonical.op, canonical.requires)
    assert reason is not None and CANONICAL_FTS5 in reason


def test_every_golden_fts5_case_has_its_canonical_twin() -> None:
    """DSL-23: the suite pairs every meaning case with exactly one canonical case."""
    cases = load_all()
    meaning = {c.id for c in cases if "fts5" in c.expect}
    derived = {c.derived_from for c in cases if c.derived_from is not None}
    assert meaning and meaning == derived


# -- the respelling port --------------------------------------------------------------------------


@pytest.mark.slow
def test_a_port_that_only_respells_fails_only_the_canonical_cases() -> None:
    """DSL-23, DSL-25: bareword terms everywhere pass every meaning case; #canonical fails.

    The port is the mutant `fts5-respelled-plain-terms` served through the real protocol.
    """
    cases = load_all()
    module = "conformance.selftest.mutant_adapter"
    argv = [sys.executable, "-m", module, "fts5-respelled-plain-terms"]
    run = run_suite(cases, argv)
    failed = {r.case.id for r in run.results if r.status != "passed"}
    canonical = {c.id for c in cases if CANONICAL_FTS5 in c.requires}
    assert failed, "the respelling port must fail some canonical case"
    assert failed <= canonical, sorted(failed - canonical)[:10]
    ops = {r.case.op for r in run.results if r.case.id in failed}
    assert {"compile", "sanitise", "search"} <= ops


def test_scripted_lookup_by_meaning_changes_no_golden_answer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """BACKEND-36: on every search case, looking keys up by meaning answers as exact lookup does.

    So a port that spells canonically may look up exactly, and a port that respells looks up
    by meaning, and both get the same expected outputs.
    """
    from conformance.adapters.ops import registry
    from reference.backends import scripted

    handler = registry()["search"]
    cases = [
        c
        for c in load_all()
        if c.op == "search" and c.derived_from is None and CANONICAL_FTS5 not in c.requires
    ]
    assert len(cases) > 50

    def answer(case: Case) -> object:
        try:
            return handler(case.input)
        except Exception as exc:  # an expected error answers the same either way
            return ("error", getattr(exc, "kind", type(exc).__name__))

    exact = [answer(c) for c in cases]
    monkeypatch.setattr(scripted, "LOOKUP_BY_MEANING", True)
    for case, before in zip(cases, exact, strict=True):
        after = answer(case)
        assert drop(after) == drop(before), case.id


def drop(value: object) -> object:
    from conformance.judging.compare import drop_timings

    return drop_timings(value)


@pytest.mark.parametrize(
    "mutant",
    [
        "dsl-not-as-and-not",
        "dsl-phrases-unquoted",
        "dsl-prefix-without-star",
        "dsl-left-to-right",
        "dsl-alias-group-unparenthesised",
    ],
)
@pytest.mark.slow
def test_meaning_cases_still_catch_broken_compilers(mutant: str) -> None:
    """DSL-23: a compiler that changes the meaning fails a meaning case, not just #canonical."""
    cases = [
        c
        for c in load_all()
        if c.op in ("compile", "sanitise") and "fts5" in c.expect
    ]
    argv = [sys.executable, "-m", "conformance.selftest.mutant_adapter", mutant]
    run = run_suite(cases, argv)
    assert any(r.status != "passed" for r in run.results), mutant


def test_a_port_without_canonical_fts5_gets_not_applicable_in_the_report() -> None:
    """DSL-23: the #canonical cases are not_applicable, counted and listed; the report is valid."""
    from conformance.judging.schemas import schema_validator
    from conformance.reports import report

    serve = (
        "import sys; from conformance.adapters import adapter_reference as a; "
        "a.CAPABILITIES = tuple(c for c in a.CAPABILITIES if c != 'canonical-fts5'); "
        "sys.exit(a.main())"
    )
    suite = load_all()
    cases = select(suite, ["query-dsl/compile-meaning"])
    run = run_suite(cases, [sys.executable, "-c", serve])
    by_status = {r.case.id: r.status for r in run.results}
    assert {s for i, s in by_status.items() if i.endswith("#canonical")} == {"not_applicable"}
    assert {s for i, s in by_status.items() if not i.endswith("#canonical")} == {"passed"}
    document = report.build(run, report.SuiteInfo.for_cases(suite, kit_suite(), None))
    assert not list(schema_validator("report.schema.json").iter_errors(document))
    assert run.counts()["not_applicable"] == len(cases) // 2
    assert run.ok


def test_derived_cases_in_bundle_and_expected_failures(tmp_path: Path) -> None:
    """DSL-23: `hrc bundle` carries derived cases; an expected-failures file may list them."""
    from conformance.commands import bundle
    from conformance.judging import expectations

    suite = load_all()
    document = bundle.build(suite)
    entries = {e["id"]: e for e in document["cases"]}
    twin = entries["query-dsl/compile-meaning/prefix-and-term#canonical"]
    assert twin["derivedFrom"] == "query-dsl/compile-meaning/prefix-and-term"
    assert CANONICAL_FTS5 in twin["requires"]
    base = entries["query-dsl/compile-meaning/prefix-and-term"]
    assert base["expect"]["fts5"] == {"fields": ["/expression"]}
    listed = tmp_path / "xfail.yaml"
    listed.write_text(
        "- id: query-dsl/compile-meaning/prefix-and-term#canonical\n"
        "  reason: this port writes barewords\n",
        encoding="utf-8",
    )
    loaded = expectations.load(listed, (c.id for c in suite))
    assert list(loaded) == ["query-dsl/compile-meaning/prefix-and-term#canonical"]


def test_without_fts5_the_runner_fails_instead_of_crashing(monkeypatch: pytest.MonkeyPatch) -> None:
    """DSL-23: a runner whose SQLite lacks FTS5 reports a mismatch, never a crash or a pass."""
    from reference.query import meaning

    monkeypatch.setattr(meaning, "TOKENIZER", "no_such_tokenizer")
    why = fm.difference('"a" OR "b"', "a OR b")
    assert why is not None and "cannot judge" in why
    assert fm.difference('"a"', '"a"') is None  # equal spellings need no FTS5
