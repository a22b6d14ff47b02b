"""Profile `gbrain` (spec/profiles/gbrain.md): typed links, traversal and the graph leg.

Seed 004's zero-LLM link extraction (GBRAIN-1..9), typed-edge traversal (GBRAIN-10..12) and
the graph backend built from the query's entities (GBRAIN-13..15), hard-exclude prefixes
(GBRAIN-16), dedup by page (GBRAIN-17), source boosts (GBRAIN-18) and intent routing
(GBRAIN-19, GBRAIN-20), the token budget (GBRAIN-21) and caller-supplied query variants
(GBRAIN-22, GBRAIN-23).
"""

from __future__ import annotations

from reference.profile_hooks import PipelineHooks

from .graph_leg import (
    adjust_weights,
    after_fusion,
    after_rerank,
    filter_leg,
    graph_backend,
    leg_limit,
    parse_graph_data,
    parse_options,
    query_variants,
    rerank_enabled,
)
from .ops import op_extract_links, op_traverse

VERSION = "2.0.0"

OPERATIONS = {
    "gbrain.extract_links": op_extract_links,
    "gbrain.traverse": op_traverse,
}

PIPELINE = PipelineHooks(
    parse_request=parse_options,
    parse_backends=parse_graph_data,
    query_variants=query_variants,
    adjust_weights=adjust_weights,
    leg_limit=leg_limit,
    filter_leg=filter_leg,
    graph_backend=graph_backend,
    after_fusion=after_fusion,
    after_rerank=after_rerank,
    rerank_enabled=rerank_enabled,
)
