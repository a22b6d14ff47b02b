"""Intent routing: the deterministic query classifier and what each class changes
(spec/profiles/gbrain.md GBRAIN-19, GBRAIN-20)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache

from reference.data import SpecDataError, load_json
from reference.text import words

INTENT_FILE = "profiles/gbrain/intent.json"


@dataclass(frozen=True)
class IntentTable:
    """GBRAIN-19: classes in order with their triggers (word tuples), the default, the factor."""

    classes: tuple[tuple[str, tuple[tuple[str, ...], ...]], ...]
    default: str
    entity_graph_factor: float
    #: GBRAIN-31: gbrain's RRF_K and each class's leg weights (vector, keyword).
    rrf_k: float
    leg_weights: Mapping[str, tuple[float, float]]


@cache
def intent_table() -> IntentTable:
    """Load intent.json (fails loudly when missing or malformed)."""
    doc = load_json(INTENT_FILE)
    try:
        classes = tuple(
            (str(c["intent"]), tuple(tuple(str(t).split(" ")) for t in c["triggers"]))
            for c in doc["classes"]
        )
        rrf = doc["rrf"]
        weights = {
            str(name): (_weight(w["vector"]), _weight(w["keyword"]))
            for name, w in rrf["weights"].items()
        }
        table = IntentTable(classes, str(doc["default"]), float(doc["entityGraphFactor"]),
                            _weight(rrf["k"]), weights)
    except (KeyError, TypeError, ValueError) as exc:
        raise SpecDataError(f"{INTENT_FILE} is malformed: {exc}") from exc
    if not classes:
        raise SpecDataError(f"{INTENT_FILE} has no classes")
    missing = {c for c, _ in classes} | {table.default}
    if not missing <= set(table.leg_weights):
        raise SpecDataError(f"{INTENT_FILE} rrf.weights lacks {sorted(missing - set(weights))}")
    return table


def _weight(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
        raise ValueError(f"a weight or k must be a number > 0, got {value!r}")
    return float(value)


def leg_ks(intent: str) -> tuple[float, float]:
    """GBRAIN-31: the (vector, keyword) k of a class: gbrain's k divided by the leg's weight
    (`effectiveRrfK`), one binary64 division each."""
    table = intent_table()
    vector, keyword = table.leg_weights[intent]
    return table.rrf_k / vector, table.rrf_k / keyword


def _contains(query: list[str], trigger: tuple[str, ...]) -> bool:
    size = len(trigger)
    return any(tuple(query[i : i + size]) == trigger for i in range(len(query) - size + 1))


def classify(query: str) -> str:
    """GBRAIN-19: the first class (file order) with a trigger among the query's words."""
    table = intent_table()
    query_words = words(query)
    for intent, triggers in table.classes:
        if any(_contains(query_words, trigger) for trigger in triggers):
            return intent
    return table.default

