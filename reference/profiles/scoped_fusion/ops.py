"""The operation `scoped-fusion.filter` (SCOPE-12; spec/profiles/scoped-fusion.md)."""

from __future__ import annotations

from typing import Any

from reference.profiles.scoped_fusion.options import parse_options
from reference.profiles.scoped_fusion.scope_filter import filter_hits
from reference.types import candidates_from_json, optional, whole_number

JSON = dict[str, Any]


def filter_op(inp: JSON) -> JSON:
    """`{hits, scopes?, excludeIds?, limit?}` -> `{kept: [id], removed: [{id, reason}]}`.

    One leg's filter: scope first, then the exclusion list, then the first `limit` kept hits
    (SCOPE-12). Without `limit` nothing is cut.
    """
    hits = candidates_from_json(inp.get("hits"), "hits")
    options = parse_options(
        {name: inp.get(name) for name in ("scopes", "excludeIds")}, where="input"
    )
    outcome = filter_hits(hits, options)
    kept = outcome.kept
    if optional(inp, "limit", None) is not None:
        kept = kept[: whole_number(inp["limit"], "limit")]
    return {
        "kept": [hit.id for hit in kept],
        "removed": [{"id": r.id, "reason": r.reason} for r in outcome.removed],
    }
