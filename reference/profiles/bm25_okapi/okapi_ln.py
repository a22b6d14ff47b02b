"""The pinned natural logarithm of the bm25-okapi profile (OKAPI-5).

Runtime `log` functions are not correctly rounded and disagree in the last bit (glibc, V8 and
Go differ on about 7.5 % of the IDF arguments), so the profile computes ln with additions,
multiplications and divisions only, each rounded once, in this exact order.
"""

from __future__ import annotations

#: OKAPI-5: binary64 literals, written as they round-trip.
SQRT2 = 1.4142135623730951
LN2 = 0.6931471805599453
#: OKAPI-5: the series 2u·Σ v^k/(2k+1) stops after k = 11 (12 coefficients).
TERMS = 12
COEFFICIENTS = tuple(1.0 / float(2 * k + 1) for k in range(TERMS))


def okapi_ln(x: float) -> float:
    """ln(x) for a finite x >= 1, by the procedure of OKAPI-5 (bit-identical in every port)."""
    if not x >= 1.0 or x == float("inf"):
        raise ValueError(f"okapi_ln needs a finite x >= 1, got {x!r}")
    m = x
    e = 0
    while m >= 2.0:  # exact: halving a normal binary64 value never rounds
        m = m / 2.0
        e = e + 1
    if m > SQRT2:
        m = m / 2.0
        e = e + 1
    u = (m - 1.0) / (m + 1.0)
    v = u * u
    p = COEFFICIENTS[TERMS - 1]
    for k in range(TERMS - 2, -1, -1):
        p = (p * v) + COEFFICIENTS[k]  # product rounded, then the sum: never fused (OKAPI-10)
    t = u * p
    return (float(e) * LN2) + (t + t)
