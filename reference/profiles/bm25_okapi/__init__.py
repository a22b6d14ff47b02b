"""Profile `bm25-okapi`: Okapi BM25 with stated k1 and b (spec/profiles/bm25-okapi.md).

Exports VERSION (the chapter's) and OPERATIONS (`bm25-okapi.score`, OKAPI-11).
"""

from __future__ import annotations

from typing import Any

from reference.profiles.bm25_okapi.operation import op_score

VERSION = "1.0.0"

OPERATIONS: dict[str, Any] = {"bm25-okapi.score": op_score}
