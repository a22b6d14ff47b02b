"""The text a reranker is shown for one candidate (spec/rerank.md RERANK-13, RERANK-14)."""

from __future__ import annotations

from reference.text import WHITESPACE, split_whitespace

#: RERANK-14: the snippet's cap, in code points (ALGORITHMS.md: "capped at 280 characters").
SNIPPET_MAX = 280
_WS = "".join(sorted(WHITESPACE))


def snippet(content: str) -> str:
    """RERANK-14: White_Space runs collapsed to one U+0020, trimmed, the first 280 code points."""
    return " ".join(split_whitespace(content))[:SNIPPET_MAX]


def rerank_text(title: str, summary: str, content: str) -> str:
    """RERANK-13: `title \\n summary`, else the title, else the summary, else the snippet;
    title and summary trimmed of White_Space (TEXT-4) at both ends."""
    t, s = title.strip(_WS), summary.strip(_WS)
    if t and s:
        return f"{t}\n{s}"
    return t or s or snippet(content)
