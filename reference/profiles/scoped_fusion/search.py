"""`scoped-fusion.search`: nexusAI's getFusedEpisodes (spec/profiles/scoped-fusion.md
SCOPE-17..27).

Only the system's own stages, in its order: the semantic search (scoped, `semanticLimit`
episodes, then the `excludeIds` removal), the keyword search (skipped when its weight is 0;
scoped, `semanticLimit × headroom` episodes, then the removal), `fuseEpisodeResults` (weighted
RRF, k = 60, the asymmetric `contrib > 0` guard, a stable sort by score) and the cut to
`semanticLimit`. The stage functions are module globals looked up at call time, so that a
broken port in conformance/selftest/broken_ports/ can replace one rule at a time.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from reference.profiles.scoped_fusion.options import Options, parse_options
from reference.profiles.scoped_fusion.scope_filter import SCOPE_FIELD
from reference.types import MAX_INTEGER, Candidate, InvalidInput, candidates_from_json, whole_number

JSON = dict[str, Any]

#: SCOPE-24: RETRIEVAL.RRF_K, not a setting.
RRF_K = 60
#: SCOPE-19: RETRIEVAL.SEMANTIC_WEIGHT and RETRIEVAL.KEYWORD_WEIGHT.
DEFAULT_SEMANTIC_WEIGHT = 1.0
DEFAULT_KEYWORD_WEIGHT = 0.0
SEMANTIC = "semantic"
KEYWORD = "keyword"
OPTION_FIELDS = ("scopes", "excludeIds", "headroom", "maxWeight")
FIELDS = frozenset(
    {"query", "documents", "legs", "semanticLimit", "semanticWeight", "keywordWeight",
     *OPTION_FIELDS}
)


@dataclass(frozen=True)
class LegRun:
    """One leg's search (SCOPE-21, SCOPE-22): the ids it kept and its trace row."""

    kept: list[str]
    row: JSON


def weight(value: object, name: str, default: float, options: Options) -> float:
    """SCOPE-19: a finite number in 0..maxWeight (maxWeight itself accepted); null: default."""
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidInput(f"{name} must be a number, got {value!r}")
    out = float(value)
    if not math.isfinite(out) or out < 0:
        raise InvalidInput(f"{name} must be a finite number >= 0, got {value!r}")
    if out > options.max_weight:
        raise InvalidInput(f"{name}: {out!r} is above the maxWeight {options.max_weight!r}")
    return out


def ranked_list(value: object, where: str, known: Mapping[str, Candidate]) -> list[str]:
    """SCOPE-18: `[{id, score?}]`, best first; ids distinct and each a document's id."""
    if not isinstance(value, list):
        raise InvalidInput(f"{where} must be a list of {{id, score?}} objects")
    out: list[str] = []
    for i, item in enumerate(value):
        at = f"{where}[{i}]"
        if not isinstance(item, Mapping):
            raise InvalidInput(f"{at} must be an object")
        unknown = sorted(set(item) - {"id", "score"})
        if unknown:
            raise InvalidInput(f"{at}: unknown member(s) {unknown}")
        hid = item.get("id")
        if not isinstance(hid, str) or hid == "":
            raise InvalidInput(f"{at}.id must be a non-empty string, got {hid!r}")
        score = item.get("score")
        if score is not None and (isinstance(score, bool) or not isinstance(score, int | float)):
            raise InvalidInput(f"{at}.score must be a number, got {score!r}")
        if hid not in known:
            raise InvalidInput(f"{at}: id {hid!r} is not one of the documents")
        if hid in out:
            raise InvalidInput(f"{at}: duplicate id {hid!r}")
        out.append(hid)
    return out


def in_scope(hid: str, docs: Mapping[str, Candidate], options: Options) -> bool:
    """SCOPE-20: a document's scope is its `metadata.scope`; no `scopes`: every document."""
    return options.scopes is None or docs[hid].metadata.get(SCOPE_FIELD) in options.scopes


def keyword_limit(semantic_limit: int, options: Options) -> int:
    """SCOPE-22: the keyword search asks `semanticLimit × headroom`, at most 2^31 − 1."""
    return min(semantic_limit * options.headroom, MAX_INTEGER)


def run_leg(
    ranked: Sequence[str], limit: int, docs: Mapping[str, Candidate], options: Options
) -> LegRun:
    """SCOPE-21: scope (inside the search), then the search's limit, then the exclusion."""
    scoped = [h for h in ranked if in_scope(h, docs, options)]
    returned = scoped[:limit]
    kept = [h for h in returned if h not in options.exclude_ids]
    row = {
        "ran": True,
        "limit": limit,
        "outOfScope": len(ranked) - len(scoped),
        "returned": len(returned),
        "excluded": len(returned) - len(kept),
        "kept": len(kept),
    }
    return LegRun(kept, row)


def contribution(w: float, index: int) -> float:
    """SCOPE-24: `w / (k + i + 1)` for the 0-based position i: one division."""
    return w / float(RRF_K + index + 1)


def fuse(
    semantic: Sequence[str], keyword: Sequence[str], sw: float, kw: float
) -> list[tuple[str, float]]:
    """SCOPE-24, SCOPE-25: fuseEpisodeResults before its cut."""
    scores: dict[str, float] = {}
    for i, hid in enumerate(semantic):
        scores[hid] = contribution(sw, i)
    for i, hid in enumerate(keyword):
        contrib = contribution(kw, i)
        if hid in scores:
            scores[hid] += contrib
        elif contrib > 0:
            scores[hid] = contrib
    return sorted(scores.items(), key=lambda item: -item[1])


def keyword_runs(kw: float) -> bool:
    """SCOPE-23: a keyword weight of 0 short-circuits the keyword (FTS) call."""
    return kw != 0


def cut(items: list[tuple[str, float]], semantic_limit: int) -> list[tuple[str, float]]:
    """SCOPE-26: the top `semanticLimit` episodes."""
    return items[:semantic_limit]


def _legs(value: object) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise InvalidInput("legs must be an object {semantic: [...], keyword?: [...]}")
    unknown = sorted(set(value) - {SEMANTIC, KEYWORD})
    if unknown:
        raise InvalidInput(f"legs: unknown leg(s) {unknown}")
    if value.get(SEMANTIC) is None:
        raise InvalidInput("legs.semantic is required")
    return value


def _documents(value: object) -> dict[str, Candidate]:
    docs = candidates_from_json(value, "documents")
    out: dict[str, Candidate] = {}
    for d in docs:
        if d.id in out:
            raise InvalidInput(f"documents: duplicate id {d.id!r}")
        out[d.id] = d
    return out


def search_op(inp: JSON) -> JSON:
    """`scoped-fusion.search` (SCOPE-17): validate everything, then the system's stages."""
    unknown = sorted(set(inp) - FIELDS)
    if unknown:
        raise InvalidInput(f"scoped-fusion.search: unknown member(s) {unknown}")
    if not isinstance(inp.get("query"), str):
        raise InvalidInput(f"query must be a string, got {inp.get('query')!r}")
    docs = _documents(inp.get("documents"))
    options = parse_options({n: inp.get(n) for n in OPTION_FIELDS}, where="input")
    sw = weight(inp.get("semanticWeight"), "semanticWeight", DEFAULT_SEMANTIC_WEIGHT, options)
    kw = weight(inp.get("keywordWeight"), "keywordWeight", DEFAULT_KEYWORD_WEIGHT, options)
    if inp.get("semanticLimit") is None:
        raise InvalidInput("semanticLimit is required")
    limit = whole_number(inp["semanticLimit"], "semanticLimit")
    legs = _legs(inp.get("legs"))
    semantic_ranked = ranked_list(legs[SEMANTIC], "legs.semantic", docs)
    keyword_given = legs.get(KEYWORD)
    keyword_ranked = (
        None if keyword_given is None else ranked_list(keyword_given, "legs.keyword", docs)
    )
    if keyword_runs(kw) and keyword_ranked is None:
        raise InvalidInput("legs.keyword is required when keywordWeight is above 0")
    semantic = run_leg(semantic_ranked, limit, docs, options)
    keyword_row: JSON = {"ran": False}
    keyword: list[str] = []
    if keyword_runs(kw) and keyword_ranked is not None:
        run = run_leg(keyword_ranked, keyword_limit(limit, options), docs, options)
        keyword, keyword_row = run.kept, run.row
    fused = fuse(semantic.kept, keyword, sw, kw)
    kept = cut(fused, limit)
    return {
        "results": [{"id": i, "path": docs[i].path, "score": s} for i, s in kept],
        "trace": {
            SEMANTIC: semantic.row,
            KEYWORD: keyword_row,
            "fusion": {"k": RRF_K, "semanticWeight": sw, "keywordWeight": kw,
                       "fused": len(fused)},
        },
    }
