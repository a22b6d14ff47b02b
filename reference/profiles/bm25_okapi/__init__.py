"""Profile `bm25-okapi`: Okapi BM25 with stated k1 and b, and GenieHelper's retrieval
(spec/profiles/bm25-okapi.md).

Exports VERSION (the chapter's) and OPERATIONS: `bm25-okapi.score` (OKAPI-11) and
`bm25-okapi.search` (HyDE -> dense + BM25 -> RRF -> top 8, OKAPI-18..27).
"""

from __future__ import annotations

from typing import Any

from reference.profiles.bm25_okapi.operation import op_score
from reference.profiles.bm25_okapi.search import search_op

VERSION = "2.0.0"

OPERATIONS: dict[str, Any] = {"bm25-okapi.score": op_score, "bm25-okapi.search": search_op}

__all__ = ["OPERATIONS", "VERSION"]
