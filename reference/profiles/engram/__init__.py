"""The `engram` profile (spec/profiles/engram.md, ENGRAM-*): seed 001's intent channels with
per-channel RRF weights, its temporal, recency and access boosts, and `engram.search`,
engram's own pipeline over scripted ranked lists."""

from __future__ import annotations

from reference.profiles.engram.ops import op_boost, op_classify
from reference.profiles.engram.search import op_search

VERSION = "3.0.0"
OPERATIONS = {
    "engram.classify": op_classify,
    "engram.boost": op_boost,
    "engram.search": op_search,
}

__all__ = ["OPERATIONS", "VERSION"]
