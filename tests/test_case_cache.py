"""The case cache (conformance/judging/case_cache.py): a cached load is the load the kit would do
now."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from conformance.judging import case_cache
from conformance.judging.cases import CaseFileError, case_files, load_all, load_file

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
             score: SCORE}
"""


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("HRC_CACHE_DIR", str(folder))
    monkeypatch.delenv("HRC_NO_CACHE", raising=False)
    return folder / "cases"


def _golden(tmp_path: Path, score: str = "0.01639344262295082") -> Path:
    root = tmp_path / "golden"
    (root / "rrf").mkdir(parents=True, exist_ok=True)
    (root / "rrf" / "one.yaml").write_text(CASE.replace("SCORE", score), encoding="utf-8")
    return root


def _dump(root: Path) -> list[str]:
    cases = load_all(case_files(root), root=root)
    return [json.dumps(c.to_json(), sort_keys=True) for c in cases]


def test_a_warm_load_of_the_shipped_suite_equals_a_cold_one(cache_dir: Path) -> None:
    cold = load_all()
    assert len(list(cache_dir.glob("*.json"))) == len(case_files())
    warm = load_all()
    assert warm == cold
    assert [json.dumps(c.to_json()) for c in warm] == [json.dumps(c.to_json()) for c in cold]


def test_an_edited_case_file_is_loaded_again(cache_dir: Path, tmp_path: Path) -> None:
    root = _golden(tmp_path)
    first = load_all(case_files(root), root=root)
    root = _golden(tmp_path, score="0.5")
    second = load_all(case_files(root), root=root)
    score = second[0].expect["output"]["results"][0]["score"]
    assert (first[0].expect != second[0].expect, score) == (True, 0.5)


def test_a_file_that_fails_to_load_is_never_stored(cache_dir: Path, tmp_path: Path) -> None:
    root = _golden(tmp_path, score="yes")  # YAML 1.1 boolean: refused by the lint
    for _ in range(2):
        with pytest.raises(CaseFileError, match="ambiguous YAML scalar"):
            load_all(case_files(root), root=root)
    assert not cache_dir.exists() or list(cache_dir.glob("*.json")) == []


def test_hrc_no_cache_reads_and_writes_nothing(
    cache_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HRC_NO_CACHE", "1")
    _dump(_golden(tmp_path))
    assert not cache_dir.exists()


def test_a_corrupt_entry_is_ignored_and_rewritten(cache_dir: Path, tmp_path: Path) -> None:
    root = _golden(tmp_path)
    want = _dump(root)
    (entry,) = cache_dir.glob("*.json")
    entry.write_text("{not json", encoding="utf-8")
    assert _dump(root) == want
    assert json.loads(entry.read_text(encoding="utf-8"))["cases"]


def test_an_entry_stored_under_another_key_is_not_used(cache_dir: Path, tmp_path: Path) -> None:
    root = _golden(tmp_path)
    want = _dump(root)
    (entry,) = cache_dir.glob("*.json")
    stored = json.loads(entry.read_text(encoding="utf-8"))
    stored["key"] = "0" * 64
    stored["cases"][0]["description"] = "a stale description"
    entry.write_text(json.dumps(stored), encoding="utf-8")
    assert _dump(root) == want


def test_a_changed_spec_folder_changes_every_key(tmp_path: Path) -> None:
    """The fingerprint covers the spec a file is checked against (its data tables, its
    profile chapters): another spec folder's content never shares an entry."""
    from reference.data import kit_root

    spec = tmp_path / "spec"
    shutil.copytree(kit_root() / "spec", spec)
    before = case_cache.entry_key("text", "a.yaml", "rrf", None, spec)
    (spec / "data" / "extra.json").write_text("{}", encoding="utf-8")
    case_cache.kit_fingerprint.cache_clear()
    try:
        after = case_cache.entry_key("text", "a.yaml", "rrf", None, spec)
    finally:
        case_cache.kit_fingerprint.cache_clear()
    assert before != after


def test_a_cached_case_keeps_its_file_and_line(cache_dir: Path, tmp_path: Path) -> None:
    root = _golden(tmp_path)
    path = root / "rrf" / "one.yaml"
    cold = load_file(path, root)
    warm = load_file(path, root)
    assert [(c.file, c.line) for c in warm] == [(c.file, c.line) for c in cold] == [
        (cold[0].file, 3)
    ]


def test_a_full_cache_loses_its_oldest_half_before_a_new_entry(
    cache_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(case_cache, "MAX_ENTRIES", 4)
    monkeypatch.setattr(case_cache, "_pruned", set())
    cache_dir.mkdir(parents=True)
    for i in range(4):
        old = cache_dir / f"old{i}.json"
        old.write_text("{}", encoding="utf-8")
        os.utime(old, (1_000_000 + i, 1_000_000 + i))  # old0 is the oldest
    _dump(_golden(tmp_path))
    assert sorted(p.name for p in cache_dir.glob("old*.json")) == ["old2.json", "old3.json"]
    assert len(list(cache_dir.glob("*.json"))) == 3
