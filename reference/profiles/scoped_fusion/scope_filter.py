"""One list's scope and exclusion filter of the scoped-fusion profile (SCOPE-3..5, SCOPE-12)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from reference.profiles.scoped_fusion.options import Options
from reference.types import Candidate

#: SCOPE-3: the metadata field that carries a candidate's scope.
SCOPE_FIELD = "scope"
#: SCOPE-12: why the filter removed a hit (scope is judged first).
OUT_OF_SCOPE = "out_of_scope"
EXCLUDED = "excluded"


@dataclass(frozen=True)
class Removed:
    """One hit the filter removed, with its SCOPE-12 reason."""

    id: str
    reason: str


@dataclass(frozen=True)
class Filtered:
    """SCOPE-12: the hits kept (in their order) and the hits removed (in their order)."""

    kept: list[Candidate] = field(default_factory=list)
    removed: list[Removed] = field(default_factory=list)


def removal_reason(hit: Candidate, options: Options) -> str | None:
    """SCOPE-4, SCOPE-5: `out_of_scope`, `excluded` or None (kept); scope is judged first."""
    if options.scopes is not None and hit.metadata.get(SCOPE_FIELD) not in options.scopes:
        return OUT_OF_SCOPE
    if hit.id in options.exclude_ids:
        return EXCLUDED
    return None


def filter_hits(hits: Sequence[Candidate], options: Options) -> Filtered:
    """SCOPE-12: drop out-of-scope and excluded hits, keeping the others in their order."""
    out = Filtered()
    for hit in hits:
        reason = removal_reason(hit, options)
        if reason is None:
            out.kept.append(hit)
        else:
            out.removed.append(Removed(hit.id, reason))
    return out
