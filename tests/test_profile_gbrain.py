"""Profile gbrain (spec/profiles/gbrain.md): link extraction, traversal, the graph backend."""

from __future__ import annotations

import json
from typing import Any

import pytest

from reference.data import data_path
from reference.profile_hooks import ProfileCall
from reference.profiles import discover
from reference.profiles.gbrain import PIPELINE, VERSION
from reference.profiles.gbrain.graph_leg import entity_seeds, graph_backend, parse_graph_data
from reference.profiles.gbrain.links import Edge, blank_line, code_lines, extract_links, target_page
from reference.profiles.gbrain.ops import op_extract_links, op_traverse
from reference.profiles.gbrain.table import link_table
from reference.profiles.gbrain.traverse import WalkOptions, traverse
from reference.types import InvalidInput


def edges(markdown: str, path: str = "wiki/people/alice.md") -> list[tuple[str, str]]:
    return [(e.target, e.type) for e in extract_links(path, markdown)[1]]


def test_profile_is_discovered_with_its_chapter_version() -> None:
    """GBRAIN-1 The chapter's version, the ops and the pipeline hooks are exported."""
    profile = discover()["gbrain"]
    chapter = (data_path("intent-anchor.json").parents[1] / "profiles" / "gbrain.md").read_text()
    assert f"Profile version **{VERSION}**." in chapter
    assert set(profile.operations) == {"gbrain.extract_links", "gbrain.traverse"}
    assert profile.pipeline is PIPELINE


def test_link_table_loads_the_shipped_patterns() -> None:
    """GBRAIN-1 The patterns come from links.json; the subset adds only [^...], groups, \\t."""
    doc = json.loads(data_path("profiles/gbrain/links.json").read_text(encoding="utf-8"))
    table = link_table()
    assert table.wikilink.pattern == doc["patterns"]["wikilink"]["source"]
    assert [t for t, _ in table.triggers] == [
        "founded", "invested_in", "advises", "works_at", "attended"
    ]
    for pat in doc["patterns"].values():
        for banned in ("\\S", "\\d", "\\w", "\\B", "(?=", "(?!", "(?<", "*?", "+?", "$"):
            assert banned not in pat["source"]


def test_output_shape_and_line_ends() -> None:
    """GBRAIN-2 {page, edges}; CRLF and CR end lines."""
    out = op_extract_links({"path": "p.md", "markdown": "> **T:** [a](x)\r[b](y)"})
    assert out == {
        "page": "p",
        "edges": [
            {"from": "p", "to": "x", "type": "t"},
            {"from": "p", "to": "y", "type": "mentions"},
        ],
    }
    with pytest.raises(InvalidInput):
        op_extract_links({"path": "..", "markdown": ""})


def test_fences_hide_lines() -> None:
    """GBRAIN-3 Fence lines and everything between are code; 4-space indent is not a fence."""
    assert code_lines(["```", "x", "``", "```", "y"]) == [True, True, True, True, False]
    assert code_lines(["    ```", "x"]) == [False, False]
    assert code_lines(["~~~~", "~~~", "~~~~ ", "z"]) == [True, True, True, False]


def test_code_spans_and_escapes_blank_per_code_point() -> None:
    """GBRAIN-4 Escapes and same-line code spans become one space per code point."""
    assert blank_line("a\\[b") == "a  b"
    assert blank_line("`\U0001d400`x") == "   x"
    assert blank_line("`` a ` b ``!") == " " * 11 + "!"
    assert blank_line("`open") == "`open"


def test_forms_wikilinks_first_and_images_skipped() -> None:
    """GBRAIN-5 Wikilinks win over a markdown reading; images give no edge; one nesting level."""
    assert edges("[[a]](b) ![i](img) [x [y] z](t) [p [q [r]] s](u)") == [
        ("a", "mentions"), ("t", "mentions")
    ]


def test_targets_resolve() -> None:
    """GBRAIN-6 External, anchors, NFC, .md, relative, root escape."""
    base = ("wiki", "people")
    assert target_page("https://x", base) is None
    assert target_page("#a", base) is None
    assert target_page("../x.md#h", base) == "wiki/x"
    assert target_page("e\u0301", base) == "\u00e9"
    assert target_page("../../../x", base) is None
    assert target_page("/a//./b", base) == "a/b"


def test_typed_lines_type_every_link() -> None:
    """GBRAIN-7 The label types every link on the line; inference does not run there."""
    assert edges("> **Invested-in:** founded [[a]] [b](b)") == [
        ("a", "invested_in"), ("b", "invested_in")
    ]


def test_inference_nearest_then_table_order() -> None:
    """GBRAIN-8 Nearest trigger wins; equal distance goes to table order; window of 8."""
    assert edges("Bob founded Acme and now advises [B](b).") == [("b", "advises")]
    assert edges("She advises [A](a) founded by Bob.") == [("a", "founded")]
    assert edges("founded 1 2 3 4 5 6 7 8 [A](a)") == [("a", "mentions")]
    assert edges("She founded it. Then [B](b) met.") == [("b", "mentions")]


def test_edges_unique_sorted_no_self() -> None:
    """GBRAIN-9 Unique by (to, type), by code point, self links dropped."""
    assert edges("[[b]] [[a]] [[a]] [[wiki/people/alice]]\nShe founded [[a]].") == [
        ("a", "founded"), ("a", "mentions"), ("b", "mentions")
    ]


def test_traverse_validates_inputs() -> None:
    """GBRAIN-10 Bounds, distinct seeds, edge fields, direction."""
    for bad in (
        {"seeds": ["a", "a"], "edges": []},
        {"seeds": ["a"], "edges": [], "depth": 11},
        {"seeds": ["a"], "edges": [], "fanout": 0},
        {"seeds": ["a"], "edges": [], "direction": "up"},
        {"seeds": ["a"], "edges": [{"from": "a", "to": "b"}]},
    ):
        with pytest.raises(InvalidInput):
            op_traverse(bad)


def test_walk_fanout_and_support() -> None:
    """GBRAIN-11 Fan-out takes neighbours by code point; support counts the takers."""
    e = [Edge("a", "b", "t"), Edge("a", "c", "t"), Edge("b", "d", "t"), Edge("c", "d", "t")]
    got = [(r.page, r.depth, r.support) for r in traverse(e, ["a"], WalkOptions(fanout=1))]
    assert got == [("a", 0, 0), ("b", 1, 1), ("d", 2, 1)]


def test_rank_depth_support_id() -> None:
    """GBRAIN-12 Depth ascending, support descending, id by code point."""
    e = [Edge("a", "z", "t"), Edge("b", "z", "t"), Edge("a", "m", "t")]
    got = [r.page for r in traverse(e, ["b", "a"], WalkOptions(depth=1))]
    assert got == ["a", "b", "z", "m"]


def _call(options: dict[str, Any], backend: dict[str, Any] | None) -> ProfileCall:
    return ProfileCall(
        "gbrain", PIPELINE.parse_request(options), parse_graph_data(backend)
    )


def test_request_options_and_backend_data_are_validated() -> None:
    """GBRAIN-13 Unknown options, repeated page ids and bad edges are invalid input."""
    with pytest.raises(InvalidInput):
        PIPELINE.parse_request({"seed": 1})
    with pytest.raises(InvalidInput):
        parse_graph_data({"pages": [{"id": "x", "path": "a.md"}, {"id": "y", "path": "a"}]})
    assert graph_backend(_call({}, None)) is None


def test_seeds_are_the_query_entities() -> None:
    """GBRAIN-14 Title or last id segment, as consecutive words of the query."""
    data = parse_graph_data({"pages": [
        {"id": "1", "path": "c/acme-ai.md"}, {"id": "2", "path": "p/x.md", "title": "Bob Jones"},
        {"id": "3", "path": "p/jones-bob.md"},
    ]})
    assert data is not None
    assert entity_seeds("Did Bob Jones join Acme-AI?", data) == ["c/acme-ai", "p/x"]


def test_graph_backend_hits_and_trace() -> None:
    """GBRAIN-15 GBRAIN-24 Reached pages in rank order; the edge to the unindexed carol is not
    stored, so it is neither walked nor counted in reached."""
    call = _call({}, {"pages": [
        {"id": "a", "path": "acme.md", "content": "[[carol]] [[bob]]"},
        {"id": "b", "path": "bob.md"},
    ]})
    backend = graph_backend(call)
    assert backend is not None
    assert [h.id for h in backend.search_graph("acme", 10)] == ["a", "b"]
    assert call.trace == {"seeds": ["acme"], "reached": 2}
    assert [h.id for h in backend.search_graph("acme", 1)] == ["a"]


def test_only_edges_between_indexed_pages_are_stored() -> None:
    """GBRAIN-24 Given edges with an unindexed end (either side) are dropped before the walk."""
    from reference.profiles.gbrain.graph_leg import parse_graph_data

    data = parse_graph_data({
        "pages": [{"id": "a", "path": "a.md"}, {"id": "d", "path": "d.md"}],
        "edges": [
            {"from": "a", "to": "ghost", "type": "t"},
            {"from": "ghost", "to": "d", "type": "t"},
            {"from": "d", "to": "a", "type": "t"},
        ],
    })
    assert data is not None
    assert [(e.source, e.target) for e in data.edges] == [("d", "a")]


def test_indexer_keeps_edges_with_the_chunks(tmp_path: Any) -> None:
    """GBRAIN-2 `hrc index` writes each document's edges in its transaction; an edge to a
    missing page is kept and reported; a changed or removed document changes its edges."""
    from reference.backends.indexer import index_directory
    from reference.backends.sqlite_fts import SqliteIndex
    from reference.profiles.gbrain.edges_table import EdgesTable

    root = tmp_path / "notes"
    root.mkdir()
    (root / "a.md").write_text("Ann founded [B](b.md) and [[ghost]].\n", encoding="utf-8")
    (root / "b.md").write_text("# B\n", encoding="utf-8")
    index = SqliteIndex(":memory:")
    index_directory(root, index)
    table = EdgesTable(index.connection())
    assert table.summary().edges == 2
    assert table.summary().missing == [("a", "ghost", "founded")]
    assert [e["to"] for e in table.graph_data()["edges"]] == ["b", "ghost"]
    (root / "a.md").write_text("Ann advises [B](b.md).\n", encoding="utf-8")
    index_directory(root, index)
    assert table.graph_data()["edges"] == [{"from": "a", "to": "b", "type": "advises"}]
    (root / "a.md").unlink()
    index_directory(root, index)
    assert table.summary().edges == 0


def test_excludes_filter_before_the_cut_and_dedup_keeps_the_best() -> None:
    """GBRAIN-16 GBRAIN-17 Exclusion asks for every hit, then filters; dedup, after the
    reranker, keeps the first of each page in the reranked order."""
    from reference.profiles.gbrain.graph_leg import (
        after_fusion,
        after_rerank,
        filter_leg,
        leg_limit,
    )
    from reference.rrf import RankedList, fuse
    from reference.types import Candidate

    call = ProfileCall("gbrain", PIPELINE.parse_request({}), None)
    assert call.options.exclude == ("test/", "archive/", "attachments/", ".raw/")
    assert leg_limit(call, "bm25", 5) == 2**31 - 1
    hits = [Candidate("1", "archive/a.md"), Candidate("2", "b.md")]
    assert [h.id for h in filter_leg(call, "bm25", hits)] == ["2"]
    none = ProfileCall("gbrain", PIPELINE.parse_request({"exclude": []}), None)
    assert leg_limit(none, "bm25", 5) == 5
    items = (Candidate("a#1", "a.md"), Candidate("b", "b.md"), Candidate("a#0", "./a"))
    fused = fuse([RankedList("bm25", 1.0, items)])
    assert [f.id for f in after_fusion(call, "q", fused)] == ["a#1", "b", "a#0"]
    reranked = [("a#0", 0.9), ("b", 0.5), ("a#1", 0.1)]
    assert after_rerank(call, "q", reranked, "reranked") == ["a#0", "b"]
    assert after_rerank(call, "q", [(f.id, None) for f in fused], "skipped") == ["a#1", "b"]
    off = ProfileCall("gbrain", PIPELINE.parse_request({"dedup": False}), None)
    after_fusion(off, "q", fused)
    assert len(after_rerank(off, "q", reranked, "reranked")) == 3
    budget = ProfileCall("gbrain", PIPELINE.parse_request({"tokenBudget": 1}), None)
    two = (Candidate("a#0", "a.md", content="x"), Candidate("a#1", "a.md", content="y"),
           Candidate("b", "b.md", content="z"))
    after_fusion(budget, "q", fuse([RankedList("bm25", 1.0, two)]))
    # GBRAIN-21 before GBRAIN-17 (seed 004's order): a#1 uses up the budget before dedup.
    assert after_rerank(budget, "q", [("a#0", None), ("a#1", None), ("b", None)], "x") == ["a#0"]
    assert budget.trace["budget"] == {"limit": 1, "used": 1, "dropped": 2}


def test_fused_list_is_cut_to_the_top_30() -> None:
    """GBRAIN-25 After the boosts and before the reranker, the fused list keeps 30 items."""
    from reference.profiles.gbrain.graph_leg import FUSED_TOP, after_fusion
    from reference.rrf import RankedList, fuse
    from reference.types import Candidate

    assert FUSED_TOP == 30
    items = tuple(Candidate(f"p{i:02d}", f"p{i:02d}.md") for i in range(31))
    fused = fuse([RankedList("bm25", 1.0, items)])
    call = ProfileCall("gbrain", PIPELINE.parse_request({}), None)
    assert [f.id for f in after_fusion(call, "q", fused)] == [f"p{i:02d}" for i in range(30)]


def test_boost_longest_prefix_and_exact_order() -> None:
    """GBRAIN-18 Longest prefix's factor; order by exact value, not the rounded float."""
    from reference.profiles.gbrain.graph_leg import boost
    from reference.rrf import RankedList, fuse
    from reference.types import Candidate

    items = (Candidate("x", "x/a.md"), Candidate("y", "y/b.md"))
    fused = fuse([RankedList("bm25", 1.0, items)])
    options = PIPELINE.parse_request({"boost": {"x/": 0.9838709677419354, "x/a": 1.0}})
    assert [f.id for f in boost(options, fused)] == ["x", "y"]
    options = PIPELINE.parse_request({"boost": {"x/": 0.9838709677419354}})
    out = boost(options, fused)
    assert [f.id for f in out] == ["y", "x"] and out[0].score == out[1].score
    with pytest.raises(InvalidInput):
        PIPELINE.parse_request({"boost": {"x/": 0}})


def test_intent_classes_in_file_order_and_routing() -> None:
    """GBRAIN-19 GBRAIN-20 First class with a whole-word trigger; entity doubles the graph."""
    from reference.profiles.gbrain.routing import classify, route_weights

    assert classify("what happened last week?") == "temporal"
    assert classify("Acme AI Series A") == "event"
    assert classify("who raised the Series A?") == "event"
    assert classify("who works at Acme?") == "entity"
    assert classify("whoever knows") == "general"
    w = {"bm25": 1.0, "vector": 1.0, "graph": 1.0}
    assert route_weights("entity", w)["graph"] == 2.0
    assert route_weights("temporal", w) == w


def test_token_budget_keeps_the_longest_fitting_prefix() -> None:
    """GBRAIN-21 TEXT-7 words of the content; the first item that does not fit ends the list."""
    from reference.profiles.gbrain.graph_leg import within_budget
    from reference.types import Candidate

    items = tuple(
        Candidate(str(i), f"{i}.md", content=text)
        for i, text in enumerate(["one two three", "four five six seven", "eight"])
    )
    call = ProfileCall("gbrain", PIPELINE.parse_request({"tokenBudget": 7}), None)
    assert [c.id for c in within_budget(call, 7, list(items))] == ["0", "1"]
    assert call.trace["budget"] == {"limit": 7, "used": 7, "dropped": 1}
    assert within_budget(call, 2, list(items)) == []


def test_cli_index_reports_links_and_search_runs_the_graph_leg(
    tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    """GBRAIN-13 GBRAIN-15 `hrc index` reports missing targets; `hrc search --profile gbrain`
    fuses the graph leg built from the index's pages and edges."""
    from conformance.cli import main

    root = tmp_path / "notes"
    (root / "people").mkdir(parents=True)
    (root / "people" / "ann.md").write_text(
        "# Ann\n\nAnn works at [Acme](../acme.md) with [[people/ghost]].\n", encoding="utf-8"
    )
    (root / "acme.md").write_text("# Acme\n\nA company.\n", encoding="utf-8")
    db = tmp_path / "index.db"
    assert main(["index", str(root), "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "links: 2 edges, 1 to pages not indexed" in out
    assert "people/ann -> people/ghost (works_at): no such page" in out
    argv = ["search", "who works at Acme", "--db", str(db), "--mode", "hybrid"]
    assert main([*argv, "--profile", "gbrain", "--json"]) == 0
    trace = json.loads(capsys.readouterr().out)["trace"]
    assert trace["profiles"]["gbrain"] == {"intent": "entity", "seeds": ["acme"], "reached": 2}
    assert trace["graph"]["hits"] == 2


def test_mode_bundles_preset_expansion_reranker_and_budget() -> None:
    """GBRAIN-26 GBRAIN-27 The seed's switches, the kit's budgets; explicit options win; the
    trace says what is in force; an unknown bundle or a non-boolean switch is invalid."""
    from reference.profiles.gbrain.graph_leg import query_variants, rerank_enabled

    expected = {
        "conservative": (False, False, 4000),
        "balanced": (False, True, 8000),
        "tokenmax": (True, True, 16000),
    }
    for name, (expansion, reranker, budget) in expected.items():
        options = PIPELINE.parse_request({"bundle": name, "variants": ["v"]})
        call = ProfileCall("gbrain", options, None)
        assert query_variants(call, "q") == (["v"] if expansion else [])
        assert rerank_enabled(call) is reranker
        assert call.trace["bundle"] == {
            "name": name, "expansion": expansion, "reranker": reranker, "tokenBudget": budget,
        }
    plain = ProfileCall("gbrain", PIPELINE.parse_request({"variants": ["v"]}), None)
    assert query_variants(plain, "q") == ["v"] and rerank_enabled(plain)
    assert "bundle" not in plain.trace and plain.options.token_budget is None
    mixed = PIPELINE.parse_request(
        {"bundle": "balanced", "expansion": True, "reranker": False, "tokenBudget": 2}
    )
    assert (mixed.expansion, mixed.reranker, mixed.token_budget) == (True, False, 2)
    for bad in ({"bundle": "fast"}, {"bundle": "balanced", "reranker": "yes"}, {"expansion": 1}):
        with pytest.raises(InvalidInput):
            PIPELINE.parse_request(bad)
