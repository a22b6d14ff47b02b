"""PROTO-52: a forged cache entry cannot pass a liar (issue 39, item 5). Every binding of
an entry was a hash of public inputs, so whoever could write the folder could write an entry
that verified; now each entry carries an HMAC under a key kept outside the folder."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

import pytest

from conformance.judging import case_cache, cases
from conformance.judging.cases import case_files, load_all

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
TRUE_SCORE = 0.01639344262295082


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("HRC_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("HRC_CACHE_KEY", str(tmp_path / "config" / "cache-key"))
    monkeypatch.delenv("HRC_NO_CACHE", raising=False)
    getattr(case_cache, "_secrets", {}).clear()
    return tmp_path / "cache" / "cases"


@pytest.fixture
def golden(tmp_path: Path) -> Path:
    root = tmp_path / "golden"
    (root / "rrf").mkdir(parents=True)
    (root / "rrf" / "one.yaml").write_text(CASE, encoding="utf-8")
    return root


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    seen: list[str] = []
    real = cases.load_text

    def counting(text: str, rel: str, *args: Any, **kwargs: Any) -> Any:
        seen.append(rel)
        return real(text, rel, *args, **kwargs)

    monkeypatch.setattr(cases, "load_text", counting)
    return seen


def _scores(root: Path) -> list[float]:
    loaded = load_all(case_files(root), root=root)
    return [c.expect["output"]["results"][0]["score"] for c in loaded]  # type: ignore[index]


def _forge(entry: Path) -> None:
    """What an attacker who can write the folder can compute: every public binding of an
    entry whose expected score is a lie (a liar port answering 0.5 would then pass)."""
    stored = json.loads(entry.read_text(encoding="utf-8"))
    stored["cases"][0]["expect"]["output"]["results"][0]["score"] = 0.5
    stored["digest"] = case_cache.cases_digest(stored["cases"])
    entry.write_text(json.dumps(stored), encoding="utf-8")


def test_an_entry_forged_with_every_public_binding_is_a_miss(
    cache_dir: Path, golden: Path, parses: list[str]
) -> None:
    assert _scores(golden) == [TRUE_SCORE]
    (entry,) = cache_dir.glob("*.json")
    _forge(entry)
    assert _scores(golden) == [TRUE_SCORE]  # before: [0.5], the forged expectation
    assert len(parses) == 2
    assert _scores(golden) == [TRUE_SCORE] and len(parses) == 2  # rewritten, signed: a hit


def test_the_key_is_created_0600_outside_the_folder(cache_dir: Path, golden: Path) -> None:
    _scores(golden)
    key = Path(os.environ["HRC_CACHE_KEY"])
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    assert len(key.read_bytes()) == case_cache.KEY_BYTES
    assert cache_dir not in key.parents


@pytest.mark.parametrize("how", ["group-readable", "inside-the-folder", "link"])
def test_a_key_that_cannot_be_trusted_turns_the_cache_off(
    cache_dir: Path, golden: Path, parses: list[str], monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path, how: str,
) -> None:
    key = Path(os.environ["HRC_CACHE_KEY"])
    key.parent.mkdir(parents=True)
    key.write_bytes(b"k" * case_cache.KEY_BYTES)
    if how == "group-readable":
        key.chmod(0o640)
    elif how == "inside-the-folder":
        inside = cache_dir / "cache-key"
        monkeypatch.setenv("HRC_CACHE_KEY", str(inside))
    else:
        key.chmod(0o600)
        link = tmp_path / "link-key"
        link.symlink_to(key)
        monkeypatch.setenv("HRC_CACHE_KEY", str(link))
    for _ in range(2):
        assert _scores(golden) == [TRUE_SCORE]
    assert len(parses) == 2  # no hit: every load parses
    assert not list(cache_dir.glob("*.json"))
