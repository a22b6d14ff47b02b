"""Profile bm25-okapi (spec/profiles/bm25-okapi.md): the scorer, its cases, its SQLite tables.

The golden scores are checked here against arithmetic that shares nothing with the reference's
float order (50-digit decimals) and against an independent library, bm25s (its `lucene`
method times k1 + 1, OKAPI-4), on the demo corpus.
"""

from __future__ import annotations

import math
import random
import shutil
import struct
from collections import Counter
from decimal import Decimal, getcontext
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from conformance.judging.cases import load_all
from reference.backends.indexer import corpus_dir, index_directory, open_corpus
from reference.backends.sqlite_fts import SqliteIndex
from reference.profiles.bm25_okapi import OPERATIONS, VERSION
from reference.profiles.bm25_okapi.okapi_ln import okapi_ln
from reference.profiles.bm25_okapi.scoring import (
    Document,
    Params,
    check_params,
    idf,
    query_terms,
    score_documents,
)
from reference.profiles.bm25_okapi.sqlite_index import OkapiIndex, sync
from reference.text import words
from reference.types import InvalidInput

ROOT = Path(__file__).resolve().parent.parent
CHAPTER = ROOT / "spec" / "profiles" / "bm25-okapi.md"
#: The stated agreement tolerance with bm25s (relative): its float order is numpy's, not ours.
AGREEMENT_TOLERANCE = 1e-12


def _ulps(a: float, b: float) -> int:
    ia = struct.unpack("<q", struct.pack("<d", a))[0]
    ib = struct.unpack("<q", struct.pack("<d", b))[0]
    return abs(ia - ib)


def test_version_matches_the_chapter() -> None:
    """PROFILE-2: the reference package's VERSION is the chapter's."""
    assert f"Profile version **{VERSION}**." in CHAPTER.read_text(encoding="utf-8")
    assert list(OPERATIONS) == ["bm25-okapi.score", "bm25-okapi.search"]


# -- OKAPI-5: the pinned ln ------------------------------------------------------------------


def test_pinned_ln_is_within_four_ulps_of_the_true_logarithm() -> None:
    """OKAPI-5: every IDF argument for N <= 300 and random x in [1, 1e9] (50-digit check)."""
    getcontext().prec = 50
    rng = random.Random(11)
    xs = [1.0 + ((n_all - n) + 0.5) / (n + 0.5) for n_all in range(1, 301)
          for n in range(1, n_all + 1)]
    xs += [rng.uniform(1.0, 1e9) for _ in range(5000)] + [1.0, 2.0, 1.4142135623730951]
    worst = max(_ulps(okapi_ln(x), float(Decimal(x).ln())) for x in xs)
    assert worst <= 4


def test_pinned_ln_example_differs_from_runtime_log() -> None:
    """OKAPI-5: the chapter's example, and why: the runtime log gives the next float up."""
    assert okapi_ln(3.3333333333333335) == 1.203972804325936
    assert math.log(3.3333333333333335) == 1.2039728043259361
    assert okapi_ln(2.0) == 0.6931471805599453
    assert okapi_ln(1.0) == 0.0


def test_pinned_ln_refuses_arguments_below_one() -> None:
    with pytest.raises(ValueError):
        okapi_ln(0.5)


# -- OKAPI-2..4 ------------------------------------------------------------------------------


def test_idf_is_positive_and_decreasing_in_n() -> None:
    """OKAPI-4: never negative, strictly decreasing as n grows, for every n <= N <= 200."""
    for n_all in range(1, 201):
        values = [idf(n_all, n) for n in range(1, n_all + 1)]
        assert all(v > 0 for v in values)
        assert all(a > b for a, b in pairwise(values))


def test_query_terms_are_distinct_words_in_code_point_order() -> None:
    """OKAPI-2: duplicates collapse, order is code point order (U+FF41 before U+1D41C)."""
    assert query_terms("tea TEA Cup, \U0001D41C \uFF41") == ["cup", "tea", "\uFF41", "\U0001D41C"]


def test_parameters_defaults_and_bounds() -> None:
    """OKAPI-3: defaults 1.5 and 0.75; bounds [0, 1000] and [0, 1]; no booleans."""
    assert check_params(None, None) == Params(1.5, 0.75)
    assert check_params(0, 1) == Params(0.0, 1.0)
    for k1, b in ((-1, None), (1000.5, None), (None, 1.01), (True, None), ("1", None),
                  (math.inf, None), (None, math.nan)):
        with pytest.raises(InvalidInput):
            check_params(k1, b)


# -- the golden scores, recomputed independently (OKAPI-6..9) ---------------------------------


def _decimal_scores(documents: list[dict[str, Any]], query: str, k1: float, b: float
                    ) -> dict[str, Decimal]:
    """The seed's formula in 50-digit decimals, no float order at all (OKAPI-4, OKAPI-6..8)."""
    getcontext().prec = 50
    bags = [Counter(words(d["content"])) for d in documents]
    n_all = len(documents)
    total = sum(sum(bag.values()) for bag in bags)
    out: dict[str, Decimal] = {}
    if n_all == 0:
        return out
    avgdl = Decimal(total) / Decimal(n_all)
    dk1, db = Decimal(k1), Decimal(b)
    for doc, bag in zip(documents, bags, strict=True):
        dl = Decimal(sum(bag.values()))
        score = Decimal(0)
        hit = False
        for term in set(words(query)):
            tf = bag.get(term, 0)
            if tf == 0:
                continue
            hit = True
            n = sum(1 for other in bags if term in other)
            half = Decimal("0.5")
            term_idf = (1 + (Decimal(n_all - n) + half) / (Decimal(n) + half)).ln()
            norm = dk1 * (1 - db + db * dl / avgdl)
            score += term_idf * (tf * (dk1 + 1)) / (tf + norm)
        if hit:
            out[doc["id"]] = score
    return out


def _okapi_cases() -> list[Any]:
    return [c for c in load_all() if c.id.startswith("profiles/bm25-okapi/") and c.op ==
            "bm25-okapi.score" and c.expect.get("output") is not None]


def test_every_golden_score_agrees_with_fifty_digit_arithmetic() -> None:
    """OKAPI-7, OKAPI-8: the expected bits are the true value within 1e-14 (not tuned)."""
    cases = _okapi_cases()
    assert len(cases) >= 20
    checked = 0
    for case in cases:
        inp = case.input
        k1 = 1.5 if inp.get("k1") is None else float(inp["k1"])
        b = 0.75 if inp.get("b") is None else float(inp["b"])
        exact = _decimal_scores(inp["documents"], inp["query"], k1, b)
        got = {r["id"]: r["score"] for r in case.expect["output"]["results"]}
        assert set(got) == set(exact), case.id
        for cid, value in got.items():
            assert abs(Decimal(value) - exact[cid]) <= Decimal("1e-14") * exact[cid], (case.id, cid)
            checked += 1
    assert checked >= 40


def test_golden_order_is_score_then_path_then_id() -> None:
    """OKAPI-9: every expected result list is sorted by (-score, path, id)."""
    for case in _okapi_cases():
        rows = case.expect["output"]["results"]
        assert rows == sorted(rows, key=lambda r: (-r["score"], r["path"], r["id"])), case.id


# -- agreement with an independent library -----------------------------------------------------


def _demo_queries() -> list[str]:
    lines = (ROOT / "corpus" / "demo-qrels" / "queries.tsv").read_text(encoding="utf-8")
    return [ln.split("\t", 1)[1].strip() for ln in lines.splitlines()
            if ln and not ln.startswith("#") and "\t" in ln]


@pytest.fixture(scope="module")
def demo_chunks() -> list[Document]:
    opened = open_corpus("demo")
    return [Document(c.id, c.path, c.content) for c in opened.index.chunks()]


def agreement_with_bm25s(
    chunks: list[Document], queries: list[str], okapi: OkapiIndex
) -> dict[str, Any]:
    """Rank every chunk with bm25s (lucene, float64) and with the profile's tables; compare.

    The tables give the operation's bits (test_tables_give_the_same_bits_as_the_operation).
    """
    import bm25s

    tokens = [words(c.content) for c in chunks]
    model = bm25s.BM25(k1=1.5, b=0.75, method="lucene", dtype="float64")
    model.index(tokens, show_progress=False)
    vocab = set(model.vocab_dict)
    same_order = 0
    worst = 0.0
    scored = 0
    for query in queries:
        ours = okapi.search(query, Params())
        terms = [t for t in query_terms(query) if t in vocab]
        raw = model.get_scores(terms) if terms else [0.0] * len(chunks)
        theirs = sorted(
            ((float(s) * 2.5, c.path, c.id) for c, s in zip(chunks, raw, strict=True) if s > 0),
            key=lambda r: (-r[0], r[1], r[2]),
        )
        same_order += [r.id for r in ours] == [t[2] for t in theirs]
        for mine, other in zip(ours, theirs, strict=False):
            worst = max(worst, abs(mine.score - other[0]) / mine.score)
            scored += 1
    return {"queries": len(queries), "same_order": same_order, "scores": scored,
            "worst_relative": worst}


def test_agrees_with_bm25s_on_the_demo_corpus(demo_chunks: list[Document], tmp_path: Path) -> None:
    """OKAPI-4: bm25s's lucene scores × (k1 + 1) = the profile's, same order.

    The queries are the 35 labelled demo queries plus every word of the corpus alone.
    """
    vocabulary = sorted({w for c in demo_chunks for w in words(c.content)})
    queries = _demo_queries() + vocabulary
    with SqliteIndex(tmp_path / "demo.db") as index:
        index_directory(corpus_dir("demo"), index)
        sync(index)
        result = agreement_with_bm25s(demo_chunks, queries, OkapiIndex(index))
    print(f"bm25s agreement: {result}")
    assert result["queries"] == len(queries) >= 35 + 500
    assert result["same_order"] == result["queries"]
    assert result["worst_relative"] <= AGREEMENT_TOLERANCE


# -- the SQLite helper of benchmarks/bm25_okapi.py (OKAPI-1..9 over an index's chunks) ------


def test_tables_give_the_same_bits_as_the_operation(tmp_path: Path) -> None:
    """OKAPI-6..9: scoring from the okapi tables equals score_documents over the chunks."""
    with SqliteIndex(tmp_path / "demo.db") as index:
        index_directory(corpus_dir("demo"), index)
        sync(index)
        chunks = [Document(c.id, c.path, c.content) for c in index.chunks()]
        okapi = OkapiIndex(index)
        for query in _demo_queries():
            for params in (Params(), Params(1.2, 0.3)):
                expected = score_documents(chunks, query, params).results
                assert okapi.search(query, params) == expected


def test_incremental_sync_keeps_the_tables_exact(tmp_path: Path) -> None:
    """OKAPI-2, OKAPI-6: after edits, removals and additions a sync matches the chunks."""
    root = tmp_path / "docs"
    shutil.copytree(corpus_dir("demo"), root)
    db = tmp_path / "index.db"
    with SqliteIndex(db) as index:
        index_directory(root, index)
        sync(index)
    files = sorted(root.rglob("*.md"))
    files[0].write_text("Tea, tea and a cup.\n\nA second paragraph about tea.\n", encoding="utf-8")
    files[1].unlink()
    (root / "new.md").write_text("# New\n\ngreen tea leaves\n", encoding="utf-8")
    with SqliteIndex(db) as index:
        index_directory(root, index)
        sync(index)
        chunks = [Document(c.id, c.path, c.content) for c in index.chunks()]
        okapi = OkapiIndex(index)
        for query in [*_demo_queries(), "tea cup", "green"]:
            assert okapi.search(query, Params()) == score_documents(chunks, query, Params()).results
        assert okapi.statistics("tea").document_count == len(chunks)


# -- the operation (OKAPI-1, OKAPI-11, OKAPI-12) and fused arithmetic (OKAPI-10) ---------------

SCORE = OPERATIONS["bm25-okapi.score"]
WORKED = [
    {"id": "a", "path": "notes/a.md", "content": "Tea, tea and a cup."},
    {"id": "b", "path": "notes/b.md", "content": "Coffee mug"},
    {"id": "c", "path": "notes/c.md", "content": ""},
    {"id": "d", "path": "notes/d.md", "content": "green tea leaves"},
]


def _schema(name: str) -> Any:
    import json

    return json.loads((ROOT / "schemas" / "profiles" / "bm25-okapi" / name).read_text("utf-8"))


def test_operation_output_matches_the_chapter_and_its_schema() -> None:
    """OKAPI-11: the worked example's output, valid under score.schema.json."""
    from jsonschema import Draft202012Validator

    out = SCORE({"documents": WORKED, "query": "tea cup"})
    assert out["documentCount"] == 4 and out["averageLength"] == 2.5
    assert [r["score"] for r in out["results"]] == [1.5796743752569702, 0.6359148445504086]
    schema = _schema("score.schema.json")
    Draft202012Validator({**schema["$defs"]["output"], "$defs": schema["$defs"]}).validate(out)
    Draft202012Validator({**schema["$defs"]["input"], "$defs": schema["$defs"]}).validate(
        {"documents": WORKED, "query": "tea cup"}
    )


def test_only_content_is_scored_and_documents_are_checked() -> None:
    """OKAPI-1, OKAPI-12: title, summary and path add nothing; bad documents are refused."""
    out = SCORE({"query": "tea", "documents": [
        {"id": "a", "path": "tea.md", "title": "tea", "summary": "tea", "content": "cup"},
        {"id": "b", "path": "b.md", "content": "tea"}]})
    assert [r["id"] for r in out["results"]] == ["b"]
    for bad in (
        {"query": "tea", "documents": [{"id": "a", "path": "a.md", "content": "x"},
                                       {"id": "a", "path": "b.md", "content": "y"}]},
        {"query": "tea", "documents": [{"id": "a", "path": "a.md"}]},
        {"query": "tea", "documents": [{"id": "", "path": "a.md", "content": "x"}]},
        {"query": None, "documents": []},
        {"query": "tea"},
    ):
        with pytest.raises(InvalidInput):
            SCORE(bad)


def test_a_fused_multiply_add_changes_the_bits() -> None:
    """OKAPI-10: fma(k1, base, tf) is one rounding fewer; on the golden trap it differs."""
    from fractions import Fraction

    avgdl, params = 10 / 3, Params()
    term_idf = idf(3, 3)
    base = (1.0 - params.b) + (params.b * 3.0) / avgdl
    fused_den = float(Fraction(params.k1) * Fraction(base) + Fraction(1))
    fused = (term_idf * (1.0 * (params.k1 + 1.0))) / fused_den
    from reference.profiles.bm25_okapi.scoring import term_weight

    assert term_weight(term_idf, 1, 3, avgdl, params) == 0.13982344777436917
    assert fused == 0.1398234477743692


# -- bm25-okapi.search, GenieHelper's retrieval (OKAPI-18..27) -------------------------------

SEARCH = OPERATIONS["bm25-okapi.search"]


def test_search_worked_example_and_its_schema() -> None:
    """OKAPI-22, OKAPI-24, OKAPI-25, OKAPI-27: the chapter's example; ties go to the first met."""
    import jsonschema

    legs = {"dense": [{"id": "b"}, {"id": "d"}]}
    out = SEARCH({"query": "tea cup", "documents": WORKED, "legs": legs})
    assert [(r["id"], r["score"]) for r in out["results"]] == [
        ("d", 0.03225806451612903), ("b", 0.01639344262295082), ("a", 0.01639344262295082)]
    assert out["trace"]["fusion"] == {"k": 60, "fused": 3}
    jsonschema.validate(out, _schema("search.output.schema.json"))


def test_search_seed_numbers_and_top_eight() -> None:
    """OKAPI-24: seed 002's 0.0328 and 0.0164; OKAPI-26: the default 8."""
    both = SEARCH({"query": "cup", "documents": WORKED, "legs": {"dense": [{"id": "a"}]}})
    assert both["results"][0]["score"] == 0.03278688524590164
    docs = [{"id": f"n{i}", "path": f"n{i}.md", "content": "tea " * (10 - i)} for i in range(10)]
    assert len(SEARCH({"query": "tea", "documents": docs, "legs": {"dense": []}})["results"]) == 8


def test_search_hyde_is_traced_never_scored() -> None:
    """OKAPI-19, OKAPI-20: the sparse list is the raw query's, whole (OKAPI-23); the document is
    traced normalised."""
    out = SEARCH({"query": "tea", "documents": WORKED, "legs": {"dense": []},
                  "hypotheticalDocument": "  Coffee mug  "})
    assert out["trace"]["hyde"] == {"document": "Coffee mug"}
    assert [h["id"] for h in out["trace"]["bm25"]["hits"]] == ["a", "d"]


def test_search_rejects_what_the_chapter_rejects() -> None:
    """OKAPI-18, OKAPI-21: unknown members, a bm25 leg, unknown or repeated dense ids."""
    bad: list[tuple[dict[str, Any], dict[str, Any]]] = [
        ({"dense": [{"id": "zz"}]}, {}),
        ({"dense": [{"id": "a"}, {"id": "a"}]}, {}),
        ({"dense": [], "bm25": []}, {}),
        ({"dense": []}, {"topK": 8}),
        ({"dense": []}, {"limit": 0}),
    ]
    for legs, extra in bad:
        with pytest.raises(InvalidInput):
            SEARCH({"query": "tea", "documents": WORKED, "legs": legs, **extra})


def test_every_search_case_input_and_output_fits_the_schemas() -> None:
    """OKAPI-18, OKAPI-27: the golden inputs of bm25-okapi.search (errors aside) are valid under
    search.input.schema.json and the reference's outputs under search.output.schema.json."""
    import jsonschema

    given, answer = _schema("search.input.schema.json"), _schema("search.output.schema.json")
    cases = [c for c in load_all() if c.op == "bm25-okapi.search" and "error" not in c.expect]
    assert len(cases) >= 25
    for case in cases:
        jsonschema.validate(case.input, given)
        jsonschema.validate(SEARCH(case.input), answer)
