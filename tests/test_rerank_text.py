"""What a reranker is shown (spec/rerank.md RERANK-13..RERANK-15)."""

from __future__ import annotations

import pytest

from conformance.adapters.ops import registry
from reference.rerank_text import SNIPPET_MAX, rerank_text, snippet
from reference.types import InvalidInput

OPS = registry()


def test_composition_order() -> None:
    """RERANK-13: title LF summary, else title, else summary, else the snippet."""
    assert rerank_text("T", "S", "C") == "T\nS"
    assert rerank_text("T", "", "C") == "T"
    assert rerank_text("", "S", "C") == "S"
    assert rerank_text("", "", "C") == "C"
    assert rerank_text("\u2003", "\t", "") == ""


def test_trim_keeps_inner_white_space() -> None:
    """RERANK-13: only the ends of title and summary are trimmed (White_Space, TEXT-4)."""
    assert rerank_text("\u00a0a  b\u3000", "", "") == "a  b"
    assert rerank_text("\u200ba", "", "") == "\u200ba"  # U+200B is not White_Space


@pytest.mark.parametrize("n", [0, 1, 279, 280, 281, 1000])
def test_snippet_length_in_code_points(n: int) -> None:
    """RERANK-14: at most 280 code points, a prefix of the collapsed content, nothing added."""
    content = "\U0001d41c" * n
    out = snippet(content)
    assert len(out) == min(n, SNIPPET_MAX) and content.startswith(out)


def test_snippet_collapses_before_cutting() -> None:
    """RERANK-14: white-space runs become one space and the ends are trimmed, then the cut."""
    assert snippet(" a\n\n b\u2028c ") == "a b c"
    assert snippet("x " * 200) == ("x " * 140)[:SNIPPET_MAX]


def test_operation_validates_fields() -> None:
    """RERANK-15: absent or null fields are ""; a non-string field is invalid_input."""
    assert OPS["rerank_text"]({"title": None, "summary": "S"}) == {"text": "S"}
    with pytest.raises(InvalidInput):
        OPS["rerank_text"]({"content": ["a"]})
