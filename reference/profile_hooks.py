"""Where an enabled profile plugs into the search pipeline (spec/pipeline.md PIPE-10, PIPE-11).

A reference profile package may export `PIPELINE = PipelineHooks(...)`. Every hook but
`parse_request` is optional; the pipeline calls the hooks of the profiles a request enables,
in code-point order of their names, at the points PIPE-11 lists.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from reference.rrf import Fused
from reference.types import Candidate


class GraphBackend(Protocol):
    """The graph leg's backend (spec/graph.md GRAPH-2): ranked pages for a query."""

    def search_graph(self, query: str, limit: int) -> list[Candidate]:
        """Return at most `limit` hits, best first; raise reference.types.IndexError_ on failure."""
        ...


@dataclass
class ProfileCall:
    """One enabled profile during one search: its options, its backend data, its trace."""

    name: str
    options: Any
    backend: Any
    #: What the hooks write here becomes `trace.profiles[name]` (PIPE-11).
    trace: dict[str, Any] = field(default_factory=dict)
    #: What one hook hands a later one during this call (never traced).
    state: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class PipelineHooks:
    """A profile's pipeline behaviour (PIPE-11); None means the profile does nothing there."""

    #: Validate `request.profiles[NAME]` (an object); raise InvalidInput (PIPE-9).
    parse_request: Callable[[Mapping[str, Any]], Any]
    #: Validate `backends.profiles[NAME]` (None when absent); raise InvalidInput (PIPE-9).
    parse_backends: Callable[[Any], Any] | None = None
    #: PIPE-12: the request's query (before any rewrite) -> more variants, each run through
    #: stages 1-5 and merged by RRF; called once per search.
    query_variants: Callable[[ProfileCall, str], list[str]] | None = None
    #: Rewrite the query string before stage 1 (DSL parse); every later stage sees the result.
    rewrite_query: Callable[[ProfileCall, str], str] | None = None
    #: FANOUT-15: with the BM25 fanout, the base query of the first pass instead of the
    #: rewrite (a profile that has it does not rewrite the query then).
    fanout_base: Callable[[ProfileCall, str], str] | None = None
    #: Change the leg weights (`bm25`, `vector`, `graph`) before any leg runs (PIPE-8 applies).
    adjust_weights: Callable[[ProfileCall, str, dict[str, float]], dict[str, float]] | None = None
    #: PIPE-8 exception (PIPE-11): True runs the vector leg although its weight is 0; it is
    #: then neither fused nor a unanimity voter (the profile reads its hits itself).
    runs_at_zero_weight: Callable[[ProfileCall, str], bool] | None = None
    #: PIPE-11: False switches the reranker off for the call (outcome `disabled`, RERANK-10).
    rerank_enabled: Callable[[ProfileCall], bool] | None = None
    #: PIPE-11: the text the vector leg embeds, given the normalised query (default: it).
    vector_query: Callable[[ProfileCall, str], str] | None = None
    #: How many hits a leg asks its backend for (default candidateK).
    leg_limit: Callable[[ProfileCall, str, int], int] | None = None
    #: Filter a backend answer (each ladder attempt too) before the candidateK cut (PIPE-4).
    filter_leg: Callable[[ProfileCall, str, list[Candidate]], list[Candidate]] | None = None
    #: A graph backend built from the profile's data, used when `backends.graph` is absent.
    graph_backend: Callable[[ProfileCall], GraphBackend | None] | None = None
    #: Reorder or rescore the fused list after intent reweighting, before unanimity.
    after_fusion: Callable[[ProfileCall, str, list[Fused]], list[Fused]] | None = None
    #: Remove items after rerank, before the topK cut: gets each item's (id, rerankScore or
    #: None) in order and the rerank outcome (RERANK-10); returns the ids to keep.
    after_rerank: (
        Callable[[ProfileCall, str, list[tuple[str, float | None]], str], list[str]] | None
    ) = None
