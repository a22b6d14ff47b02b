"""The `engram` profile (spec/profiles/engram.md, ENGRAM-*): seed 001's intent channels with
per-channel RRF weights, its temporal, recency and access boosts, and the score threshold."""

from __future__ import annotations

from reference.profiles.engram.ops import op_boost, op_classify, op_threshold
from reference.profiles.engram.pipeline import PIPELINE

VERSION = "2.0.0"
OPERATIONS = {
    "engram.classify": op_classify,
    "engram.boost": op_boost,
    "engram.threshold": op_threshold,
}

__all__ = ["OPERATIONS", "PIPELINE", "VERSION"]
