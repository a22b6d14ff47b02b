"""Members a port may leave out (TRACE-11, INTENT-10): not compared when absent.

The rule names of `trace.intent.adjusted[*].rules` and of the `intent_reweight` operation's
`results[*].rules` are this project's names for the anchor's multiplier rows: a port of the
anchor has none to give, so an entry without `rules` is compared on its other members alone.
A port that writes `rules` is held to them.
"""

from __future__ import annotations

import copy
from typing import Any

#: TRACE-11, INTENT-10: members of an `adjusted` or `intent_reweight` entry a port MAY omit.
OPTIONAL_ADJUSTED_MEMBERS = ("rules",)


def _adjusted(document: Any, op: str | None = None) -> list[Any] | None:
    """The `trace.intent.adjusted` list of a `search` output, or the `results` of an
    `intent_reweight` output; None when there is none."""
    if not isinstance(document, dict):
        return None
    if op == "intent_reweight":
        results = document.get("results")
        return results if isinstance(results, list) else None
    trace = document.get("trace")
    intent = trace.get("intent") if isinstance(trace, dict) else None
    adjusted = intent.get("adjusted") if isinstance(intent, dict) else None
    return adjusted if isinstance(adjusted, list) else None


def drop_unfilled(expected: Any, output: Any, op: str | None = None) -> Any:
    """A copy of `expected` without the optional members the port's `output` leaves out.

    Only entries at the same index are matched; everything else is left for the comparison.
    """
    theirs = _adjusted(output, op)
    if theirs is None or _adjusted(expected, op) is None:
        return expected
    result = copy.deepcopy(expected)
    ours = _adjusted(result, op)
    assert ours is not None
    for mine, their in zip(ours, theirs, strict=False):
        if isinstance(mine, dict) and isinstance(their, dict):
            for member in OPTIONAL_ADJUSTED_MEMBERS:
                if member not in their:
                    mine.pop(member, None)
    return result
