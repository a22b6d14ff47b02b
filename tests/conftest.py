"""Kit tests use a case cache of their own (conformance/case_cache.py), never the user's."""

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
