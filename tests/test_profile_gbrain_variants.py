"""Profile gbrain's query variants (spec/profiles/gbrain.md GBRAIN-22, GBRAIN-23) on the core's
multi-variant run (spec/pipeline.md PIPE-12)."""

from __future__ import annotations

from typing import Any

import pytest

from reference.pipeline import Backends, search
from reference.profile_hooks import ProfileCall
from reference.profiles.gbrain import PIPELINE
from reference.profiles.gbrain.graph_leg import parse_options
from reference.types import Candidate, InvalidInput
from tests.test_pipeline import FakeEmbedder, FakeIndex, FakeVectors


def cand(cid: str, path: str, content: str = "", title: str = "") -> Candidate:
    return Candidate(id=cid, path=path, title=title, content=content)


def gbrain(options: dict[str, Any], index: FakeIndex, **request: Any) -> Any:
    req = {"query": "acme", "mode": "bm25", "profiles": {"gbrain": options}, **request}
    return search(req, Backends(index=index))


@pytest.mark.parametrize(
    "variants",
    [
        [f"v{i}" for i in range(9)],
        [""],
        ["beta", " \u200b\t"],
        ["beta", 3],
        ["beta", None],
        "beta",
        {"0": "beta"},
    ],
)
def test_bad_variants_option_is_invalid_input(variants: Any) -> None:
    """GBRAIN-22: more than 8, a non-string, an empty-after-normalisation member, not a list."""
    with pytest.raises(InvalidInput, match="variants"):
        parse_options({"variants": variants})


def test_eight_variants_and_null_are_accepted() -> None:
    """GBRAIN-22: the bound is inclusive; null (OP-5) is no variant."""
    eight = [f"v{i}" for i in range(8)]
    assert parse_options({"variants": eight}).variants == tuple(eight)
    assert parse_options({"variants": None}).variants == ()
    assert parse_options({}).variants == ()


def test_query_variants_hook_returns_the_caller_list_as_given() -> None:
    """GBRAIN-22: the hook passes repeats through; dropping them is the core's (PIPE-12)."""
    options = parse_options({"variants": ["Acme  AI", "Acme AI"]})
    assert PIPELINE.query_variants is not None
    hook = PIPELINE.query_variants
    assert hook(ProfileCall("gbrain", options, None), "acme") == ["Acme  AI", "Acme AI"]


def test_variant_finds_what_the_query_misses() -> None:
    """GBRAIN-22, PIPE-12: the seed's synonym case (car / automobile)."""
    index = FakeIndex({'"car"': [cand("a", "a.md")], '"automobile"': [cand("b", "b.md")]})
    results, _ = gbrain({"variants": ["automobile"]}, index, query="car")
    assert [r["id"] for r in results] == ["a", "b"]


def test_temporal_bypass_follows_variant_0() -> None:
    """GBRAIN-23: a temporal variant does not switch off the general query's boosts."""
    index = FakeIndex({'"acme" OR "pricing"': [cand("d", "daily/x.md"), cand("a", "notes/a.md")]})
    options = {"variants": ["what happened last week"], "boost": {"daily/": 0.5}}
    results, trace = gbrain(options, index, query="acme pricing")
    assert [r["id"] for r in results] == ["a", "d"]
    assert trace["profiles"]["gbrain"]["intent"] == "general"


def test_each_variant_routes_its_own_graph_weight() -> None:
    """GBRAIN-23, GBRAIN-20: the entity variant fuses its graph list at weight 2."""
    pages = [{"id": "acme", "path": "companies/acme.md", "title": "Acme"}]
    backends = Backends(index=FakeIndex(), embedder=FakeEmbedder(), vectors=FakeVectors([]),
                        profile_data={"gbrain": {"pages": pages}})
    request = {"query": "acme pricing", "mode": "hybrid",
               "profiles": {"gbrain": {"variants": ["who works at Acme?"]}}}
    _, trace = search(request, backends)
    weights = [[x["weight"] for x in v["lists"] if x["name"] == "graph"] for v in trace["variants"]]
    assert weights == [[1.0], [2.0]]
    assert trace["profiles"]["gbrain"]["seeds"] == ["companies/acme"]


def test_dedup_and_budget_run_once_on_the_merged_list() -> None:
    """GBRAIN-23: two chunks of a.md found by different variants leave one; the budget
    counts the merged, reranked list before dedup (GBRAIN-21, seed 004's order), so a.md#1
    (3 words) ends the list at 2 of 4 tokens and b goes with it."""
    index = FakeIndex({
        '"acme"': [cand("a.md#0", "a.md", "one two")],
        '"beta"': [cand("a.md#1", "a.md", "three four five"), cand("b", "b.md", "six seven")],
    })
    results, trace = gbrain({"variants": ["beta"], "tokenBudget": 4}, index)
    assert [r["id"] for r in results] == ["a.md#0"]
    assert trace["profiles"]["gbrain"]["budget"] == {"limit": 4, "used": 2, "dropped": 2}


def test_excludes_filter_every_variant() -> None:
    """GBRAIN-23, GBRAIN-16: an excluded page found by a variant never ranks."""
    index = FakeIndex({'"acme"': [cand("a", "a.md")], '"beta"': [cand("old", "archive/x.md")]})
    results, trace = gbrain({"variants": ["beta"]}, index)
    assert [r["id"] for r in results] == ["a"]
    assert trace["variants"][1]["bm25"]["hits"] == 0


def test_cli_search_variant_option(tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    """GBRAIN-22: `hrc search --profile gbrain --variant TEXT` runs the variant; without the
    profile the option is refused."""
    import json

    from conformance.cli import main

    root = tmp_path / "notes"
    root.mkdir()
    (root / "car.md").write_text("# Car\n\nA car.\n", encoding="utf-8")
    (root / "auto.md").write_text("# Auto\n\nAn automobile.\n", encoding="utf-8")
    db = tmp_path / "index.db"
    assert main(["index", str(root), "--db", str(db)]) == 0
    capsys.readouterr()
    argv = ["search", "car", "--db", str(db), "--mode", "bm25"]
    assert main([*argv, "--profile", "gbrain", "--variant", "automobile", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [v["query"] for v in out["trace"]["variants"]] == ["car", "automobile"]
    assert {r["path"] for r in out["results"]} == {"car.md", "auto.md"}
    assert main([*argv, "--variant", "automobile"]) != 0
