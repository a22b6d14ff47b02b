"""pytest plugin: `pytest --hrc-adapter "CMD"` runs each golden case as a test item."""

from __future__ import annotations

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("hrc", "hybrid-retrieval conformance")
    group.addoption(
        "--hrc-adapter",
        action="store",
        default=None,
        help="command line of the port's adapter; golden cases become test items",
    )
