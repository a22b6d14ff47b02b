"""Broken ports of `bm25-okapi.search`, GenieHelper's retrieval (spec/profiles/bm25-okapi.md
OKAPI-18..27), registered on import."""

from __future__ import annotations

from types import ModuleType
from typing import Any

from conformance.selftest.broken_ports.patching import _mod, mutant, set_attr, set_entry


def _search() -> ModuleType:
    return _mod("reference.profiles.bm25_okapi.search")


def _wrap_op(wrapper: Any) -> None:
    """Register `wrapper(original_op)` as the profile's bm25-okapi.search handler."""
    s = _search()
    set_entry(_mod("reference.profiles.bm25_okapi"), "OPERATIONS", "bm25-okapi.search",
              wrapper(s.search_op))


@mutant(
    "okapi-search-unknown-member-ignored",
    "OKAPI-18",
    "an unknown member is ignored (a destructuring port), so topK or candidateK pass silently",
    seams=("reference.profiles.bm25_okapi.OPERATIONS",),
)
def _okapi_unknown_member() -> None:
    s = _search()

    def wrapper(op: Any) -> Any:
        return lambda inp: op({k: v for k, v in inp.items() if k in s.FIELDS})

    _wrap_op(wrapper)


@mutant(
    "okapi-search-scores-hyde",
    "OKAPI-20",
    "the BM25 leg scores the query and the hypothetical document, not the raw query alone",
    seams=("reference.profiles.bm25_okapi.OPERATIONS",),
)
def _okapi_scores_hyde() -> None:
    def wrapper(op: Any) -> Any:
        def run(inp: dict[str, Any]) -> Any:
            hyde = inp.get("hypotheticalDocument")
            if isinstance(hyde, str) and isinstance(inp.get("query"), str):
                out = op({**inp, "query": f"{inp['query']} {hyde}"})
                return out
            return op(inp)

        return run

    _wrap_op(wrapper)


@mutant(
    "okapi-search-dense-by-score",
    "OKAPI-21",
    "the dense list is re-sorted by its given scores (descending) instead of kept in order",
    seams=("reference.profiles.bm25_okapi.OPERATIONS",),
)
def _okapi_dense_by_score() -> None:
    def wrapper(op: Any) -> Any:
        def run(inp: dict[str, Any]) -> Any:
            legs = inp.get("legs")
            dense = legs.get("dense") if isinstance(legs, dict) else None
            if isinstance(dense, list) and all(isinstance(d, dict) for d in dense):
                ranked = sorted(dense, key=lambda d: -float(d.get("score") or 0.0))
                return op({**inp, "legs": {**legs, "dense": ranked}})  # type: ignore[dict-item]
            return op(inp)

        return run

    _wrap_op(wrapper)


@mutant(
    "okapi-search-dense-cut-twenty",
    "OKAPI-21",
    "the dense list is cut to the seed's get_dense_hits default of 20",
    seams=("reference.profiles.bm25_okapi.search.legs_from_json",),
)
def _okapi_dense_cut() -> None:
    s = _search()
    original = s.legs_from_json

    def legs_from_json(value: object, known: Any) -> list[str]:
        out: list[str] = original(value, known)
        return out[:20]

    set_attr(s, "legs_from_json", legs_from_json)


@mutant(
    "okapi-search-sparse-cut-twenty",
    "OKAPI-23",
    "the sparse list is cut to 20 like the dense side's default",
    seams=("reference.profiles.bm25_okapi.search.sparse_list",),
)
def _okapi_sparse_cut() -> None:
    s = _search()
    original = s.sparse_list

    def sparse_list(documents: Any, query: str, params: Any) -> Any:
        out = original(documents, query, params)
        return type(out)(out.document_count, out.average_length, out.terms, out.results[:20])

    set_attr(s, "sparse_list", sparse_list)


@mutant(
    "okapi-search-zero-indexed-ranks",
    "OKAPI-24",
    "the contribution is 1 / (k + i) with the 0-based position, not 1 / (k + rank)",
    seams=("reference.profiles.bm25_okapi.search.rrf_term",),
)
def _okapi_zero_indexed() -> None:
    s = _search()
    set_attr(s, "rrf_term", lambda rank: 1.0 / float(s.RRF_K + rank - 1))


@mutant(
    "okapi-search-ties-by-path",
    "OKAPI-25",
    "equal fused scores are ordered by path (the core's RRF-8), not by first appearance",
    seams=("reference.profiles.bm25_okapi.search.fuse", "reference.profiles.bm25_okapi.OPERATIONS"),
)
def _okapi_ties_by_path() -> None:
    s = _search()
    original = s.fuse
    paths: dict[Any, Any] = {}

    def fuse(dense: Any, sparse: Any) -> list[tuple[str, float]]:
        out: list[tuple[str, float]] = original(dense, sparse)
        return sorted(out, key=lambda item: (-item[1], paths.get(item[0], "")))

    def wrapper(op: Any) -> Any:
        def run(inp: dict[str, Any]) -> Any:
            docs = inp.get("documents")
            paths.clear()
            if isinstance(docs, list):
                paths.update({d.get("id"): d.get("path") for d in docs if isinstance(d, dict)})
            return op(inp)

        return run

    set_attr(s, "fuse", fuse)
    _wrap_op(wrapper)


@mutant(
    "okapi-search-default-limit-ten",
    "OKAPI-26",
    "the default limit is the core's topK 10, not the seed's 8",
    seams=("reference.profiles.bm25_okapi.search.DEFAULT_LIMIT",),
)
def _okapi_default_ten() -> None:
    set_attr(_search(), "DEFAULT_LIMIT", 10)


@mutant(
    "okapi-search-no-cut",
    "OKAPI-26",
    "the fused list is returned whole, not cut to limit",
    seams=("reference.profiles.bm25_okapi.search.top",),
)
def _okapi_no_cut() -> None:
    set_attr(_search(), "top", lambda items, limit: items)


@mutant(
    "okapi-search-cut-lists-before-fusion",
    "OKAPI-19",
    "each list is cut to limit before RRF, so an id low in both lists never rises",
    seams=("reference.profiles.bm25_okapi.search.fuse", "reference.profiles.bm25_okapi.OPERATIONS"),
)
def _okapi_cut_before_fusion() -> None:
    s = _search()
    original = s.fuse
    limit: list[int] = [s.DEFAULT_LIMIT]

    def fuse(dense: Any, sparse: Any) -> list[tuple[str, float]]:
        out: list[tuple[str, float]] = original(list(dense)[: limit[0]], list(sparse)[: limit[0]])
        return out

    def wrapper(op: Any) -> Any:
        def run(inp: dict[str, Any]) -> Any:
            given = inp.get("limit")
            limit[0] = int(given) if isinstance(given, int | float) else s.DEFAULT_LIMIT
            return op(inp)

        return run

    set_attr(s, "fuse", fuse)
    _wrap_op(wrapper)


@mutant(
    "okapi-search-sparse-default-params",
    "OKAPI-22",
    "the BM25 leg scores with the default k1 and b whatever the input says",
    seams=("reference.profiles.bm25_okapi.search.sparse_list",),
)
def _okapi_sparse_default_params() -> None:
    s = _search()
    original = s.sparse_list
    scoring = _mod("reference.profiles.bm25_okapi.scoring")

    def sparse_list(documents: Any, query: str, params: Any) -> Any:
        return original(documents, query, scoring.Params())

    set_attr(s, "sparse_list", sparse_list)


@mutant(
    "okapi-search-fused-after-cut",
    "OKAPI-27",
    "trace.fusion.fused counts the ids returned after the cut, not every fused id",
    seams=("reference.profiles.bm25_okapi.OPERATIONS",),
)
def _okapi_fused_after_cut() -> None:
    def wrapper(op: Any) -> Any:
        def run(inp: dict[str, Any]) -> Any:
            out = op(inp)
            out["trace"]["fusion"]["fused"] = len(out["results"])
            return out

        return run

    _wrap_op(wrapper)
