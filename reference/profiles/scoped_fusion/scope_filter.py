"""Scoping, exclusion, headroom and the weight range of the scoped-fusion profile (SCOPE-*).

Pure functions; the pipeline hooks in `hooks.py` call them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from reference.profiles.scoped_fusion.options import Options
from reference.types import MAX_INTEGER, Candidate, InvalidInput

#: SCOPE-6: the metadata field that carries a candidate's scope.
SCOPE_FIELD = "scope"
#: SCOPE-7: why the filter removed a hit (scope is judged first).
OUT_OF_SCOPE = "out_of_scope"
EXCLUDED = "excluded"


@dataclass(frozen=True)
class Removed:
    """One hit the filter removed, with its SCOPE-7 reason."""

    id: str
    reason: str


@dataclass(frozen=True)
class Filtered:
    """SCOPE-7: the hits kept (in their order) and the hits removed (in their order)."""

    kept: list[Candidate] = field(default_factory=list)
    removed: list[Removed] = field(default_factory=list)


def removal_reason(hit: Candidate, options: Options) -> str | None:
    """SCOPE-6, SCOPE-7: `out_of_scope`, `excluded` or None (kept); scope is judged first."""
    if options.scopes is not None and hit.metadata.get(SCOPE_FIELD) not in options.scopes:
        return OUT_OF_SCOPE
    if hit.id in options.exclude_ids:
        return EXCLUDED
    return None


def filter_hits(hits: Sequence[Candidate], options: Options) -> Filtered:
    """SCOPE-7: drop out-of-scope and excluded hits, keeping the others in their order."""
    out = Filtered()
    for hit in hits:
        reason = removal_reason(hit, options)
        if reason is None:
            out.kept.append(hit)
        else:
            out.removed.append(Removed(hit.id, reason))
    return out


def bm25_limit(candidate_k: int, options: Options) -> int:
    """SCOPE-5: hits each BM25 search asks for: candidateK × headroom, at most 2^31 − 1."""
    return min(candidate_k * options.headroom, MAX_INTEGER)


def check_weights(weights: Mapping[str, float], options: Options) -> None:
    """SCOPE-1: every weight of the request (given or default) is at most maxWeight."""
    for name in sorted(weights):
        if weights[name] > options.max_weight:
            raise InvalidInput(
                f"request.weights.{name}: {weights[name]!r} is above the scoped-fusion "
                f"maxWeight {options.max_weight!r}"
            )
