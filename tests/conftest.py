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


# The kit's own test times (issue 38, item 3): `HRC_TEST_TIMES=benchmarks/results/test-times.json
# pytest` records this run (wall time, time in `slow` tests and in the others, the machine and
# its load) into that file; `python tools/readme_test_times.py --write` puts the numbers into
# README.md, and tests/test_readme_test_times.py fails when the README says something else.
_TIMES: dict[str, float] = {"slow": 0.0, "not_slow": 0.0}
_COUNTS: dict[str, int] = {"slow": 0, "not_slow": 0}
_STARTED: list[float] = []


def pytest_sessionstart(session: pytest.Session) -> None:
    import time

    _STARTED.append(time.monotonic())


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if not os.environ.get("HRC_TEST_TIMES"):
        return
    group = "slow" if "slow" in report.keywords else "not_slow"
    _TIMES[group] += report.duration
    if report.when == "call":
        _COUNTS[group] += 1


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    target = os.environ.get("HRC_TEST_TIMES")
    if not target or not _STARTED:
        return
    import time

    from tools.readme_test_times import record_run

    record_run(
        target,
        wall_s=time.monotonic() - _STARTED[0],
        slow_s=_TIMES["slow"],
        not_slow_s=_TIMES["not_slow"],
        counts=dict(_COUNTS),
        args=list(session.config.invocation_params.args),
        exit_status=int(exitstatus),
    )
