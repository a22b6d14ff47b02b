"""The search request: validation and defaults (spec/pipeline.md PIPE-1, PIPE-2, PIPE-13,
PIPE-14)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from reference import text
from reference.intent_table import check_table_name
from reference.modes import MODES
from reference.rrf import check_weight
from reference.types import InvalidInput, optional, whole_number

DEFAULTS: dict[str, Any] = {
    "mode": "auto",
    "topK": 10,
    "candidateK": 60,
    "rerankTopN": 20,
    "rrfK": 60,
    "rerank": True,
    "skipRetryLadder": False,
    "bm25Fanout": False,
    "intentTable": "anchor",
    "stopwordList": "anchor",
}

_KNOWN = {"query", "aliases", "weights", "profiles", *DEFAULTS}
#: PIPE-14: the longest query, in code points (TEXT-8) of the string as given.
MAX_QUERY_CODE_POINTS = 4096


def check_query_bound(value: str, field: str, clause: str) -> str:
    """FANOUT-25, INTENT-14: an operation's query text is bounded as PIPE-14 bounds a search's:
    at most MAX_QUERY_CODE_POINTS code points of the string as given, else invalid_input."""
    if len(value) > MAX_QUERY_CODE_POINTS:
        raise InvalidInput(
            f"{field} has {len(value)} code points, more than {MAX_QUERY_CODE_POINTS} ({clause})"
        )
    return value


#: PIPE-1, GRAPH-3: the legs a weight may name, in fusion order (PIPE-5).
WEIGHT_NAMES = ("bm25", "vector", "graph")


@dataclass(frozen=True)
class Request:
    """A validated request with every default filled in."""

    query: str
    mode: str
    top_k: int
    candidate_k: int
    rerank_top_n: int
    rrf_k: int
    bm25_weight: float
    vector_weight: float
    rerank: bool
    skip_retry_ladder: bool
    aliases: Mapping[str, list[str]] = field(default_factory=dict)
    intent_table: str = "anchor"
    #: DSL-22: the stopword list every stopword-filtering stage uses.
    stopword_list: str = "anchor"
    #: GRAPH-3: the graph leg's weight (used only when a graph backend is configured).
    graph_weight: float = 1.0
    #: PIPE-10: enabled profiles, name -> the options its `parse_request` returned.
    profiles: Mapping[str, Any] = field(default_factory=dict)
    #: FANOUT-1: the BM25 leg's first pass is the anchor's fanout (not in the trace's request).
    bm25_fanout: bool = False

    def to_json(self) -> dict[str, Any]:
        """The `request` object of the trace (TRACE fields), aliases and intentTable excluded."""
        return {
            "query": self.query,
            "mode": self.mode,
            "topK": self.top_k,
            "candidateK": self.candidate_k,
            "rerankTopN": self.rerank_top_n,
            "rrfK": self.rrf_k,
            "weights": {"bm25": self.bm25_weight, "vector": self.vector_weight},
            "rerank": self.rerank,
            "skipRetryLadder": self.skip_retry_ladder,
        }


def _positive_int(obj: Mapping[str, Any], name: str) -> int:
    """PIPE-13, PIPE-1, OP-4, OP-5: a number <= 0 means the default (the anchor); otherwise
    a whole number in [1, 2^31 - 1] (3.0 counts as 3; null is absent)."""
    value = optional(obj, name, DEFAULTS[name])
    if not isinstance(value, bool) and isinstance(value, int | float) and value <= 0:
        return int(DEFAULTS[name])
    return whole_number(value, f"request.{name}")


def _bool(obj: Mapping[str, Any], name: str) -> bool:
    value = optional(obj, name, DEFAULTS[name])
    if not isinstance(value, bool):
        raise InvalidInput(f"request.{name} must be a boolean, got {value!r}")
    return value


def _weight(weights: Mapping[str, Any], name: str) -> float:
    """PIPE-1, RRF-3: the same weight rule as a fusion list's."""
    try:
        return check_weight(optional(weights, name, 1))
    except InvalidInput as exc:
        raise InvalidInput(f"request.weights.{name}: {exc}") from exc


def _named_data(obj: Mapping[str, Any], name: str, check: Callable[[Any], str]) -> str:
    """PIPE-1, OP-5: a named table or list (INTENT-13, DSL-22); absent or null is the default."""
    try:
        return check(optional(obj, name, DEFAULTS[name]))
    except InvalidInput as exc:
        raise InvalidInput(f"request.{name}: {exc}") from exc


def parse_request(obj: Mapping[str, Any]) -> Request:
    """PIPE-1, PIPE-2, PIPE-9: reject bad fields; absent and null fields take their defaults.

    Everything the request carries is checked here, before any backend is called (PIPE-9).
    """
    from reference.query import validate_aliases
    from reference.query.stopwords import check_list

    if not isinstance(obj, Mapping):
        raise InvalidInput("request must be an object")
    unknown = sorted(set(obj) - _KNOWN)
    if unknown:
        raise InvalidInput(f"request has unknown field(s): {', '.join(unknown)}")
    query = obj.get("query")
    if not isinstance(query, str):
        raise InvalidInput("request.query must be a string")
    if len(query) > MAX_QUERY_CODE_POINTS:
        raise InvalidInput(
            f"request.query has {len(query)} code points, more than {MAX_QUERY_CODE_POINTS} "
            "(PIPE-14)"
        )
    if text.normalise(query) == "":
        raise InvalidInput("request.query is empty after normalisation")
    mode = optional(obj, "mode", DEFAULTS["mode"])
    if mode not in MODES:
        raise InvalidInput(f"request.mode must be one of {', '.join(MODES)}, got {mode!r}")
    weights = optional(obj, "weights", {})
    if not isinstance(weights, Mapping) or set(weights) - set(WEIGHT_NAMES):
        raise InvalidInput(
            "request.weights must be an object with optional bm25, vector and graph"
        )
    return Request(
        query=query,
        mode=mode,
        top_k=_positive_int(obj, "topK"),
        candidate_k=_positive_int(obj, "candidateK"),
        rerank_top_n=_positive_int(obj, "rerankTopN"),
        rrf_k=_positive_int(obj, "rrfK"),
        bm25_weight=_weight(weights, "bm25"),
        vector_weight=_weight(weights, "vector"),
        rerank=_bool(obj, "rerank"),
        skip_retry_ladder=_bool(obj, "skipRetryLadder"),
        aliases=validate_aliases(obj.get("aliases")),
        intent_table=_named_data(obj, "intentTable", check_table_name),
        stopword_list=_named_data(obj, "stopwordList", check_list),
        graph_weight=_weight(weights, "graph"),
        profiles=_profiles(optional(obj, "profiles", {})),
        bm25_fanout=_bool(obj, "bm25Fanout"),
    )


def _profiles(raw: Any) -> dict[str, Any]:
    """PIPE-10: each named profile's options, parsed by the profile; a null entry is absent."""
    from reference.profiles import discover

    if not isinstance(raw, Mapping):
        raise InvalidInput("request.profiles must be an object")
    known = discover()
    out: dict[str, Any] = {}
    for name in sorted(raw):
        options = raw[name]
        if options is None:
            continue  # OP-5
        profile = known.get(name)
        if profile is None or profile.pipeline is None:
            raise InvalidInput(f"request.profiles.{name}: unknown profile")
        if not isinstance(options, Mapping):
            raise InvalidInput(f"request.profiles.{name} must be an object")
        out[name] = profile.pipeline.parse_request(options)
    return out
