"""Which capabilities a case's input needs, read from the input itself (spec/operations.md).

The loader (conformance/judging/cases.py) compares these with the case's `requires`, so that an
optional feature can never be required of every port by accident and a core case can never
hide behind a capability it does not use (PROTO-27). Pure functions; no I/O except the
listing of spec/data that names the optional data tables.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache
from pathlib import Path
from typing import Any

RRF_WEIGHTS = "rrf-weights"
SQLITE_FTS5 = "sqlite-fts5"
EMBEDDER = "embedder:hrc-hash-v1"
RERANKER = "reranker:hrc-lexical-v1"
PROFILE_PREFIX = "profile:"
#: spec/graph.md GRAPH-1: the optional third leg.
GRAPH_LEG = "graph-leg"
#: spec/fanout.md FANOUT-1: the anchor's first BM25 pass.
BM25_FANOUT = "bm25-fanout"
#: The default named data (spec/README.md); any other name is an optional table.
DEFAULT_DATA_NAME = "anchor"
#: request/input field -> (capability prefix, data file prefix in spec/data).
_NAMED_DATA = {
    "intentTable": ("intent-table:", "intent-"),
    "table": ("intent-table:", "intent-"),
    "stopwordList": ("stopwords:", "stopwords-"),
}
_INTENT_OPS = frozenset({"intent_patterns", "intent_detect", "intent_reweight"})
_SEARCH_OPS = frozenset({"search", "search_corpus"})
#: Operations that exist only on a real backend: op -> capabilities always needed.
OP_CAPABILITIES: Mapping[str, frozenset[str]] = {
    "fts_search": frozenset({SQLITE_FTS5}),
    "index_documents": frozenset({SQLITE_FTS5}),
    "fnv1a": frozenset({EMBEDDER}),
    "embed_features": frozenset({EMBEDDER}),
    "embed": frozenset({EMBEDDER}),
    "vector_search": frozenset({EMBEDDER}),
    "lexical_rerank": frozenset({RERANKER}),
    "search_corpus": frozenset({SQLITE_FTS5, EMBEDDER, RERANKER}),
    "fanout_texts": frozenset({"bm25-fanout"}),
}


def is_default_weight(value: Any) -> bool:
    """True for the JSON number 1 (`1`, `1.0`) and for `null`, which is the absent default (OP-5).

    `true` and `"1"` are not: they are invalid weights, and validating weights belongs to the
    capability.
    """
    return value is None or (type(value) in (int, float) and value == 1)


def uses_rrf_weights(op: str, data: Mapping[str, Any]) -> bool:
    """RRF-3 list weights other than 1: an `rrf` list `weight`, a search `weights.bm25/vector`."""
    if op == "rrf":
        lists = data.get("lists")
        if isinstance(lists, list):
            return any(
                isinstance(lst, dict) and "weight" in lst and not is_default_weight(lst["weight"])
                for lst in lists
            )
        return False
    if op in _SEARCH_OPS:
        request = data.get("request")
        weights = request.get("weights") if isinstance(request, dict) else None
        if isinstance(weights, dict):
            return any(
                key in weights and not is_default_weight(weights[key])
                for key in ("bm25", "vector", "graph")
            )
    return False


def uses_graph_leg(op: str, data: Mapping[str, Any]) -> bool:
    """GRAPH-1: a search input with a scripted `backends.graph` or a `weights.graph`."""
    if op not in _SEARCH_OPS:
        return False
    backends = data.get("backends")
    if isinstance(backends, dict) and backends.get("graph") is not None:
        return True
    request = data.get("request")
    weights = request.get("weights") if isinstance(request, dict) else None
    return isinstance(weights, dict) and weights.get("graph") is not None


def uses_scripted_fts5(op: str, data: Mapping[str, Any]) -> bool:
    """BACKEND-42: a `search` whose scripted index executes expressions with FTS5."""
    if op != "search":
        return False
    backends = data.get("backends")
    bm25 = backends.get("bm25") if isinstance(backends, dict) else None
    return isinstance(bm25, dict) and bm25.get("fts5") is True


def uses_bm25_fanout(op: str, data: Mapping[str, Any]) -> bool:
    """FANOUT-1: a search request whose `bm25Fanout` is present and not false (or null)."""
    if op not in _SEARCH_OPS:
        return False
    request = data.get("request")
    if not isinstance(request, dict):
        return False
    value = request.get("bm25Fanout")
    return value is not None and value is not False


def enabled_profiles(op: str, data: Mapping[str, Any], spec_dir: Path) -> set[str]:
    """PIPE-10: `profile:NAME` for every profile of the suite (a chapter spec/profiles/NAME.md)
    that a search request enables; a name that is no profile needs nothing (every port
    rejects it)."""
    request = data.get("request") if op in _SEARCH_OPS else None
    profiles = request.get("profiles") if isinstance(request, dict) else None
    if not isinstance(profiles, dict):
        return set()
    return {
        PROFILE_PREFIX + name
        for name, value in profiles.items()
        if value is not None and (spec_dir / "profiles" / f"{name}.md").is_file()
    }


@cache
def data_table_names(data_dir: Path, file_prefix: str) -> frozenset[str]:
    """Named tables shipped in spec/data as `<file_prefix><name>.json` (e.g. intent-hrc-1.0)."""
    return frozenset(
        p.name[len(file_prefix) : -len(".json")]
        for p in data_dir.glob(f"{file_prefix}*.json")
        if p.is_file()
    )


def _named_data(op: str, data: Mapping[str, Any], data_dir: Path) -> set[str]:
    """`intent-table:NAME` / `stopwords:NAME` for a known non-default table the input names."""
    fields: list[tuple[str, Any]] = []
    for key in ("table", "stopwordList"):
        if key in data and (key != "table" or op in _INTENT_OPS):
            fields.append((key, data[key]))
    request = data.get("request") if op in _SEARCH_OPS else None
    if isinstance(request, dict):
        fields += [(k, request[k]) for k in ("intentTable", "stopwordList") if k in request]
    out: set[str] = set()
    for key, value in fields:
        cap_prefix, file_prefix = _NAMED_DATA[key]
        known = data_table_names(data_dir, file_prefix)
        if isinstance(value, str) and value != DEFAULT_DATA_NAME and value in known:
            out.add(cap_prefix + value)
    return out


def detected(op: str, data: Mapping[str, Any], data_dir: Path) -> set[str]:
    """Every capability the input of a case of `op` needs, as far as the input shows it."""
    out = set(OP_CAPABILITIES.get(op, ()))
    if op == "index_documents" and data.get("vectorSearches"):
        out.add(EMBEDDER)
    if uses_rrf_weights(op, data):
        out.add(RRF_WEIGHTS)
    if uses_graph_leg(op, data):
        out.add(GRAPH_LEG)
    if uses_scripted_fts5(op, data):
        out.add(SQLITE_FTS5)
    if uses_bm25_fanout(op, data):
        out.add(BM25_FANOUT)
    out |= enabled_profiles(op, data, data_dir.parent)
    out |= _named_data(op, data, data_dir)
    return out


def is_input_feature(capability: str) -> bool:
    """Capabilities read from the input alone: a case MUST NOT list one its input does not use."""
    return capability in (RRF_WEIGHTS, GRAPH_LEG, BM25_FANOUT) or capability.startswith(
        tuple(prefix for prefix, _ in _NAMED_DATA.values())
    )


def requirement_problems(
    op: str, data: Mapping[str, Any], requires: Iterable[str], data_dir: Path
) -> list[str]:
    """Why `requires` disagrees with the input (PROTO-27); empty when it agrees."""
    listed = set(requires)
    found = detected(op, data, data_dir)
    problems = [
        f"the input needs capability {name!r} but `requires` does not list it"
        for name in sorted(found - listed)
    ]
    problems += [
        f"`requires` lists {name!r} but the input does not use it "
        "(a core case must not hide behind a capability)"
        for name in sorted(listed - found)
        if is_input_feature(name)
    ]
    return problems
