"""Profile `scoped-fusion` (spec/profiles/scoped-fusion.md, SCOPE-*): nexusAI's getFusedEpisodes
as the operation `scoped-fusion.search` (seed 003), one list's filter `scoped-fusion.filter`,
and, as an optional operation, seed 002's dense list (activation + 0.5 × label overlap)."""

from __future__ import annotations

from reference.profiles.scoped_fusion.dense_hits import dense_hits_op
from reference.profiles.scoped_fusion.ops import filter_op
from reference.profiles.scoped_fusion.search import search_op

VERSION = "3.0.0"

__all__ = ["OPERATIONS", "VERSION"]

OPERATIONS = {
    "scoped-fusion.search": search_op,
    "scoped-fusion.filter": filter_op,
    "scoped-fusion.dense_hits": dense_hits_op,
}
