"""Profile `bm25-okapi`: Okapi BM25 with stated k1 and b (spec/profiles/bm25-okapi.md).

Exports VERSION (the chapter's), OPERATIONS (`bm25-okapi.score`, OKAPI-11) and PIPELINE
(the BM25 leg ranked with Okapi BM25, OKAPI-14).
"""

from __future__ import annotations

from typing import Any

from reference.profiles.bm25_okapi.operation import op_score
from reference.profiles.bm25_okapi.pipeline import PIPELINE

VERSION = "1.1.0"

OPERATIONS: dict[str, Any] = {"bm25-okapi.score": op_score}

__all__ = ["OPERATIONS", "PIPELINE", "VERSION"]
