"""The engram post-fusion boost (ENGRAM-8..12): matched date x2, episodic recency decay
floored at 0.5, access frequency; composed left to right, then a stable re-order."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from reference.profiles.engram import dates

DATE_KEY = "engram.date"
#: ENGRAM-6: the memory's fact date, the text the query's signal is found in (engram's fact_date).
FACT_KEY = "engram.factDate"
KIND_KEY = "engram.kind"
ACCESS_KEY = "engram.accessCount"
EPISODIC = "episodic"
DATE_MATCH = 2.0
DECAY = -0.693
FLOOR = 0.5
ACCESS_BASE = 1.0
ACCESS_SCALE = 0.1
DEFAULT_HALF_LIFE_DAYS = 30.0
MAX_ACCESS = 2**53 - 1
_COUNT = re.compile(r"0|[1-9][0-9]*", re.ASCII)

#: The math library functions, looked up at call time (tests run them 1 ulp off, ENGRAM-12).
exp: Callable[[float], float] = math.exp
log: Callable[[float], float] = math.log


@dataclass(frozen=True)
class Factors:
    """One item's boost: what was read from its metadata and the three factors (ENGRAM-11)."""

    date_match: bool
    age_days: float | None
    recency: float
    access: float


def access_count(metadata: Mapping[str, str]) -> int:
    """ENGRAM-6: a decimal count 0 .. 2^53-1 without sign or leading zero; anything else is 0."""
    raw = metadata.get(ACCESS_KEY)
    if raw is None or _COUNT.fullmatch(raw) is None or len(raw) > 16:
        return 0
    value = int(raw)
    return value if value <= MAX_ACCESS else 0


def recency(age: float, half_life_days: float) -> float:
    """ENGRAM-9: max(exp((-0.693 x age) / halfLife), 0.5), each step one binary64 operation."""
    decayed = exp((DECAY * age) / half_life_days)
    return decayed if decayed > FLOOR else FLOOR


def access(count: int) -> float:
    """ENGRAM-10: 1.0 + (0.1 x log(1.0 + count))."""
    return ACCESS_BASE + ACCESS_SCALE * log(1.0 + float(count))


def factors(metadata: Mapping[str, str], signal: str | None, now_seconds: int,
            half_life_days: float) -> Factors:
    """ENGRAM-6..10 for one item: the signal found in the fact date (engram's substring test),
    the age from the memory's date."""
    raw_date = metadata.get(DATE_KEY)
    parsed = dates.parse(raw_date) if raw_date is not None else None
    fact = metadata.get(FACT_KEY)
    matched = signal is not None and fact is not None and signal in fact
    age = dates.age_days(now_seconds, parsed[1]) if parsed is not None else None
    rec = 1.0
    if age is not None and metadata.get(KIND_KEY) == EPISODIC:
        rec = recency(age, half_life_days)
    return Factors(matched, age, rec, access(access_count(metadata)))


def boosted(score: float, f: Factors) -> float:
    """ENGRAM-11: ((score x date) x recency) x access, left to right at run time."""
    date = DATE_MATCH if f.date_match else 1.0
    return ((score * date) * f.recency) * f.access


def order(scores: Sequence[float]) -> list[int]:
    """ENGRAM-11: positions by boosted score descending; equal floats keep their input order."""
    return sorted(range(len(scores)), key=lambda i: -scores[i])
