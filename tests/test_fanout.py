"""The BM25 fanout: derivation, plan, merge and trace (spec/fanout.md, TRACE-17)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from conformance.adapters.ops import registry
from conformance.judging.capabilities import BM25_FANOUT, detected
from reference import fanout
from reference.types import Candidate

ROOT = Path(__file__).resolve().parents[1]
DATA_DIR = ROOT / "spec" / "data"
TRACE_SCHEMA = json.loads((ROOT / "schemas" / "trace.schema.json").read_text(encoding="utf-8"))
OPS = registry()
_VOCABULARY = (
    "when did I start book buy the total spent cost camping trip and or plus new hiking boots "
    "fresh ideas stuck painting specific back-end languages recommend 2024 yoga classes "
    "hand-made leather items pasta dinner tea of with"
)
WORDS = _VOCABULARY.split()


def _random_queries(n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return [" ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 9))) for _ in range(n)]


def _c(cid: str) -> Candidate:
    return Candidate(id=cid, path=f"{cid}.md")


def _search(request: dict[str, Any], backends: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = OPS["search"]({"request": request, "backends": backends})
    return out


def test_vocabulary_is_the_anchors_constants() -> None:
    """FANOUT-3: the data file carries ALGORITHMS.md's four queries and its provenance."""
    raw = json.loads((DATA_DIR / fanout.DATA_FILE).read_text(encoding="utf-8"))
    assert raw["provenance"]["commit"] == "22a586e"
    assert raw["provenance"]["licence"] == "Apache-2.0"
    v = fanout.vocabulary()
    assert (v.max_queries, v.max_derived, v.overlap_window, v.overlap_min) == (4, 2, 10, 2)
    assert set(v.connectors) == {"and", "or", "plus"}
    assert len(v.action_rules) == 7


def test_text_primitives() -> None:
    """FANOUT-4: edges stripped, lowered, ASCII digits only, lengths in code points."""
    assert fanout.probe_tokens('"Pasta," (DINNER) ?!') == ["pasta", "dinner"]
    assert fanout.has_digit("r2d2") and not fanout.has_digit("\u0663")  # Arabic-Indic 3
    # 4 code points (8 UTF-16 units): shorter than `movies`, tied with `kino`.
    assert fanout.derived_subqueries("kino \U0001d41c\U0001d41a\U0001d42d\U0001d42c movies") == [
        "movies",
        "kino",
    ]


def test_question_tokens() -> None:
    """FANOUT-5: three code points or more, no digit, no question stopword, first only."""
    assert fanout.question_tokens("Did you book the B&B in 2024, the B&B?") == ["book", "b&b"]


def test_phrase_probes_around_connectors_and_segments() -> None:
    """FANOUT-6: left and right of a connector, at most two, boundary words break phrases."""
    assert fanout.phrase_probes("the camping trip and the new hiking boots") == [
        "camping trip",
        "new hiking boots",
    ]
    assert fanout.phrase_probes("cake or pie") == []
    assert fanout.phrase_probes("how long was the very quick brown fox jumping story") == [
        "quick brown fox jumping"
    ]
    for query in _random_queries(300, 1):
        probes = fanout.phrase_probes(query)
        assert len(probes) <= 2 and len(set(probes)) == len(probes)
        assert all(2 <= len(p.split(" ")) <= 4 for p in probes)
        assert set(fanout.filtered_phrase_probes(query)) <= set(probes)


def test_fixed_probes() -> None:
    """FANOUT-7, FANOUT-8, FANOUT-9, FANOUT-10: the anchor's probe families."""
    q = "Which specific back-end languages did you recommend?"
    assert fanout.specific_recommendation_probes(q) == [
        "back-end programming language",
        "back-end development",
    ]
    assert fanout.specific_recommendation_probes("recommend back-end languages") == []
    assert fanout.money_focus_probes("what was the total I spent on the camping trip") == [
        "trip cost"
    ]
    assert fanout.money_focus_probes("the camping trip") == []  # no total, no money word
    assert fanout.action_date_probes("when did I join or buy it") == ["purchase date", "join date"]
    assert fanout.action_date_probes("did I buy it") == []  # no `when`
    assert fanout.inspiration_source_probes("stuck on my painting") == [
        "painting social media tutorials"
    ]


def test_subqueries_are_bounded_and_never_the_query() -> None:
    """FANOUT-11, FANOUT-12: at most two, distinct, never the lowered query itself."""
    for query in _random_queries(300, 2):
        low = fanout.lowered(query)
        for items in (fanout.priority_subqueries(query), fanout.derived_subqueries(query)):
            assert len(items) <= 2 and len(set(items)) == len(items) and low not in items


def test_plan_texts_rules() -> None:
    """FANOUT-13: at most four distinct texts; a general plan has the raw query and base."""
    for query in _random_queries(300, 3):
        texts = fanout.plan_texts(query, query + " 2024/05/01")
        assert len(texts) <= 4 and len(set(texts)) == len(texts)
        general = not (fanout.priority_only(query) and len(fanout.priority_subqueries(query)) >= 2)
        if general:  # at most two priority subqueries come first, so the query is never cut
            assert fanout.text.normalise(query) in texts


def test_plan_expressions_rules() -> None:
    """FANOUT-14: compiled, non-empty, distinct, at most four; phrase probes quoted."""
    for query in _random_queries(200, 4):
        plan = fanout.plan_expressions(query, query, None)
        assert len(plan) <= 4 and len(set(plan)) == len(plan) and all(plan)
    assert fanout.plan_expressions("pasta dinner", "pasta dinner", None)[0] == '"pasta dinner"'


def test_temporal_base_is_a_query_and_no_rewrite() -> None:
    """FANOUT-15: the augmented query is searched beside the raw one, which stays as typed."""
    req = {
        "query": "pasta yesterday",
        "mode": "bm25",
        "bm25Fanout": True,
        "profiles": {"temporal": {"questionDate": "2024/05/02"}},
    }
    out = _search(req, {})
    trace = out["trace"]
    assert trace["query"]["normalised"] == "pasta yesterday"
    expressions = [row["expression"] for row in trace["bm25"]["firstPass"]]
    assert any("2024-05-01" in e for e in expressions)
    assert not any("2024" in e for e in trace["query"]["expression"].split())


def test_gate() -> None:
    """FANOUT-16: digits or 2-4 pieces bypass; else two of the first ten ids must overlap."""
    assert fanout.bypasses_gate('"pasta" OR "dinner"')
    assert fanout.bypasses_gate('"2024"')
    assert not fanout.bypasses_gate('"pasta"')
    assert not fanout.bypasses_gate('"a" OR "b" OR "c" OR "d" OR "e"')
    primary = [_c("a"), _c("b")]
    assert fanout.overlap(primary, [_c("a"), _c("a"), _c("x")]) == 2  # repeats count
    assert not fanout.kept(primary, '"x"', [_c("a"), _c("x")])
    assert fanout.kept([], '"x"', [_c("x")])


def test_merge() -> None:
    """FANOUT-17, FANOUT-20: one list as is, several by RRF k=60, cut to candidateK."""
    assert [c.id for c in fanout.merge([[_c("b"), _c("a")]], 10)] == ["b", "a"]
    merged = fanout.merge([[_c("y")], [_c("c")]], 10)
    assert [c.id for c in merged] == ["c", "y"]  # equal scores: path order
    assert [c.id for c in fanout.merge([[_c("y")], [_c("c")]], 1)] == ["c"]
    assert fanout.merge([], 5) == []


def test_trace_first_pass_rows_follow_the_plan() -> None:
    """FANOUT-2, FANOUT-18, FANOUT-19, TRACE-17: one row per plan query; valid schema."""
    chunks = [{"id": "d", "path": "d.md", "content": "Dinner with friends"}]
    for query in ("pasta dinner", "quantum entanglement", "the and of"):
        req = {"query": query, "mode": "bm25", "bm25Fanout": True}
        out = _search(req, {"bm25": {"fts5": True}, "chunks": chunks})
        bm25 = out["trace"]["bm25"]
        jsonschema.validate(out["trace"], TRACE_SCHEMA)
        plan = fanout.plan_expressions(query, query, None)
        assert [row["expression"] for row in bm25["firstPass"]] == plan
        initial = bm25["attempts"][0]
        assert initial["expression"] == (plan[0] if plan else "")
        assert (len(bm25["attempts"]) > 1) == (bm25["attempts"][0]["hits"] == 0)


def test_without_fanout_trace_is_unchanged() -> None:
    """FANOUT-1, TRACE-17: no firstPass; the capability is read from the input."""
    out = _search({"query": "pasta dinner", "mode": "bm25"}, {})
    assert "firstPass" not in out["trace"]["bm25"]
    on = {"request": {"query": "x", "bm25Fanout": True}}
    assert BM25_FANOUT in detected("search", on, DATA_DIR)
    off = {"request": {"query": "x", "bm25Fanout": False}}
    assert BM25_FANOUT not in detected("search", off, DATA_DIR)
    with pytest.raises(Exception, match="bm25Fanout"):
        _search({"query": "x", "bm25Fanout": "yes"}, {})
