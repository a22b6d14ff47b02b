"""Growth checks: time two input sizes and compare the ratio, never an absolute time.

A linear step costs about `factor` times more on `factor` times the input; a quadratic one
`factor**2`. The bound sits between the two, and each size keeps the fastest of a few
repetitions (CPU time of this process), so a loaded machine slows both sides alike.
"""

from __future__ import annotations

import time
from collections.abc import Callable

#: 4x the input may cost at most 8x the time: linear (4x) and n log n pass, quadratic (16x)
#: fails. A step that is only n**1.5 needs a larger factor (16x input: 64x against 32x).
FACTOR = 4


def _fastest(make: Callable[[int], Callable[[], object]], n: int, reps: int) -> float:
    """Fastest of `reps` runs, each of a fresh `make(n)`: its set-up is not timed."""
    best = float("inf")
    for _ in range(reps):
        run = make(n)
        start = time.process_time()
        run()
        best = min(best, time.process_time() - start)
    return best


def growth_ratio(
    make: Callable[[int], Callable[[], object]], small: int, factor: int = FACTOR, reps: int = 3
) -> float:
    """Time of `make(factor * small)()` over `make(small)()`, fastest of `reps` each."""
    little = _fastest(make, small, reps)
    large = _fastest(make, factor * small, reps)
    return large / max(little, 1e-4)


def assert_linear(
    make: Callable[[int], Callable[[], object]], small: int, what: str, factor: int = FACTOR
) -> None:
    """Fails when `what` costs more than 2 x `factor` times as much on `factor` times the input."""
    ratio = growth_ratio(make, small, factor)
    assert ratio < 2 * factor, f"{what}: {factor}x the input took {ratio:.1f}x the time"
