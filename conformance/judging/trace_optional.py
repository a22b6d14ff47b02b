"""Trace members a port may leave out (spec/trace.md TRACE-11): not compared when absent.

The rule names of `trace.intent.adjusted[*].rules` are this project's names for the anchor's
multiplier rows: a port of the anchor has none to give, so an entry without `rules` is
compared on its `id` and `multiplier` alone. A port that writes `rules` is held to them.
"""

from __future__ import annotations

import copy
from typing import Any

#: TRACE-11: members of an `adjusted` entry a port MAY omit.
OPTIONAL_ADJUSTED_MEMBERS = ("rules",)


def _adjusted(document: Any) -> list[Any] | None:
    """The `trace.intent.adjusted` list of a `search` output, or None when there is none."""
    if not isinstance(document, dict):
        return None
    trace = document.get("trace")
    intent = trace.get("intent") if isinstance(trace, dict) else None
    adjusted = intent.get("adjusted") if isinstance(intent, dict) else None
    return adjusted if isinstance(adjusted, list) else None


def drop_unfilled(expected: Any, output: Any) -> Any:
    """A copy of `expected` without the optional members the port's `output` leaves out.

    Only entries at the same index are matched; everything else is left for the comparison.
    """
    theirs = _adjusted(output)
    if theirs is None or _adjusted(expected) is None:
        return expected
    result = copy.deepcopy(expected)
    ours = _adjusted(result)
    assert ours is not None
    for mine, their in zip(ours, theirs, strict=False):
        if isinstance(mine, dict) and isinstance(their, dict):
            for member in OPTIONAL_ADJUSTED_MEMBERS:
                if member not in their:
                    mine.pop(member, None)
    return result
