"""A stand-in for a retrieval library that was not written against the hrc spec.

It exists so that `adapter.py` can show how a wrapper maps a foreign API onto the hrc
operations (ports/README.md, "Wrapping a library you did not write"). Its API and its
exceptions are deliberately its own: plain Python errors, no error kinds, no JSON.
"""

from __future__ import annotations


def code_points(text: str) -> int:
    """Number of code points of `text` (TypeError when it is not a string)."""
    if not isinstance(text, str):
        raise TypeError(f"expected str, got {type(text).__name__}")
    return len(text)


def head_agreements(left: list[str], right: list[str], depth: int = 3) -> int:
    """Positions among the first `depth` where two rankings hold the same id; 0 when either
    ranking is shorter than `depth`."""
    for ranking in (left, right):
        if not isinstance(ranking, list):
            raise TypeError("a ranking must be a list of ids")
        for item in ranking:
            if not isinstance(item, str) or not item:
                raise ValueError(f"bad id {item!r}")
    if len(left) < depth or len(right) < depth:
        return 0
    return sum(1 for i in range(depth) if left[i] == right[i])
