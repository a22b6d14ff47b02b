"""The engram options (ENGRAM-7, ENGRAM-13, ENGRAM-16): `now` (required) and
`halfLifeDays`; validated before anything runs."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from reference.profiles.engram import boost, dates
from reference.types import InvalidInput


@dataclass(frozen=True)
class Options:
    now: str
    now_seconds: int
    half_life_days: float


def number(value: Any, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidInput(f"{what} must be a number")
    out = float(value)
    if not math.isfinite(out):
        raise InvalidInput(f"{what} must be finite")
    return out


def parse(obj: Mapping[str, Any], where: str, allowed: tuple[str, ...]) -> Options:
    """ENGRAM-7: `now` is one of the two UTC forms; `halfLifeDays` a finite number > 0
    (default 30); null is absent (OP-5)."""
    unknown = sorted(k for k in obj if k not in allowed)
    if unknown:
        raise InvalidInput(f"{where}.{unknown[0]}: unknown field")
    now = obj.get("now")
    if not isinstance(now, str):
        raise InvalidInput(f"{where}.now must be a string (YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ)")
    parsed = dates.parse(now)
    if parsed is None:
        raise InvalidInput(f"{where}.now: {now!r} is not YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ")
    half = obj.get("halfLifeDays")
    half_life = (boost.DEFAULT_HALF_LIFE_DAYS if half is None
                 else number(half, f"{where}.halfLifeDays"))
    if half_life <= 0:
        raise InvalidInput(f"{where}.halfLifeDays must be > 0")
    return Options(now, parsed[1], half_life)
