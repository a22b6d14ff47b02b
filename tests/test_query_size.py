"""PIPE-14: a query holds at most 4096 code points (issue 29, item 10)."""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.cli import main
from reference.request import MAX_QUERY_CODE_POINTS, parse_request
from reference.types import InvalidInput

ROOT = Path(__file__).resolve().parent.parent


def test_pipe_14_the_bound_is_4096_code_points() -> None:
    assert MAX_QUERY_CODE_POINTS == 4096
    assert parse_request({"query": "a" * 4096}).query == "a" * 4096
    with pytest.raises(InvalidInput, match="4097 code points, more than 4096"):
        parse_request({"query": "a" * 4097})


def test_pipe_14_counts_code_points_not_utf16_units_or_bytes() -> None:
    astral = "\U0001d400" * 4096  # 8192 UTF-16 units, 16384 UTF-8 bytes
    assert parse_request({"query": astral}).query == astral
    with pytest.raises(InvalidInput, match="PIPE-14"):
        parse_request({"query": astral + "a"})


def test_pipe_14_is_checked_before_normalisation() -> None:
    """Whitespace counts: the bound is on the string as given, so it costs nothing to check."""
    with pytest.raises(InvalidInput, match="PIPE-14"):
        parse_request({"query": "a" + " " * 4096})


def test_pipe_14_a_megabyte_query_is_refused_at_once_by_hrc_search(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "demo.db"
    assert main(["index", str(ROOT / "corpus" / "demo"), "--db", str(db)]) == 0
    capsys.readouterr()
    query = "kubernetes " * 85_000  # about 935 KB: minutes of searching before the bound
    assert main(["search", query, "--db", str(db)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "more than 4096 (PIPE-14)" in err
