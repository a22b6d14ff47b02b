"""FANOUT-25, INTENT-14: fanout_texts and intent_detect bound their query (and base) at 4096
code points as given, like PIPE-14 (issue 39, item 7: 16k code points took 5.6 s)."""

from __future__ import annotations

import signal

import pytest

from conformance import cli
from conformance.adapters.ops import registry
from reference.types import InvalidInput

ASTRAL = "\U0001d400"


@pytest.mark.parametrize("op", ["fanout_texts", "intent_detect"])
def test_the_bound_counts_code_points_of_the_string_as_given(op: str) -> None:
    run = registry()[op]
    run({"query": ASTRAL * 4096})  # 8192 UTF-16 units: accepted
    for query in ("a" * 4097, "tea" + " " * 4094):
        with pytest.raises(InvalidInput, match="4096"):
            run({"query": query})


def test_the_fanout_base_is_bounded_too() -> None:
    with pytest.raises(InvalidInput, match="base"):
        registry()["fanout_texts"]({"query": "tea", "base": "a" * 4097})


def test_main_puts_the_callers_signal_handlers_back() -> None:
    """PROTO-51's handlers live only while `hrc` runs: an in-process caller keeps its own."""
    before = signal.getsignal(signal.SIGTERM)
    cli.main(["list", "--select", "rrf/"])
    assert signal.getsignal(signal.SIGTERM) is before
