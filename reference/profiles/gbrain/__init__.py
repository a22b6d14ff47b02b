"""Profile `gbrain` (spec/profiles/gbrain.md): seed 004's system on its own.

Its zero-LLM link extraction (GBRAIN-1..9), typed-edge traversal (GBRAIN-10..12) and its own
search, `gbrain.search`, in the seed's order (GBRAIN-28..40): intent, expansion, hybrid search
with hard excludes and the source-aware re-rank, RRF, the top 30, the graph augment, the
reranker, the token budget, dedup. The profile has no hooks in the core `search` (3.0.0).
"""

from __future__ import annotations

from .ops import op_extract_links, op_traverse
from .search import op_search

VERSION = "4.0.0"

OPERATIONS = {
    "gbrain.extract_links": op_extract_links,
    "gbrain.search": op_search,
    "gbrain.traverse": op_traverse,
}
