"""The pattern-driven parsers stay near-linear in their input (issue 29, item 1).

Each test compares two input sizes as a ratio (tests/growth.py), so a quadratic step fails
on any machine while a slow machine alone does not.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from reference.intent import detect
from reference.profiles.engram.dates import query_signal
from reference.profiles.engram.table import classify as engram_classify
from reference.profiles.gbrain.links import extract_links, strip_code
from reference.profiles.gbrain.routing import classify as gbrain_classify
from reference.profiles.temporal.expand import expand
from tests.growth import assert_linear


def _repeat(fn: Callable[[str], object], unit: str) -> Callable[[int], Callable[[], object]]:
    return lambda n: (lambda text=unit * n: fn(text))


@pytest.mark.parametrize(
    "unit",
    ["[[a]] ", "[x](a) ", "[[a]]. founded ", "[a](b) worked at [[c|d]] "],
    ids=["wikilinks", "markdown-links", "sentences", "mixed"],
)
def test_link_extraction_is_linear_in_links_per_line(unit: str) -> None:
    # One line, so every link shares a sentence window (GBRAIN-8): 16 KB took 3.9 s before.
    assert_linear(_repeat(lambda s: extract_links("p.md", s), unit), 1500 // len(unit) * 6, unit)


def test_code_stripping_is_linear_in_backticks_cut_by_line_ends() -> None:
    # Each backtick whose next backtick lies past a line end stays (GBRAIN-4); the search for
    # that next backtick must not rescan the text, so the sizes differ 16-fold.
    def make(n: int) -> Callable[[], object]:
        text = "[a] " + "`\n" * (n // 2)
        return lambda: strip_code(text)

    assert_linear(make, 4000, "unclosed backtick runs", factor=16)


@pytest.mark.parametrize(
    ("name", "fn"),
    [
        ("intent", lambda s: detect(s)),
        ("intent hrc-1.0", lambda s: detect(s, "hrc-1.0")),
        ("temporal", lambda s: expand(s, "2026-03-01")),
        ("engram classes", engram_classify),
        ("engram dates", query_signal),
        ("gbrain routing", gbrain_classify),
    ],
)
@pytest.mark.parametrize(
    "unit", ["3 days ago ", "last monday ", "2026-01-01 ", "did i bought ", "1 ", "  "]
)
def test_query_parsers_are_linear_in_query_length(
    name: str, fn: Callable[[str], object], unit: str
) -> None:
    assert_linear(_repeat(fn, unit), 12000 // len(unit), f"{name} on {unit!r}")
