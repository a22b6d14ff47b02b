"""Seed 002's dense list: activation + 0.5 × label overlap (SCOPE-13..15), made exact.

The seed (GenieHelper `get_dense_hits`) pre-selects the `3 × limit` most activated nodes,
scores each by its activation plus half the number of query words found in its lowercased
label, and keeps the best `limit`. Its SQL leaves activation ties unordered and its sort breaks
score ties by id descending; SCOPE-13..15 pin both.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from reference.text import codepoint_key, lowercase
from reference.types import MAX_INTEGER, InvalidInput, optional, whole_number

#: SCOPE-13: the seed's default `limit`.
DEFAULT_LIMIT = 20


@dataclass(frozen=True)
class Node:
    """One node of the seed's `nodes` table: id, label, activation."""

    id: str
    label: str
    activation: float


@dataclass(frozen=True)
class DenseHit:
    """SCOPE-14: a node of the dense list with its score and label overlap."""

    id: str
    score: float
    overlap: int


def overlap(label: str, words: Sequence[str]) -> int:
    """SCOPE-14: how many query words (repeats counted, as given) occur in the lowercased label."""
    lowered = lowercase(label)
    return sum(1 for word in words if word in lowered)


def preselect(nodes: Sequence[Node], limit: int) -> list[Node]:
    """SCOPE-13: nodes with activation > 0, most activated first (ties by id ascending by code
    point), the first min(3 × limit, 2^31 − 1)."""
    active = [n for n in nodes if n.activation > 0.0]
    active.sort(key=lambda n: codepoint_key(n.id))
    active.sort(key=lambda n: n.activation, reverse=True)
    return active[: min(3 * limit, MAX_INTEGER)]


def dense_hits(nodes: Sequence[Node], words: Sequence[str], limit: int) -> list[DenseHit]:
    """SCOPE-13..15: score = activation + overlap × 0.5 (one binary64 addition); score
    descending, ties by id descending by code point; the first `limit`."""
    scored = []
    for node in preselect(nodes, limit):
        count = overlap(node.label, words)
        scored.append(DenseHit(node.id, node.activation + count * 0.5, count))
    scored.sort(key=lambda h: codepoint_key(h.id), reverse=True)
    scored.sort(key=lambda h: h.score, reverse=True)
    return scored[:limit]


def nodes_from_json(value: object) -> list[Node]:
    """SCOPE-15: `nodes` is a list of `{id, label?, activation}` with distinct non-empty ids."""
    if not isinstance(value, list):
        raise InvalidInput("nodes must be a list")
    out: list[Node] = []
    seen: set[str] = set()
    for i, item in enumerate(value):
        at = f"nodes[{i}]"
        if not isinstance(item, Mapping):
            raise InvalidInput(f"{at} must be an object")
        nid = item.get("id")
        if not isinstance(nid, str) or nid == "":
            raise InvalidInput(f"{at}.id must be a non-empty string")
        if nid in seen:
            raise InvalidInput(f"{at}.id {nid!r} is repeated")
        seen.add(nid)
        label = optional(item, "label", "")
        if not isinstance(label, str):
            raise InvalidInput(f"{at}.label must be a string")
        act = item.get("activation")
        if isinstance(act, bool) or not isinstance(act, int | float) or not math.isfinite(act):
            raise InvalidInput(f"{at}.activation must be a finite number")
        out.append(Node(nid, label, float(act)))
    return out


def dense_hits_op(inp: Mapping[str, Any]) -> dict[str, Any]:
    """`scoped-fusion.dense_hits` `{nodes, queryWords, limit?}` -> `{hits: [{id, score,
    overlap}]}` (SCOPE-13..15)."""
    nodes = nodes_from_json(inp.get("nodes"))
    words = inp.get("queryWords")
    if not isinstance(words, list) or not all(isinstance(w, str) for w in words):
        raise InvalidInput("queryWords must be a list of strings")
    limit = whole_number(optional(inp, "limit", DEFAULT_LIMIT), "limit")
    return {
        "hits": [
            {"id": h.id, "score": h.score, "overlap": h.overlap}
            for h in dense_hits(nodes, words, limit)
        ]
    }
