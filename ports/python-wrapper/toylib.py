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


def head_overlap(left: list[str], right: list[str], depth: int = 3) -> int:
    """Distinct ids shared by the first `depth` entries of two rankings."""
    for ranking in (left, right):
        if not isinstance(ranking, list):
            raise TypeError("a ranking must be a list of ids")
        for item in ranking:
            if not isinstance(item, str) or not item:
                raise ValueError(f"bad id {item!r}")
    return len(set(left[:depth]) & set(right[:depth]))
