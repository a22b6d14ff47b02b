"""Optional features are capabilities, and the loader keeps `requires` honest (PROTO-27).

A port that lacks an optional feature gets `not_applicable`, never `errored` (PROTO-7); the
difference from the `unsupported` answer (OP-2) is in spec/operations.md.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from fake_adapters.support import HERE

from conformance.judging.capabilities import (
    RRF_WEIGHTS,
    detected,
    is_default_weight,
    requirement_problems,
    uses_rrf_weights,
)
from conformance.judging.cases import CaseFileError, load_all, load_text
from conformance.judging.selection import select
from conformance.running.results import RunOptions
from conformance.running.runner import run_suite
from reference.data import kit_root

DATA = kit_root() / "spec" / "data"


def _rrf_case(weight: str, requires: str = "") -> str:
    extra = f"\n    requires: [{requires}]" if requires else ""
    return f"""\
op: rrf
cases:
  - id: rrf/test/weight
    description: A list weight for the loader's capability check.
    clauses: [RRF-3]{extra}
    input: {{lists: [{{weight: {weight}, items: [{{id: a, path: a.md}}]}}]}}
    expect:
      error: invalid_input
"""


@pytest.mark.parametrize("weight", ["2", "0", "0.5", "-1", "true", '"1"'])
def test_a_weight_other_than_one_without_the_capability_is_a_malformed_case(weight: str) -> None:
    """PROTO-27 A list weight that is not the number 1 needs `rrf-weights` in `requires`."""
    with pytest.raises(CaseFileError) as info:
        load_text(_rrf_case(weight), "golden/rrf/x.yaml", "rrf")
    message = str(info.value)
    assert message.startswith("golden/rrf/x.yaml:3: case rrf/test/weight:")
    assert "needs capability 'rrf-weights'" in message


@pytest.mark.parametrize("weight", ["1", "1.0", "1.0e+0", "null"])
def test_weight_one_is_core_and_must_not_require_the_capability(weight: str) -> None:
    """PROTO-27 Weight 1 is the default: listing `rrf-weights` would hide a core case."""
    assert load_text(_rrf_case(weight), "golden/rrf/x.yaml", "rrf")[0].requires == ()
    with pytest.raises(CaseFileError, match="does not use it"):
        load_text(_rrf_case(weight, "rrf-weights"), "golden/rrf/x.yaml", "rrf")


def test_default_weight_is_the_number_one_or_null() -> None:
    """PROTO-27 `true` equals 1 in Python, but it is not a weight of 1."""
    assert is_default_weight(1) and is_default_weight(1.0)
    assert is_default_weight(None)  # OP-5: null is the absent default
    assert not any(is_default_weight(v) for v in (True, "1", 0, 2, 1.5))


def test_search_weights_need_the_capability_but_an_unknown_weight_key_does_not() -> None:
    """PROTO-27 `weights.bm25/vector/graph` other than 1 are RRF weights (GRAPH-4); other keys
    are validation."""
    assert uses_rrf_weights("search", {"request": {"weights": {"vector": 0}}})
    assert uses_rrf_weights("search_corpus", {"request": {"weights": {"bm25": 2}}})
    assert uses_rrf_weights("search", {"request": {"weights": {"bm25": 1, "graph": 2}}})
    assert not uses_rrf_weights("search", {"request": {"weights": {"bm25": 1, "dense": 2}}})
    assert not uses_rrf_weights("search", {"request": {"weights": {}}})
    assert not uses_rrf_weights("intent_reweight", {"weight": 2})


def test_backend_operations_need_their_backend_capabilities() -> None:
    """PROTO-27 An operation on a real backend needs that backend's capability."""
    assert detected("fts_search", {}, DATA) == {"sqlite-fts5"}
    assert detected("index_documents", {"vectorSearches": [{"query": "x"}]}, DATA) == {
        "sqlite-fts5",
        "embedder:hrc-hash-v1",
    }
    assert detected("chunk_document", {}, DATA) == set()
    problems = requirement_problems("lexical_rerank", {}, [], DATA)
    assert problems == [
        "the input needs capability 'reranker:hrc-lexical-v1' but `requires` does not list it"
    ]


def test_named_non_default_data_is_a_capability_read_from_spec_data(tmp_path: Path) -> None:
    """PROTO-27 A known table other than `anchor` needs `intent-table:NAME`/`stopwords:NAME`."""
    for name in ("intent-anchor.json", "intent-hrc-1.0.json", "stopwords-hrc-1.0.json"):
        (tmp_path / name).write_text("{}", encoding="utf-8")
    request = {"request": {"query": "x", "intentTable": "hrc-1.0", "stopwordList": "hrc-1.0"}}
    assert detected("search", request, tmp_path) == {"intent-table:hrc-1.0", "stopwords:hrc-1.0"}
    assert detected("intent_detect", {"table": "hrc-1.0"}, tmp_path) == {"intent-table:hrc-1.0"}
    assert detected("stopwords", {"stopwordList": "hrc-1.0"}, tmp_path) == {"stopwords:hrc-1.0"}
    # the default, an unknown name (invalid_input is core) and `table` of a non-intent op: none
    assert detected("intent_detect", {"table": "anchor"}, tmp_path) == set()
    assert detected("intent_detect", {"table": "nope"}, tmp_path) == set()
    assert detected("compile", {"table": "hrc-1.0"}, tmp_path) == set()


def test_every_golden_case_lists_exactly_the_input_capabilities_it_uses() -> None:
    """PROTO-27 The whole suite loads, and the weighted RRF cases are all optional."""
    cases = load_all()
    weighted = [c for c in cases if RRF_WEIGHTS in c.requires]
    assert len(weighted) >= 41
    assert {c.op for c in weighted} == {"rrf", "search"}
    assert all(uses_rrf_weights(c.op, c.input) for c in weighted)
    assert not any(uses_rrf_weights(c.op, c.input) for c in cases if c not in weighted)


def test_every_capability_the_suite_requires_is_documented() -> None:
    """PROTO-27 Each capability a case names appears in spec/operations.md's table."""
    table = (kit_root() / "spec" / "operations.md").read_text(encoding="utf-8")
    documented = set(re.findall(r"^\| `([^`]+)` \|", table, re.MULTILINE))
    # `profile:NAME` is documented once for every profile (PROFILE-1, PROFILE-3).
    used = {
        "profile:NAME" if c.startswith("profile:") else c
        for case in load_all()
        for c in case.requires
    }
    assert used - documented == set()
    assert "rrf-weights" in documented


def test_a_port_without_rrf_weights_gets_not_applicable_never_errored() -> None:
    """PROTO-7 The weighted cases are not sent to a port lacking `rrf-weights`; the rest pass."""
    cases = select(load_all(), ["rrf/basics", "rrf/invalid", "pipeline/fusion"])
    argv = [sys.executable, str(HERE / "reference_without.py"), RRF_WEIGHTS]
    run = run_suite(cases, argv, RunOptions(timeout=10))
    by_status: dict[str, set[str]] = {}
    for result in run.results:
        by_status.setdefault(result.status, set()).add(result.case.id)
    weighted = {c.id for c in cases if RRF_WEIGHTS in c.requires}
    assert weighted and by_status["not_applicable"] == weighted
    assert set(by_status) == {"passed", "not_applicable"}
    reasons = {r.message for r in run.results if r.status == "not_applicable"}
    assert reasons == {"capability 'rrf-weights' is not declared"}
