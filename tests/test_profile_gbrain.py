"""Profile gbrain (spec/profiles/gbrain.md): link extraction, traversal, the graph backend."""

from __future__ import annotations

import json
from typing import Any

import pytest

from reference.data import data_path
from reference.profiles import discover
from reference.profiles.gbrain import VERSION
from reference.profiles.gbrain.augment import WalkOptions, walk, walk_options
from reference.profiles.gbrain.links import Edge, extract_links, strip_code
from reference.profiles.gbrain.ops import op_extract_links, op_traverse
from reference.profiles.gbrain.slug import decode_uri_component, slugify_path
from reference.profiles.gbrain.table import link_table
from reference.profiles.gbrain.traverse import TraverseOptions, clamp_depth, traverse
from reference.types import InvalidInput


def edges(markdown: str, path: str = "wiki/people/alice.md") -> list[tuple[str, str]]:
    return [(e.target, e.type) for e in extract_links(path, markdown)[1]]


def test_profile_is_discovered_with_its_chapter_version() -> None:
    """GBRAIN-1 The chapter's version and the ops are exported; no hooks in the core search."""
    profile = discover()["gbrain"]
    chapter = (data_path("intent-anchor.json").parents[1] / "profiles" / "gbrain.md").read_text()
    assert f"Profile version **{VERSION}**." in chapter
    assert set(profile.operations) == {"gbrain.extract_links", "gbrain.search", "gbrain.traverse"}
    assert profile.pipeline is None


def test_link_table_loads_the_shipped_patterns() -> None:
    """GBRAIN-1 The code's six patterns and the kit's typed one come from links.json."""
    doc = json.loads(data_path("profiles/gbrain/links.json").read_text(encoding="utf-8"))
    table = link_table()
    assert table.generic.regex.pattern == doc["patterns"]["generic"]["source"]
    assert "\\s" not in table.markdown.regex.pattern  # spelled out as JavaScript's set
    assert table.markdown.regex.search("[a](people/x\ufeff)") is None
    assert table.markdown.regex.search("[a](people/x\x85)") is not None
    assert [t for t, _ in table.types] == [
        "founded", "invested_in", "advises", "works_at",
        "founded", "invested_in", "advises", "works_at", "cited", "attended",
    ]
    assert table.window == 240 and "companies" in table.directories
    for pat in doc["patterns"].values():
        for banned in ("\\S", "\\d", "\\w", "\\B", "(?=", "(?!", "(?<", "$"):
            assert banned not in pat["source"]


def test_output_shape_and_line_ends() -> None:
    """GBRAIN-2 {page, edges}; CR LF and CR end typed lines; no line-end normalisation."""
    out = op_extract_links({"path": "p.md", "markdown": "> **T:** [a](x/a)\r[b](x/b)"})
    assert out == {
        "page": "p",
        "edges": [
            {"from": "p", "to": "x/a", "type": "t"},
            {"from": "p", "to": "x/b", "type": "mentions"},
        ],
    }
    assert edges("`a\r[b](x/b)`") == []
    with pytest.raises(InvalidInput):
        op_extract_links({"path": "..", "markdown": ""})


def test_fences_run_to_the_next_three_backticks_anywhere() -> None:
    """GBRAIN-3 ``` to the next ``` (line ends inside included) becomes spaces; ~~~ is text."""
    assert strip_code("a```x\ny```b") == "a" + " " * 9 + "b"
    assert strip_code("```\nx") == " " * 5
    assert strip_code("~~~\nx\n~~~") == "~~~\nx\n~~~"
    assert strip_code("    ```\nx\n```") == "    " + " " * 9


def test_code_spans_one_backtick_to_the_next_per_utf16_unit() -> None:
    """GBRAIN-4 One backtick to the next on the same line; one space per UTF-16 code unit."""
    assert strip_code("`\U0001d400`x") == "    x"
    assert strip_code("``a``") == "  a  "
    assert strip_code("`open\nx` y") == "`open\nx` y"
    assert strip_code("a\\`b`") == "a\\   "


def test_forms_are_the_codes_passes() -> None:
    """GBRAIN-5 Passes 1, 1b, 2a-2c: a first folder segment, sibling .md, listed folders, bare."""
    page = "[[a]](b) ![i](img/i) [x [y] z](t/u) [n](notes) [s](sib.md) [[wiki:people/q]]"
    assert edges(page) == [
        ("a", "mentions"), ("img/i", "mentions"), ("people/q", "mentions"),
        ("wiki/people/sib", "mentions"),
    ]


def test_targets_as_the_code_reads_them() -> None:
    """GBRAIN-6 ../ from the page's folder, % decoded, slugified bare names, literal slashes."""
    assert edges("[c](../companies/acme.md) [d](people/a%20b) [e](people/x#h)") == [
        ("people/a b", "mentions"), ("people/x#h", "mentions"), ("wiki/companies/acme", "mentions"),
    ]
    assert edges("[[Caf\u00e9 Menu]] [[Notes/My Page]] [[people/bo\\|Bo]]") == [
        ("Notes/My Page", "mentions"), ("cafe-menu", "mentions"), ("people/bo", "mentions"),
    ]
    assert decode_uri_component("%E2%82") is None and decode_uri_component("%41") == "A"
    assert slugify_path("./A\\B C.MD") == "a/b-c"
    assert slugify_path("\u039f\u03a3") == "\u03bf\u03c2"


def test_typed_lines_type_every_link() -> None:
    """GBRAIN-7 The label types every link on the line; inference does not run there."""
    assert edges("> **Invested-in:** founded [[a]] [b](x/b)") == [
        ("a", "invested_in"), ("x/b", "invested_in")
    ]


def test_inference_regex_order_in_a_240_unit_window() -> None:
    """GBRAIN-8 The first regex in table order wins over a nearer one; 120 units each side."""
    assert edges("Bob founded Acme and now advises [B](x/b).") == [("x/b", "founded")]
    assert edges("She works at [A](x/a), invested in it.") == [("x/a", "invested_in")]
    assert edges("founded" + "." * 112 + " [A](x/a)") == [("x/a", "mentions")]
    assert edges("founded" + "." * 111 + " [A](x/a)") == [("x/a", "founded")]
    assert edges("She attended [M](x/m).") == [("x/m", "attended")]


def test_links_json_names_the_code_it_carries() -> None:
    """GBRAIN-1 Every type regex says where it comes from: the code at the pinned commit, or hrc."""
    doc = json.loads(data_path("profiles/gbrain/links.json").read_text(encoding="utf-8"))
    commit = "01aab110d0090eb38f706b6af84351b433a17597"
    assert commit in doc["provenance"] and "MIT" in doc["provenance"]
    code = (e for e in doc["types"] if e["type"] != "attended")
    for entry in code:
        assert entry["provenance"].startswith("garrytan/gbrain src/core/link-extraction.ts:")
        assert commit in entry["provenance"] and "(MIT)" in entry["provenance"]
    assert doc["types"][-1]["provenance"].startswith("hrc's own (decision G6)")
    assert commit in doc["windowProvenance"] and commit in doc["directoriesProvenance"]


def test_edges_unique_sorted_self_by_pass() -> None:
    """GBRAIN-9 Unique by (to, type), by code point; only 1b and 2c drop a self link."""
    far = "\n" + "." * 200 + " She founded"
    # [[alice]] is the root page alice; [x](alice.md) is this page and dropped
    assert edges("[[b]] [[a]] [[a]] [[alice]] [x](alice.md)" + far + " [[a]].") == [
        ("a", "mentions"), ("alice", "mentions"), ("b", "mentions"),
    ]
    assert edges("[A](x/a) [[x/a]]" + far + " [Ace](x/a).") == [
        ("x/a", "founded"), ("x/a", "mentions")
    ]
    assert edges("[me](wiki/people/alice)") == [("wiki/people/alice", "mentions")]


def test_traverse_validates_inputs() -> None:
    """GBRAIN-10 Distinct seeds, edge fields, direction, linkType a string, no 3.0.0 member."""
    for bad in (
        {"seeds": ["a", "a"], "edges": []},
        {"seeds": ["a"], "edges": [], "depth": 2.5},
        {"seeds": ["a"], "edges": [], "depth": 2**31},
        {"seeds": ["a"], "edges": [], "fanout": 3},
        {"seeds": ["a"], "edges": [], "types": ["t"]},
        {"seeds": ["a"], "edges": [], "linkType": ["t"]},
        {"seeds": ["a"], "edges": [], "direction": "up"},
        {"seeds": ["a"], "edges": [{"from": "a", "to": "b"}]},
    ):
        with pytest.raises(InvalidInput):
            op_traverse(bad)


def test_depth_is_the_codes_clamp() -> None:
    """GBRAIN-11 (p.depth || 5) clamped to 1..10: 0 is 5, 11 is 10, -3 is 1."""
    assert [clamp_depth(d) for d in (0, 1, 5, 10, 11, 2**31 - 1, -3)] == [5, 1, 5, 10, 10, 10, 1]
    chain = [{"from": f"p{i}", "to": f"p{i + 1}", "type": "t"} for i in range(7)]
    got = op_traverse({"seeds": ["p0"], "edges": chain})["results"]
    assert got[-1] == {"page": "p5", "depth": 5}


def test_walk_keeps_a_visited_set_per_path() -> None:
    """GBRAIN-11 A page is reached at each depth a path without repeats gives it; out by default."""
    e = [Edge("a", "b", "t"), Edge("b", "c", "t"), Edge("a", "c", "t"), Edge("c", "b", "t"),
         Edge("z", "a", "t")]
    got = [(r["page"], r["depth"]) for r in traverse(e, ["a"], TraverseOptions())]
    assert got == [("a", 0), ("b", 1), ("c", 1), ("b", 2), ("c", 2)]


def test_walk_follows_one_link_type_and_the_direction() -> None:
    """GBRAIN-11 linkType filters every step; in follows edges backwards; both either way."""
    e = [Edge("b", "a", "works_at"), Edge("c", "b", "works_at"), Edge("d", "b", "founded")]
    inward = TraverseOptions(link_type="works_at", direction="in")
    assert [r["page"] for r in traverse(e, ["a"], inward)] == ["a", "b", "c"]
    both = TraverseOptions(direction="both")
    assert [(r["page"], r["depth"]) for r in traverse(e, ["b"], both)] == [
        ("b", 0), ("a", 1), ("c", 1), ("d", 1)
    ]


def test_results_are_distinct_pairs_by_depth_then_page() -> None:
    """GBRAIN-12 One pair per (page, depth), no support: z (two paths) after m."""
    e = [Edge("a", "b", "t"), Edge("a", "c", "t"), Edge("b", "z", "t"), Edge("c", "z", "t"),
         Edge("c", "m", "t"), Edge("a", "b", "u")]
    got = [(r["page"], r["depth"]) for r in traverse(e, ["a"], TraverseOptions())]
    assert got == [("a", 0), ("b", 1), ("c", 1), ("m", 2), ("z", 2)]


def test_each_seed_walks_its_own_paths() -> None:
    """GBRAIN-41 A seed reached from another seed is listed at depth 0 and at that depth."""
    e = [Edge("a", "b", "t"), Edge("b", "c", "t")]
    got = [(r["page"], r["depth"]) for r in traverse(e, ["b", "a"], TraverseOptions())]
    assert got == [("a", 0), ("b", 0), ("b", 1), ("c", 1), ("c", 2)]


def test_augment_walk_hop_then_edge_types() -> None:
    """GBRAIN-40 relationalFanout's order: hop, then distinct entering edge types descending,
    then id; seeds appear only when another seed's path reaches them."""
    e = [Edge("a", "m", "t"), Edge("a", "z", "t"), Edge("a", "z", "u"), Edge("b", "q", "t")]
    got = [(r.page, r.hop, r.edge_types) for r in walk(e, ["a"], WalkOptions(), 50)]
    assert got == [("z", 1, 2), ("m", 1, 1)]
    got = [r.page for r in walk([Edge("a", "b", "t")], ["a", "b"], WalkOptions(), 50)]
    assert got == ["a", "b"]


def test_augment_walk_options_clamp_and_cut() -> None:
    """GBRAIN-40 depth 2 clamped to 1..3, [] is every type, fanout is gone; the list is cut at
    the limit (at most 200)."""
    assert [walk_options({"depth": d}, "").depth for d in (None, 0, -9, 3, 99)] == [2, 1, 1, 3, 3]
    assert walk_options({"types": []}, "").types is None
    chain = [Edge(f"p{i}", f"p{i + 1}", "t") for i in range(6)]
    assert [r.page for r in walk(chain, ["p0"], WalkOptions(depth=3), 50)] == ["p1", "p2", "p3"]
    star = [Edge("s", f"n{i:03}", "t") for i in range(250)]
    assert len(walk(star, ["s"], WalkOptions(), 1000)) == 200
    assert len(walk(star, ["s"], WalkOptions(), 2)) == 2
    with pytest.raises(InvalidInput):
        _search(fanout=10)


def test_augment_off_in_conservative() -> None:
    """GBRAIN-39 The conservative bundle has no graph augment; the graph option overrides."""
    assert _search(bundle="conservative")["trace"]["graph"] == {
        "seeds": 0, "reached": 0, "added": []}
    assert _search(bundle="conservative", graph=True)["trace"]["bundle"]["graph"] is True


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


def _search(**extra: Any) -> dict[str, Any]:
    from reference.profiles.gbrain.search import op_search

    docs = [{"id": "d", "path": "daily/x.md", "content": "[Bob](people/bob)"},
            {"id": "o", "path": "originals/y.md"}, {"id": "b", "path": "people/bob.md"}]
    request = {"query": "acme", "documents": docs,
               "legs": {"keyword": [{"id": "d", "score": 1.0}, {"id": "o", "score": 0.7}]}}
    return op_search({**request, **extra})


def test_search_stages_in_the_seeds_order() -> None:
    """GBRAIN-30 GBRAIN-34 GBRAIN-36 GBRAIN-37 The leg is re-ranked by the code's default
    factors, the graph adds the linked page, the reranker reorders, the budget then cuts."""
    out = _search()
    assert [r["id"] for r in out["results"]] == ["o", "b", "d"]
    assert out["trace"]["graph"] == {"seeds": 2, "reached": 3, "added": ["b"]}
    assert [r["id"] for r in _search(rerank=["d"])["results"]] == ["d", "o", "b"]
    # d (17 chars, 5 tokens) is first and does not fit: kept cut to 4 chars, 1 token.
    assert _search(tokenBudget=1, boost={})["trace"]["budget"] == {
        "limit": 1, "used": 1, "dropped": 2, "truncated": True}


def test_search_inputs_are_checked_before_any_stage() -> None:
    """GBRAIN-28 Leg ids, scores, members and the bundle are validated."""
    for extra in ({"candidateK": 1}, {"bundle": "x"}, {"boost": {"a/": -1}},
                  {"legs": {"keyword": [{"id": "zz", "score": 1}]}},
                  {"legs": {"bm25": []}}, {"variants": [{"query": "q"}]}):
        with pytest.raises(InvalidInput):
            _search(**extra)


def test_search_outputs_match_the_profile_schema() -> None:
    """GBRAIN-29 Every gbrain.search case's output is valid under its output schema, and every
    case input under the input schema."""
    import jsonschema

    from conformance.judging.cases import load_all
    from conformance.judging.schemas import schemas_dir
    from reference.profiles.gbrain.search import op_search

    base = schemas_dir() / "profiles" / "gbrain"
    out_schema = json.loads((base / "search.output.schema.json").read_text("utf-8"))
    in_schema = json.loads((base / "search.input.schema.json").read_text("utf-8"))
    seen = 0
    for case in load_all():
        if case.op != "gbrain.search":
            continue
        try:
            output = op_search(case.input)
        except InvalidInput:
            continue
        jsonschema.validate(case.input, in_schema)
        jsonschema.validate(output, out_schema)
        seen += 1
    assert seen >= 80


@pytest.mark.parametrize(
    "clause",
    ["GBRAIN-16", "GBRAIN-17", "GBRAIN-19", "GBRAIN-20", "GBRAIN-24", "GBRAIN-25", "GBRAIN-31",
     "GBRAIN-32", "GBRAIN-33", "GBRAIN-35", "GBRAIN-39"],
)
def test_each_search_stage_has_passing_cases(clause: str) -> None:
    """GBRAIN-16 GBRAIN-17 GBRAIN-19 GBRAIN-20 GBRAIN-24 GBRAIN-25 GBRAIN-31 GBRAIN-32
    GBRAIN-33 GBRAIN-35 GBRAIN-39 Each stage of gbrain.search is cited by at least two golden
    cases, and the reference answers each of them as expected."""
    from conformance.judging.cases import load_all
    from reference.profiles.gbrain.search import op_search

    cases = [c for c in load_all() if c.op == "gbrain.search" and clause in c.clauses]
    assert len(cases) >= 2, clause
    for case in cases:
        expect = case.expect
        if "error" in expect:
            with pytest.raises(InvalidInput):
                op_search(case.input)
            continue
        out = op_search(case.input)
        for key, value in expect["output"].items():
            if key == "trace":
                assert {k: out["trace"].get(k) for k in value} == value, case.id
            else:
                assert out[key] == value, case.id
