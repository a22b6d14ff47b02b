"""README.md's test times come from a measurement in the repository (issue 38, item 3: the README
said "about 2 minutes" for `pytest -m "not slow"`, which took 7 to 8 on a 2-core box)."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import readme_test_times  # noqa: E402
from readme_markers import block  # noqa: E402


def test_readme_test_times_are_the_recorded_ones() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert block(readme, readme_test_times.BEGIN, readme_test_times.END) == (
        readme_test_times.current()), "stale: python tools/readme_test_times.py --write"


def test_no_other_time_for_the_tests_is_claimed_in_prose() -> None:
    """Outside the generated block, README and CONTRIBUTING state no minutes for the tests."""
    for name in ("README.md", "CONTRIBUTING.md"):
        text = (ROOT / name).read_text(encoding="utf-8")
        if readme_test_times.BEGIN in text:
            start = text.index(readme_test_times.BEGIN)
            text = text[:start] + text[text.index(readme_test_times.END):]
        assert not re.search(r"about \d+( to \d+)? minutes", text), name


def test_a_recorded_run_becomes_the_sentence(tmp_path: Path) -> None:
    target = tmp_path / "times.json"
    readme_test_times.record_run(target, wall_s=600.0, slow_s=240.0, not_slow_s=330.0,
                                 counts={"slow": 10, "not_slow": 90}, args=[], exit_status=0)
    readme_test_times.record_run(target, wall_s=300.0, slow_s=0.0, not_slow_s=290.0,
                                 counts={"slow": 0, "not_slow": 90}, args=["-m", "not slow"],
                                 exit_status=0)
    runs = json.loads(target.read_text(encoding="utf-8"))
    assert [r["selection"] for r in runs] == ["all", "not slow"]
    text = readme_test_times.sentence(runs)
    assert "took 10.0 min on" in text and "4.0 min of it in the `slow` groups" in text
    assert "run alone it took 5.0 min" in text
