"""Profile scoped-fusion (spec/profiles/scoped-fusion.md): options, filter, headroom, weights.

Pure functions of reference/profiles/scoped_fusion/; the pipeline behaviour (SCOPE-6..11) is
also checked end to end by golden/profiles/scoped-fusion/search.yaml.
"""

from __future__ import annotations

from typing import Any

import pytest

from reference.profiles.scoped_fusion.ops import filter_op
from reference.profiles.scoped_fusion.options import parse_options
from reference.profiles.scoped_fusion.scope_filter import (
    bm25_limit,
    check_weights,
    filter_hits,
    removal_reason,
)
from reference.types import MAX_INTEGER, Candidate, InvalidInput


def _c(cid: str, scope: str | None = None) -> Candidate:
    return Candidate(cid, f"{cid}.md", metadata={} if scope is None else {"scope": scope})


def test_scope_1_defaults_and_nulls() -> None:
    """SCOPE-1: {} and all-null members take every default."""
    for member in ({}, {"scopes": None, "excludeIds": None, "headroom": None, "maxWeight": None}):
        opts = parse_options(member)
        assert opts.scopes is None and opts.exclude_ids == frozenset()
        assert opts.headroom == 2 and opts.max_weight == 5.0


@pytest.mark.parametrize(
    "member",
    [
        {"sessionIds": ["s1"]},
        {"scopes": "s1"},
        {"scopes": [""]},
        {"excludeIds": [1]},
        {"headroom": 0},
        {"headroom": 1.5},
        {"headroom": MAX_INTEGER + 1},
        {"maxWeight": 0.5},
        {"maxWeight": float("inf")},
        {"maxWeight": True},
        [],
    ],
)
def test_scope_1_rejects(member: object) -> None:
    """SCOPE-1: wrong types, empty ids, bad bounds and unknown fields are invalid_input."""
    with pytest.raises(InvalidInput):
        parse_options(member)


def test_scope_2_weight_range() -> None:
    """SCOPE-2: a weight above maxWeight is rejected; maxWeight itself is accepted."""
    opts = parse_options({})
    check_weights({"bm25": 5.0, "vector": 0.0}, opts)
    with pytest.raises(InvalidInput, match=r"weights\.vector"):
        check_weights({"bm25": 1.0, "vector": 5.000000000000001}, opts)
    check_weights({"bm25": 7.0}, parse_options({"maxWeight": 10}))


def test_scope_3_and_4_scope_membership() -> None:
    """SCOPE-3: no metadata.scope is no scope; SCOPE-4: [] is the empty set, None no limit."""
    scoped = parse_options({"scopes": ["s1"]})
    assert removal_reason(_c("a"), scoped) == "out_of_scope"
    assert removal_reason(_c("a", "s1"), scoped) is None
    assert removal_reason(_c("a", "S1"), scoped) == "out_of_scope"
    assert removal_reason(_c("a", "s1"), parse_options({"scopes": []})) == "out_of_scope"
    assert removal_reason(_c("a"), parse_options({})) is None


def test_scope_5_and_6_exclusion_order_and_reason() -> None:
    """SCOPE-5, SCOPE-6: excluded ids go, order stays, scope is judged before exclusion."""
    opts = parse_options({"scopes": ["s1"], "excludeIds": ["x", "o", "unknown"]})
    out = filter_hits([_c("x", "s1"), _c("a", "s1"), _c("o", "s2"), _c("b", "s1")], opts)
    assert [c.id for c in out.kept] == ["a", "b"]
    assert [(r.id, r.reason) for r in out.removed] == [("x", "excluded"), ("o", "out_of_scope")]


def test_scope_7_headroom_capped() -> None:
    """SCOPE-7: candidateK × headroom, capped at 2^31 − 1."""
    assert bm25_limit(60, parse_options({})) == 120
    assert bm25_limit(2, parse_options({"headroom": 1})) == 2
    assert bm25_limit(MAX_INTEGER, parse_options({})) == MAX_INTEGER


def test_scope_12_operation() -> None:
    """SCOPE-12: the filter operation cuts the kept hits to `limit` after filtering."""
    out = filter_op(
        {
            "hits": [{"id": i, "path": f"{i}.md"} for i in ("r", "a", "b", "c")],
            "excludeIds": ["r"],
            "limit": 2,
        }
    )
    assert out == {"kept": ["a", "b"], "removed": [{"id": "r", "reason": "excluded"}]}


def _search(request: dict[str, Any], backends: dict[str, Any]) -> dict[str, Any]:
    from conformance.adapters.ops.pipeline import op_search

    return op_search({"request": request, "backends": backends})


def _hits(*specs: tuple[str, str | None]) -> list[dict[str, Any]]:
    return [
        {"id": i, "path": f"{i}.md", **({} if s is None else {"metadata": {"scope": s}})}
        for i, s in specs
    ]


def test_scope_8_filtered_to_zero_starts_the_ladder() -> None:
    """SCOPE-8: an initial search whose hits are all out of scope counts as zero hits."""
    out = _search(
        {"query": "kubernetes helm", "mode": "bm25",
         "profiles": {"scoped-fusion": {"scopes": ["s1"]}}},
        {"bm25": {"responses": {
            '"kubernetes" OR "helm"': _hits(("o", "s2")),
            '"kubernetes"': _hits(("a", "s1")),
        }}},
    )
    rows = out["trace"]["bm25"]["attempts"]
    assert [(r["rung"], r["hits"]) for r in rows[:2]] == [("initial", 0), ("strongest_term", 1)]
    assert [r["id"] for r in out["results"]] == ["a"]


def test_scope_9_10_11_filtered_lists_feed_every_later_stage() -> None:
    """SCOPE-9: fusion and unanimity read the filtered lists; SCOPE-10: no extra cut beyond
    topK; SCOPE-11: the trace rows count the legs' calls."""
    out = _search(
        {"query": "kubernetes", "mode": "hybrid", "topK": 2,
         "profiles": {"scoped-fusion": {"excludeIds": ["x"]}}},
        {"bm25": {"responses": {'"kubernetes"': _hits(("x", None), ("a", None), ("b", None))}},
         "embedder": True, "vector": {"hits": _hits(("x", None), ("c", None))},
         "reranker": {"name": "scripted", "results": []}},
    )
    assert [r["id"] for r in out["results"]] == ["a", "c"]
    trace = out["trace"]
    assert trace["unanimity"]["agreements"] == 0  # {a, b} against {c}: x, excluded, never votes
    assert trace["profiles"]["scoped-fusion"] == {"legs": {
        "bm25": {"limit": 120, "searches": 1, "returned": 3, "outOfScope": 0, "excluded": 1},
        "vector": {"limit": 60, "searches": 1, "returned": 2, "outOfScope": 0, "excluded": 1},
    }}


def test_scope_16_semantic_weight_zero_still_lists_semantic_hits() -> None:
    """SCOPE-16 PIPE-11: at vector weight 0 the vector leg runs (not fused, no vote) and its
    semantic-only hits follow at score 0 in its order; without the profile PIPE-8 skips it."""
    request: dict[str, Any] = {
        "query": "kubernetes", "mode": "hybrid", "weights": {"bm25": 1, "vector": 0},
        "profiles": {"scoped-fusion": {}},
    }
    backends: dict[str, Any] = {
        "bm25": {"responses": {'"kubernetes"': _hits(("a", None), ("b", None))}},
        "embedder": True, "vector": {"hits": _hits(("d", None), ("a", None), ("c", None))},
    }
    out = _search(request, backends)
    assert [(r["id"], r["score"]) for r in out["results"]] == [
        ("a", 1 / 61), ("b", 1 / 62), ("d", 0.0), ("c", 0.0)
    ]
    assert out["trace"]["vector"]["ran"] is True
    assert [x["name"] for x in out["trace"]["fusion"]["lists"]] == ["bm25"]
    core = _search({**request, "profiles": {}}, backends)
    assert [r["id"] for r in core["results"]] == ["a", "b"]
    assert core["trace"]["vector"]["skip"] == "zero_weight"


def test_scope_13_14_15_dense_hits() -> None:
    """SCOPE-13: pre-selection by activation (ties by id ascending); SCOPE-14: overlap and one
    float addition; SCOPE-15: score ties by id descending."""
    from reference.profiles.scoped_fusion.dense_hits import Node, dense_hits, overlap

    assert overlap("Pricing Tiers", ["tier", "pricing", "Pricing", "", "tier"]) == 4
    nodes = [Node("d", "match", 0.5), Node("c", "", 0.5), Node("b", "", 0.5), Node("a", "", 0.5)]
    assert [h.id for h in dense_hits(nodes, ["match"], 1)] == ["c"]
    tied = dense_hits([Node("p", "w", 0.8), Node("q", "wx", 0.3)], ["w", "x"], 2)
    assert [(h.id, h.score) for h in tied] == [("q", 1.3), ("p", 1.3)]
