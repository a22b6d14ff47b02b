"""Intent routing: the deterministic query classifier and what each class changes
(spec/profiles/gbrain.md GBRAIN-19, GBRAIN-20)."""

from __future__ import annotations

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


@cache
def intent_table() -> IntentTable:
    """Load intent.json (fails loudly when missing or malformed)."""
    doc = load_json(INTENT_FILE)
    try:
        classes = tuple(
            (str(c["intent"]), tuple(tuple(str(t).split(" ")) for t in c["triggers"]))
            for c in doc["classes"]
        )
        table = IntentTable(classes, str(doc["default"]), float(doc["entityGraphFactor"]))
    except (KeyError, TypeError, ValueError) as exc:
        raise SpecDataError(f"{INTENT_FILE} is malformed: {exc}") from exc
    if not classes:
        raise SpecDataError(f"{INTENT_FILE} has no classes")
    return table


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

