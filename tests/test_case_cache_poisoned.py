"""A poisoned case cache only ever costs time (issue 29, item 3): every entry is bound to the
exact case-file text and its own content digest, read only as a bounded regular file and
validated, so each poisoning below is a miss that re-parses the file and rewrites the entry."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from conformance.judging import case_cache, cases
from conformance.judging.cases import case_files, load_all

POSIX = pytest.mark.skipif(os.name != "posix", reason="POSIX files")

CASE = """\
op: rrf
cases:
  - id: cache/rrf/top-item
    description: The top item of one list scores 1/61.
    clauses: [RRF-2]
    input: {lists: [{items: [{id: a, path: a.md}]}]}
    expect:
      output:
        results:
          - {id: a, path: a.md, title: "", summary: "", content: "", metadata: {},
             score: 0.01639344262295082}
"""


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("HRC_CACHE_DIR", str(folder))
    monkeypatch.delenv("HRC_NO_CACHE", raising=False)
    return folder / "cases"


@pytest.fixture
def golden(tmp_path: Path) -> Path:
    root = tmp_path / "golden"
    (root / "rrf").mkdir(parents=True)
    (root / "rrf" / "one.yaml").write_text(CASE, encoding="utf-8")
    return root


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The files parsed from YAML (a cache hit parses nothing)."""
    seen: list[str] = []
    real = cases.load_text

    def counting(text: str, rel: str, *args: Any, **kwargs: Any) -> Any:
        seen.append(rel)
        return real(text, rel, *args, **kwargs)

    monkeypatch.setattr(cases, "load_text", counting)
    return seen


def _dump(root: Path) -> list[str]:
    return [json.dumps(c.to_json(), sort_keys=True) for c in load_all(case_files(root), root=root)]


def _entry(cache_dir: Path) -> Path:
    (entry,) = cache_dir.glob("*.json")
    return entry


def _rewrite(entry: Path, edit: Callable[[dict[str, Any]], None]) -> None:
    stored = json.loads(entry.read_text(encoding="utf-8"))
    edit(stored)
    entry.write_text(json.dumps(stored), encoding="utf-8")


def _scores(root: Path) -> list[Any]:
    loaded = load_all(case_files(root), root=root)
    return [c.expect["output"]["results"][0]["score"] for c in loaded]


def test_an_intact_entry_is_a_hit(cache_dir: Path, golden: Path, parses: list[str]) -> None:
    want = _dump(golden)
    assert _dump(golden) == want
    assert len(parses) == 1  # the second load read the entry


def test_an_edited_expected_output_is_a_miss(
    cache_dir: Path, golden: Path, parses: list[str]
) -> None:
    _dump(golden)
    entry = _entry(cache_dir)
    _rewrite(entry, lambda s: s["cases"][0]["expect"]["output"]["results"][0].update(score=0.5))
    assert _scores(golden) == [0.01639344262295082]
    assert len(parses) == 2
    assert _scores(golden) == [0.01639344262295082] and len(parses) == 2  # rewritten: a hit


def test_emptied_cases_are_a_miss_even_with_a_matching_digest(
    cache_dir: Path, golden: Path, parses: list[str]
) -> None:
    want = _dump(golden)

    def empty(stored: dict[str, Any]) -> None:
        stored["cases"] = []
        stored["digest"] = case_cache.cases_digest([])

    _rewrite(_entry(cache_dir), empty)
    assert _dump(golden) == want
    assert len(parses) == 2


def test_an_entry_for_other_text_is_a_miss(
    cache_dir: Path, golden: Path, parses: list[str]
) -> None:
    want = _dump(golden)
    _rewrite(_entry(cache_dir), lambda s: s.update(text="0" * 64))
    assert _dump(golden) == want
    assert len(parses) == 2


def test_records_of_another_file_are_a_miss_even_with_a_matching_digest(
    cache_dir: Path, golden: Path, parses: list[str]
) -> None:
    want = _dump(golden)

    def move(stored: dict[str, Any]) -> None:
        stored["cases"][0]["file"] = "golden/rrf/other.yaml"
        stored["digest"] = case_cache.cases_digest(stored["cases"])

    _rewrite(_entry(cache_dir), move)
    assert _dump(golden) == want
    assert len(parses) == 2


@pytest.mark.parametrize(
    "text",
    [
        "{not json",
        "[]",
        '{"format": 2}',
        "[" * 100_000 + "]" * 100_000,
        '{"format": 2, "key": NaN}',
        "\udcff",
    ],
    ids=["not-json", "not-an-object", "fields-missing", "deep-nesting", "nan", "not-utf8"],
)
def test_a_malformed_entry_is_a_miss_without_a_traceback(
    cache_dir: Path, golden: Path, parses: list[str], text: str
) -> None:
    want = _dump(golden)
    _entry(cache_dir).write_bytes(text.encode("utf-8", "surrogateescape"))
    assert _dump(golden) == want
    assert len(parses) == 2


def test_a_record_of_the_wrong_shape_is_a_miss(
    cache_dir: Path, golden: Path, parses: list[str]
) -> None:
    want = _dump(golden)

    def break_line(stored: dict[str, Any]) -> None:
        stored["cases"][0]["line"] = "3"
        stored["digest"] = case_cache.cases_digest(stored["cases"])

    _rewrite(_entry(cache_dir), break_line)
    assert _dump(golden) == want
    assert len(parses) == 2


def test_an_oversized_entry_is_not_read(
    cache_dir: Path, golden: Path, parses: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    want = _dump(golden)
    size = _entry(cache_dir).stat().st_size
    monkeypatch.setattr(case_cache, "MAX_ENTRY_BYTES", size - 1)
    assert _dump(golden) == want
    assert len(parses) == 2


def _load_in_child(root: Path, cache: Path) -> subprocess.CompletedProcess[str]:
    """Load `root` in a child process with a deadline: a hang or a memory blow-up ends it."""
    code = (
        "import sys; from pathlib import Path; from conformance.judging.cases import case_files, "
        "load_all; root = Path(sys.argv[1]); print(len(load_all(case_files(root), root=root)))"
    )
    env = {**os.environ, "HRC_CACHE_DIR": str(cache)}
    env.pop("HRC_NO_CACHE", None)
    return subprocess.run(
        [sys.executable, "-c", code, str(root)],
        capture_output=True, text=True, timeout=60, env=env, check=False,
    )


@POSIX
def test_a_fifo_entry_does_not_hang_the_run(cache_dir: Path, golden: Path) -> None:
    _dump(golden)
    entry = _entry(cache_dir)
    entry.unlink()
    os.mkfifo(entry)
    done = _load_in_child(golden, cache_dir.parent)
    assert (done.returncode, done.stdout.strip(), done.stderr) == (0, "1", "")
    assert entry.is_file() and not entry.is_symlink()  # replaced by a real entry


@POSIX
def test_a_link_to_dev_zero_is_not_followed(cache_dir: Path, golden: Path) -> None:
    _dump(golden)
    entry = _entry(cache_dir)
    entry.unlink()
    entry.symlink_to("/dev/zero")
    done = _load_in_child(golden, cache_dir.parent)
    assert (done.returncode, done.stdout.strip(), done.stderr) == (0, "1", "")
    assert not entry.is_symlink()


def test_a_link_to_a_valid_entry_elsewhere_is_not_followed(
    cache_dir: Path, golden: Path, parses: list[str], tmp_path: Path
) -> None:
    want = _dump(golden)
    entry = _entry(cache_dir)
    outside = tmp_path / "outside.json"
    entry.rename(outside)
    entry.symlink_to(outside)
    assert _dump(golden) == want
    assert len(parses) == 2
    assert not entry.is_symlink()
