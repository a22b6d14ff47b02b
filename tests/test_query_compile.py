"""Compiling DSL tokens to FTS5, executed on a real SQLite FTS5 table (DSL-16..DSL-19, D11, D12).

The property tests run every compiled expression through `MATCH`; the naive compilers at the
bottom show the properties have teeth: hypothesis finds inputs that break them.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator

import hypothesis.strategies as st
import pytest
from hypothesis import HealthCheck, find, given, settings

from conformance.judging.cases import load_all
from reference import text
from reference.query import ParsedQuery, Token, compile_query, fts_quote, parse, sanitise

ROWS = [
    ("a", "alpha bravo"),
    ("b", "bravo charlie"),
    ("c", "charlie delta"),
    ("d", "alpha"),
    ("k1", "kubernetes guide"),
    ("k2", "kubernetes and machine learning"),
]

# FTS5-special ASCII, controls and keywords: the alphabet of hostile queries.
HOSTILE = [
    " ", '"', "*", "^", ":", "(", ")", "-", "+", "\x00", "\x07", "\x1f", "\x7f", "\t",
    "AND", "OR", "NOT", "NEAR", "NEAR(", ",", "a", "b", "title", "{", "}", "'", "\\", ".",
]


def _connect() -> sqlite3.Connection:
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE VIRTUAL TABLE t USING fts5(title, content, tokenize='unicode61')")
    conn.executemany("INSERT INTO t (title, content) VALUES (?, ?)", ROWS)
    return conn


@pytest.fixture(scope="module")
def db() -> Iterator[sqlite3.Connection]:
    conn = _connect()
    yield conn
    conn.close()


def _match(conn: sqlite3.Connection, expression: str) -> set[str]:
    """Run MATCH; an empty expression means no search (DSL-19) and matches nothing."""
    if expression == "":
        return set()
    rows = conn.execute("SELECT title FROM t WHERE t MATCH ?", (expression,)).fetchall()
    return {r[0] for r in rows}


def _fts5_accepts(conn: sqlite3.Connection, expression: str) -> bool:
    try:
        _match(conn, expression)
    except sqlite3.OperationalError:
        return False
    return True


# --- DSL-16, DSL-17: rendering -------------------------------------------------------------


def test_fts_quote_doubles_inner_quotes() -> None:
    """DSL-16: a quote inside a string is written twice."""
    assert fts_quote('say "hi"') == '"say ""hi"""'


def test_each_kind_renders_quoted() -> None:
    """DSL-16: term and phrase "t", prefix "t"*; there is no other kind."""
    parsed = ParsedQuery(
        "x",
        True,
        (
            Token("term", "t", None),
            Token("prefix", "p", "AND"),
            Token("phrase", "x y", None),
        ),
    )
    assert compile_query(parsed) == '"t" AND "p"* OR "x y"'


def test_quoted_token_with_quote_is_valid_fts5(db: sqlite3.Connection) -> None:
    """DSL-16: a hand-made token holding a quote still compiles to valid FTS5."""
    parsed = ParsedQuery("x", False, (Token("term", 'al"pha', None),))
    assert _fts5_accepts(db, compile_query(parsed))


def test_not_is_binary_never_and_not() -> None:
    """DSL-17: NOT renders as `a NOT b`; `AND NOT` never appears."""
    expression = compile_query(parse("foo AND bar NOT baz"))
    assert expression == '"foo" AND "bar" NOT "baz"'
    assert "AND NOT" not in expression


def test_first_token_operator_is_never_rendered() -> None:
    """DSL-17: even a hand-made first token with NOT renders without an operator."""
    parsed = ParsedQuery("x", True, (Token("term", "a", "NOT"), Token("term", "b", None)))
    assert compile_query(parsed) == '"a" OR "b"'


def test_no_tokens_compile_to_empty_string() -> None:
    """DSL-17: a query with no tokens compiles to ""."""
    assert compile_query(parse("the of and")) == ""


# --- DSL-18: precedence on a real table ----------------------------------------------------


def test_not_binds_tighter_than_or(db: sqlite3.Connection) -> None:
    """DSL-18: alpha OR bravo NOT alpha means alpha OR (bravo NOT alpha) in FTS5."""
    assert _match(db, compile_query(parse("alpha OR bravo NOT alpha"))) == {"a", "b", "d"}


def test_and_binds_tighter_than_or(db: sqlite3.Connection) -> None:
    """DSL-18: delta OR alpha AND bravo means delta OR (alpha AND bravo)."""
    assert _match(db, compile_query(parse("delta OR alpha AND bravo"))) == {"a", "c"}


def test_alias_not_binds_the_first_alternative_only(db: sqlite3.Connection) -> None:
    """DSL-14, DSL-18: (kubernetes NOT ml) OR "machine learning": k2 matches, as the anchor."""
    aliases = {"k8s": ["kubernetes"], "ml": ["ml", "machine learning"]}
    assert _match(db, compile_query(parse("k8s NOT ml", aliases))) == {"k1", "k2"}


# --- DSL-19: FTS5 safety --------------------------------------------------------------------


@settings(max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text())
def test_any_text_compiles_to_valid_fts5(query: str) -> None:
    """DSL-19: for arbitrary text, the expression is "" or accepted by FTS5 MATCH."""
    conn = _connect()
    try:
        assert _fts5_accepts(conn, compile_query(parse(query)))
    finally:
        conn.close()


hostile_text = st.lists(st.sampled_from(HOSTILE), max_size=14).map("".join)


@settings(max_examples=2000, deadline=None)
@given(hostile_text)
def test_hostile_ascii_compiles_to_valid_fts5(query: str) -> None:
    """DSL-19: FTS5 specials, controls and keywords in any order never break MATCH."""
    conn = _connect()
    try:
        assert _fts5_accepts(conn, compile_query(parse(query)))
        assert _fts5_accepts(conn, sanitise(query).expression)
    finally:
        conn.close()


@settings(max_examples=300, deadline=None)
@given(st.text(), st.lists(st.text(), max_size=3))
def test_alias_groups_compile_to_valid_fts5(query: str, alternatives: list[str]) -> None:
    """DSL-19: with every term a key of arbitrary alternatives, the expansion is valid FTS5."""
    terms = [t.text for t in parse(query).tokens if t.kind == "term"]
    table = {text.fold(term): [*alternatives, "x y"] for term in terms}
    conn = _connect()
    try:
        assert _fts5_accepts(conn, compile_query(parse(query, table)))
        assert _fts5_accepts(conn, sanitise(query, table).expression)
    finally:
        conn.close()


def _golden_expressions() -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for case in load_all():
        output = case.expect.get("output")
        if case.op in ("compile", "sanitise") and isinstance(output, dict):
            expression = output.get("expression")
            if isinstance(expression, str) and expression:
                out.append((case.id, expression))
    return out


GOLDEN = _golden_expressions()


@pytest.mark.parametrize(("case_id", "expression"), GOLDEN, ids=[c for c, _ in GOLDEN])
def test_golden_expression_runs_on_fts5(
    db: sqlite3.Connection, case_id: str, expression: str
) -> None:
    """DSL-19: every golden compile and sanitise expression is executable FTS5."""
    assert _fts5_accepts(db, expression), case_id


def test_golden_compile_cases_exist() -> None:
    """DSL-19: the golden expressions above are not an empty list."""
    assert len(GOLDEN) >= 40


# --- the properties have teeth ------------------------------------------------------------


def naive_bareword_compile(query: str) -> str:
    """A wrong compiler: normalised words sent as FTS5 barewords, NOT as AND NOT."""
    words = text.normalise(query).split(" ")
    return " ".join("AND NOT" if w == "NOT" else w for w in words if w)


def naive_and_not_compile(query: str) -> str:
    """A wrong compiler: the real parser, but unquoted tokens and AND NOT (the anchor's H22)."""
    pieces: list[str] = []
    for token in parse(query).tokens:
        if pieces:
            op = token.operator or "OR"
            pieces.append("AND NOT" if op == "NOT" else op)
        pieces.append(token.text + ("*" if token.kind == "prefix" else ""))
    return " ".join(pieces)


@pytest.mark.parametrize("naive", [naive_bareword_compile, naive_and_not_compile])
def test_hostile_property_catches_naive_compilers(naive: Callable[[str], str]) -> None:
    """DSL-19: the hostile-text property finds an input that breaks each naive compiler."""
    conn = _connect()
    try:
        bad = find(
            hostile_text,
            lambda q: not _fts5_accepts(conn, naive(q)),
            settings=settings(max_examples=5000, deadline=None, database=None),
        )
        assert _fts5_accepts(conn, compile_query(parse(bad)))
    finally:
        conn.close()
