"""Profile scoped-fusion (spec/profiles/scoped-fusion.md): options, filter, headroom, weights.

Pure functions of reference/profiles/scoped_fusion/; the pipeline behaviour (SCOPE-6..11) is
also checked end to end by golden/profiles/scoped-fusion/search.yaml.
"""

from __future__ import annotations

import pytest

from reference.profiles.scoped_fusion.options import parse_options
from reference.profiles.scoped_fusion.ops import filter_op
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
    with pytest.raises(InvalidInput, match="weights.vector"):
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
