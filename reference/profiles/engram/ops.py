"""The engram operations (ENGRAM-4, ENGRAM-13): `engram.classify` and `engram.boost`."""

from __future__ import annotations

from typing import Any

from reference.profiles.engram import boost, dates, options
from reference.profiles.engram.table import classify
from reference.types import InvalidInput, candidate_from_json

JSON = dict[str, Any]


def _query(inp: JSON) -> str:
    q = inp.get("query")
    if not isinstance(q, str):
        raise InvalidInput("query must be a string")
    return q


def op_classify(inp: JSON) -> JSON:
    """ENGRAM-4: the class of `query`, every matching pattern, and the class's weights."""
    c = classify(_query(inp))
    return {"intent": c.intent, "matched": list(c.matched), "weights": c.weights}


def boost_items(query: str, opts: options.Options,
                items: list[tuple[str, dict[str, str], float]]) -> tuple[str | None, list[JSON]]:
    """ENGRAM-8..11 over (id, metadata, score) items: the query's temporal signal (of the
    whitespace-normalised query) and one record per item
    `{id, score, dateMatch, ageDays, recency, access}` in the new order."""
    wanted = dates.query_signal(" ".join(query.split()))
    records: list[JSON] = []
    for item_id, metadata, score in items:
        f = boost.factors(metadata, wanted, opts.now_seconds, opts.half_life_days)
        records.append({"id": item_id, "score": boost.boosted(score, f), "dateMatch": f.date_match,
                        "ageDays": f.age_days, "recency": f.recency, "access": f.access})
    return wanted, [records[i] for i in boost.order([r["score"] for r in records])]


def op_boost(inp: JSON) -> JSON:
    """ENGRAM-13: the boost of a fused list under `now` and `halfLifeDays`."""
    query = _query(inp)
    opts = options.parse({k: inp.get(k) for k in ("now", "halfLifeDays")}, "input",
                         ("now", "halfLifeDays"))
    raw = inp.get("results")
    if not isinstance(raw, list):
        raise InvalidInput("results must be a list")
    items: list[tuple[str, dict[str, str], float]] = []
    seen: set[str] = set()
    for obj in raw:
        cand = candidate_from_json(obj)
        if cand.id in seen:
            raise InvalidInput(f"results: repeated id {cand.id!r}")
        seen.add(cand.id)
        score = options.number(obj.get("score"), f"results: score of {cand.id!r}")
        items.append((cand.id, dict(cand.metadata), score))
    wanted, records = boost_items(query, opts, items)
    return {"querySignal": wanted, "results": records}
