"""The fanout plan is linear in connector words (issue 39, item 7: `x and y or z plus ...` took
16.9x the time on 4x the words). Work is counted, not timed: the tokens FANOUT-6's phrase
probes look at, on n and 4n connector groups."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from reference import fanout

FACTOR = 4


def _looks(monkeypatch: pytest.MonkeyPatch, query: str) -> int:
    seen = [0]
    real = fanout._breaks

    def counting(token: str) -> bool:
        seen[0] += 1
        return real(token)

    monkeypatch.setattr(fanout, "_breaks", counting)
    fanout.plan_texts(query, query)
    monkeypatch.setattr(fanout, "_breaks", real)
    return seen[0]


@pytest.mark.parametrize("unit", [
    "x and y or z plus ",          # the shape: every word a connector or a breaking token
    "and 1 or 2 plus 3 with 4 ",   # connectors between digits: long skips on both sides
    "green and tea or pasta ",     # phrases on each side of every connector
    "about did does for from had ",  # stop words (super-linear before, issue 39)
])
def test_phrase_probes_look_at_each_token_a_bounded_number_of_times(
    monkeypatch: pytest.MonkeyPatch, unit: str
) -> None:
    make: Callable[[int], str] = lambda n: unit * n  # noqa: E731
    small, large = _looks(monkeypatch, make(60)), _looks(monkeypatch, make(60 * FACTOR))
    ratio = large / small
    assert ratio < 2 * FACTOR, f"{FACTOR}x the connectors took {ratio:.1f}x the work"
