"""Kit tests use a case cache of their own (conformance/judging/case_cache.py), never the user's."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True, scope="session")
def _private_case_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    before = os.environ.get("HRC_CACHE_DIR")
    os.environ["HRC_CACHE_DIR"] = str(tmp_path_factory.mktemp("hrc-cache"))
    yield
    if before is None:
        os.environ.pop("HRC_CACHE_DIR", None)
    else:
        os.environ["HRC_CACHE_DIR"] = before


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--gallery", action="store_true", default=False,
                     help="run the `gallery` tests (they install ports/wild/*/requirements.lock)")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Deselect (never skip) the `gallery` tests unless `--gallery` is given: they need PyPI
    and several minutes (ports/wild/README.md), so they are a separate job, not CI's."""
    if config.getoption("--gallery"):
        return
    chosen = [item for item in items if item.get_closest_marker("gallery") is None]
    dropped = [item for item in items if item.get_closest_marker("gallery") is not None]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = chosen
