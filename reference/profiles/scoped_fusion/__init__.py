"""Profile `scoped-fusion` (spec/profiles/scoped-fusion.md, SCOPE-*): seed 003's scoped,
weighted fusion — the 0..maxWeight weight range, scoping of every leg by `metadata.scope`, the
`excludeIds` exclusion before fusion and the BM25 leg's `candidateK × headroom` ask; and,
as an optional operation, seed 002's dense list (activation + 0.5 × label overlap)."""

from __future__ import annotations

from reference.profiles.scoped_fusion.dense_hits import dense_hits_op
from reference.profiles.scoped_fusion.hooks import PIPELINE
from reference.profiles.scoped_fusion.ops import filter_op

VERSION = "2.0.0"

__all__ = ["OPERATIONS", "PIPELINE", "VERSION"]

OPERATIONS = {
    "scoped-fusion.filter": filter_op,
    "scoped-fusion.dense_hits": dense_hits_op,
}
