"""The request of `gbrain.search` (spec/profiles/gbrain.md GBRAIN-28, GBRAIN-39): validated
before any stage runs, so a bad input is `invalid_input` whatever the stages would do."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from reference.data import SpecDataError, load_json
from reference.types import Candidate, InvalidInput, candidates_from_json, whole_number

from .augment import WalkOptions, walk_options
from .links import Edge, page_of_path
from .traverse import edges_from_json

SOURCES_FILE = "profiles/gbrain/sources.json"
LEG_NAMES = ("vector", "keyword")
FIELDS = frozenset(
    {"query", "documents", "legs", "variants", "edges", "rerank", "exclude", "boost", "dedup",
     "tokenBudget", "bundle", "expansion", "reranker", "limit", "graph", "depth", "types",
     "direction"}
)
MAX_VARIANTS = 8
MAX_LIMIT = 1000


@dataclass(frozen=True)
class Bundle:
    """GBRAIN-39: a mode bundle's switches (garrytan/gbrain src/core/search/mode.ts)."""

    expansion: bool
    reranker: bool
    token_budget: int | None
    limit: int
    graph: bool


#: GBRAIN-39: the code's MODE_BUNDLES (expansion and the balanced reranker are seed 004's too;
#: `graph` is the code's `relationalRetrieval`).
BUNDLES = {
    "conservative": Bundle(expansion=False, reranker=False, token_budget=4000, limit=10,
                           graph=False),
    "balanced": Bundle(expansion=False, reranker=True, token_budget=12000, limit=25,
                       graph=True),
    "tokenmax": Bundle(expansion=True, reranker=True, token_budget=None, limit=50,
                       graph=True),
}
#: GBRAIN-39: the code's DEFAULT_SEARCH_MODE, used when the request names no bundle.
DEFAULT_BUNDLE = "balanced"


@dataclass(frozen=True)
class Hit:
    """One entry of a leg: a document and the score its backend gave it (GBRAIN-28)."""

    doc: Candidate
    score: float


@dataclass(frozen=True)
class Leg:
    """A leg's answer, best first, or the error its backend raised (GBRAIN-31)."""

    hits: tuple[Hit, ...] = ()
    error: str | None = None


@dataclass(frozen=True)
class Variant:
    """One query and what its two legs returned (GBRAIN-28, GBRAIN-32)."""

    query: str
    legs: Mapping[str, Leg]


@dataclass(frozen=True)
class SearchInput:
    """A validated `gbrain.search` request."""

    variants: tuple[Variant, ...]
    documents: tuple[Candidate, ...]
    edges: tuple[Edge, ...]
    rerank: tuple[str, ...] | str | None
    exclude: tuple[str, ...]
    boost: tuple[tuple[str, float], ...]
    dedup: bool
    bundle: str
    expansion: bool
    reranker: bool
    token_budget: int | None
    limit: int
    graph: bool
    walk: WalkOptions


def sources() -> Mapping[str, Any]:
    """sources.json: the seed's hard excludes and the code's default boost map."""
    doc = load_json(SOURCES_FILE)
    if not isinstance(doc, Mapping) or "exclude" not in doc or "boost" not in doc:
        raise SpecDataError(f"{SOURCES_FILE} is malformed: needs exclude and boost")
    return doc


def default_excludes() -> list[str]:
    """GBRAIN-16: seed 004's hard-exclude prefixes."""
    return [str(p) for p in sources()["exclude"]]


def boost_map(raw: object, where: str) -> tuple[tuple[str, float], ...]:
    """GBRAIN-30: {prefix: factor}, factors finite and >= 0; longest prefix first."""
    if not isinstance(raw, Mapping):
        raise InvalidInput(f"{where} must be an object")
    out: list[tuple[str, float]] = []
    for prefix, factor in raw.items():
        if prefix == "":
            raise InvalidInput(f"{where}: a prefix must not be empty")
        if isinstance(factor, bool) or not isinstance(factor, int | float):
            raise InvalidInput(f"{where}.{prefix} must be a number")
        value = float(factor)
        if not math.isfinite(value) or value < 0:
            raise InvalidInput(f"{where}.{prefix} must be a finite number >= 0")
        out.append((prefix, value))
    return tuple(sorted(out, key=lambda pf: -len(pf[0])))


def _flag(obj: Mapping[str, Any], name: str, default: bool) -> bool:
    value = obj.get(name)
    if value is None:
        return default
    if not isinstance(value, bool):
        raise InvalidInput(f"{name} must be a boolean")
    return value


def _leg(raw: object, where: str, docs: Mapping[str, Candidate]) -> Leg:
    if isinstance(raw, Mapping) and set(raw) == {"error"}:
        if not isinstance(raw["error"], str):
            raise InvalidInput(f"{where}.error must be a string")
        return Leg(error=raw["error"])
    if not isinstance(raw, list):
        raise InvalidInput(f"{where} must be a list of {{id, score}} or {{error}}")
    hits: list[Hit] = []
    seen: set[str] = set()
    for i, entry in enumerate(raw):
        if not isinstance(entry, Mapping) or set(entry) != {"id", "score"}:
            raise InvalidInput(f"{where}[{i}] must be {{id, score}}")
        hid, score = entry["id"], entry["score"]
        if not isinstance(hid, str) or hid not in docs or hid in seen:
            raise InvalidInput(f"{where}[{i}].id must be a distinct id of documents")
        if isinstance(score, bool) or not isinstance(score, int | float):
            raise InvalidInput(f"{where}[{i}].score must be a number")
        if not math.isfinite(float(score)):
            raise InvalidInput(f"{where}[{i}].score must be finite")
        seen.add(hid)
        hits.append(Hit(docs[hid], float(score)))
    return Leg(hits=tuple(hits))


def _legs(raw: object, where: str, docs: Mapping[str, Candidate]) -> dict[str, Leg]:
    if not isinstance(raw, Mapping) or not set(raw) <= set(LEG_NAMES):
        raise InvalidInput(f"{where} must be an object with members among {list(LEG_NAMES)}")
    return {name: _leg(raw[name], f"{where}.{name}", docs) for name in LEG_NAMES if name in raw}


def _query(raw: object, where: str) -> str:
    if not isinstance(raw, str):
        raise InvalidInput(f"{where} must be a string")
    return raw


def _rerank(raw: object) -> tuple[str, ...] | str | None:
    if raw is None:
        return None
    if isinstance(raw, Mapping) and set(raw) == {"error"} and isinstance(raw["error"], str):
        return raw["error"]
    if not isinstance(raw, list) or not all(isinstance(r, str) for r in raw):
        raise InvalidInput("rerank must be a list of ids or {error}")
    return tuple(raw)


def parse_search(obj: Mapping[str, Any]) -> SearchInput:
    """GBRAIN-28, GBRAIN-39: the request, every member checked before any stage."""
    unknown = sorted(set(obj) - FIELDS)
    if unknown:
        raise InvalidInput(f"unknown member {unknown[0]!r}")
    documents = candidates_from_json(obj.get("documents"), "documents")
    docs: dict[str, Candidate] = {}
    for i, doc in enumerate(documents):
        if doc.id in docs:
            raise InvalidInput(f"documents[{i}]: repeated id {doc.id!r}")
        if page_of_path(doc.path) is None:
            raise InvalidInput(f"documents[{i}]: path {doc.path!r} names no page")
        docs[doc.id] = doc
    variants = [Variant(_query(obj.get("query"), "query"), _legs(obj.get("legs"), "legs", docs))]
    raw_variants = obj.get("variants")
    if raw_variants is not None:
        if not isinstance(raw_variants, list) or len(raw_variants) > MAX_VARIANTS:
            raise InvalidInput(f"variants must be a list of at most {MAX_VARIANTS}")
        for i, raw in enumerate(raw_variants):
            if not isinstance(raw, Mapping) or set(raw) != {"query", "legs"}:
                raise InvalidInput(f"variants[{i}] must be {{query, legs}}")
            where = f"variants[{i}]"
            variants.append(
                Variant(_query(raw["query"], f"{where}.query"), _legs(raw["legs"], where, docs))
            )
    exclude = obj.get("exclude")
    if exclude is None:
        exclude = default_excludes()
    elif not isinstance(exclude, list) or not all(isinstance(p, str) and p for p in exclude):
        raise InvalidInput("exclude must be a list of non-empty strings")
    raw_boost = obj.get("boost")
    boost = boost_map(sources()["boost"] if raw_boost is None else raw_boost, "boost")
    name = obj.get("bundle")
    if name is None:
        name = DEFAULT_BUNDLE
    if name not in BUNDLES:
        raise InvalidInput(f"bundle must be one of {sorted(BUNDLES)}")
    preset = BUNDLES[name]
    budget = obj.get("tokenBudget")
    limit = obj.get("limit")
    edges = None if obj.get("edges") is None else edges_from_json(obj["edges"], "edges")
    if edges is None:
        from .links import extract_links

        edges = [e for doc in documents for e in extract_links(doc.path, doc.content)[1]]
    return SearchInput(
        variants=tuple(variants),
        documents=tuple(documents),
        edges=tuple(edges),
        rerank=_rerank(obj.get("rerank")),
        exclude=tuple(exclude),
        boost=boost,
        dedup=_flag(obj, "dedup", True),
        bundle=name,
        expansion=_flag(obj, "expansion", preset.expansion),
        reranker=_flag(obj, "reranker", preset.reranker),
        token_budget=(
            preset.token_budget if budget is None else whole_number(budget, "tokenBudget")
        ),
        limit=preset.limit if limit is None else whole_number(limit, "limit", 1, MAX_LIMIT),
        graph=_flag(obj, "graph", preset.graph),
        walk=walk_options(obj, ""),
    )
