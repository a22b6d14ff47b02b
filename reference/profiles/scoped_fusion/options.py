"""The scope, exclusion and headroom members of the profile's operations: validation and
defaults (SCOPE-17). Every field is optional; `null` is absent (OP-5); an unknown field is
`invalid_input`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from reference.types import InvalidInput, optional, whole_number

#: SCOPE-19: the seed's settings range of a weight is 0..5.
DEFAULT_MAX_WEIGHT = 5.0
#: SCOPE-22: the seed's keyword search asks `semanticLimit × 2`.
DEFAULT_HEADROOM = 2

_FIELDS = ("scopes", "excludeIds", "headroom", "maxWeight")


@dataclass(frozen=True)
class Options:
    """A validated `profiles.scoped-fusion` member with its defaults filled in."""

    scopes: frozenset[str] | None
    exclude_ids: frozenset[str]
    headroom: int
    max_weight: float


def id_list(value: object, where: str) -> list[str]:
    """SCOPE-17: a list of non-empty strings (duplicates allowed, they mean one)."""
    if not isinstance(value, list):
        raise InvalidInput(f"{where} must be a list of non-empty strings")
    for i, item in enumerate(value):
        if not isinstance(item, str) or item == "":
            raise InvalidInput(f"{where}[{i}] must be a non-empty string, got {item!r}")
    return value


def max_weight(value: object, where: str) -> float:
    """SCOPE-17: a finite number >= 1, so that the default semantic weight 1 always fits."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidInput(f"{where} must be a number, got {value!r}")
    out = float(value)
    if not math.isfinite(out) or out < 1:
        raise InvalidInput(f"{where} must be finite and >= 1, got {value!r}")
    return out


def parse_options(obj: object, where: str = "input") -> Options:
    """SCOPE-17: validate the members; raises InvalidInput naming the field."""
    if not isinstance(obj, Mapping):
        raise InvalidInput(f"{where} must be an object")
    unknown = sorted(set(obj) - set(_FIELDS))
    if unknown:
        raise InvalidInput(f"{where} has unknown field(s): {', '.join(unknown)}")
    scopes: Any = obj.get("scopes")
    return Options(
        scopes=None if scopes is None else frozenset(id_list(scopes, f"{where}.scopes")),
        exclude_ids=frozenset(id_list(optional(obj, "excludeIds", []), f"{where}.excludeIds")),
        headroom=whole_number(optional(obj, "headroom", DEFAULT_HEADROOM), f"{where}.headroom"),
        max_weight=max_weight(optional(obj, "maxWeight", DEFAULT_MAX_WEIGHT), f"{where}.maxWeight"),
    )
