"""The data check: a port that loaded empty, stale or unknown spec/data is visible.

The hello reports `dataFiles` (PROTO-28); stale or unknown files fail the run (PROTO-29);
no report at all is a warning (PROTO-30). The kit's side is every spec/data/**/*.json.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from fake_adapters.support import FAST, fake, write_tiny_golden

from conformance import cli
from conformance.adapters.adapter_reference import hello_message
from conformance.adapters.ops import registry
from conformance.judging import datafiles
from conformance.judging.cases import case_files, load_all
from conformance.running.results import RunResult
from conformance.running.runner import run_suite
from reference import data
from reference.data import kit_root

DATA = kit_root() / "spec" / "data"


def _sha(raw: bytes) -> str:
    return hashlib.sha256(raw).hexdigest()


def test_kit_hashes_cover_every_json_file_under_spec_data_by_relative_name(
    tmp_path: Path,
) -> None:
    """PROTO-28 Names are relative to spec/data with '/' separators; nothing is hard-coded."""
    (tmp_path / "profiles" / "x").mkdir(parents=True)
    (tmp_path / "a.json").write_bytes(b"[]")
    (tmp_path / "profiles" / "x" / "b.json").write_bytes(b"{}")
    (tmp_path / "notes.txt").write_bytes(b"ignored")
    assert datafiles.kit_hashes(tmp_path) == {
        "a.json": _sha(b"[]"),
        "profiles/x/b.json": _sha(b"{}"),
    }
    assert set(datafiles.kit_hashes(DATA)) == {
        p.relative_to(DATA).as_posix() for p in DATA.rglob("*.json")
    }


def test_check_gives_each_file_a_verdict() -> None:
    """PROTO-29 stale and unknown fail; a kit file the port did not load is listed only."""
    kit = {"a.json": "1" * 64, "b.json": "2" * 64, "c.json": "3" * 64}
    check = datafiles.check({"a.json": "1" * 64, "b.json": "9" * 64, "old.json": "4" * 64}, kit)
    assert check.status == "failed" and check.failed
    assert {f.name: f.status for f in check.files} == {
        "a.json": "ok",
        "b.json": "stale",
        "c.json": "not_loaded",
        "old.json": "unknown",
    }
    assert check.summary() == "failed: 1 stale, 1 unknown, 1 not loaded, 1 matching the kit"
    assert datafiles.check({"a.json": "1" * 64}, kit).status == "ok"
    assert datafiles.check(None, kit).status == "unreported"


def test_reference_hello_reports_the_bytes_the_reference_parsed() -> None:
    """PROTO-28 The reference loads every data file through reference.data and hashes it."""
    hello = hello_message(registry())
    expected = {
        p.relative_to(DATA).as_posix(): _sha(p.read_bytes()) for p in DATA.rglob("*.json")
    }
    assert hello["dataFiles"] == expected
    assert data.loaded_files() == expected
    assert "rrf-weights" in hello["capabilities"]


def _run(tmp_path: Path, mode: str) -> RunResult:
    cases = load_all(case_files(write_tiny_golden(tmp_path)))
    return run_suite(cases, fake("data_files", mode), FAST)


def test_matching_hashes_pass(tmp_path: Path) -> None:
    """PROTO-29 A port that loaded the kit's bytes passes the data check."""
    run = _run(tmp_path, "match")
    assert run.data_check is not None and run.data_check.status == "ok"
    assert run.ok


def test_a_port_that_loaded_only_some_files_is_not_failed(tmp_path: Path) -> None:
    """PROTO-29 `not_loaded` is listed, not failed: the port may not implement the ops."""
    run = _run(tmp_path, "partial")
    assert run.data_check is not None and run.data_check.status == "ok"
    statuses = {f.status for f in run.data_check.files}
    assert statuses == {"ok", "not_loaded"} or len(run.data_check.files) == 1
    assert run.ok


@pytest.mark.parametrize(("mode", "status"), [("stale", "stale"), ("empty", "stale"),
                                              ("unknown", "unknown")])
def test_stale_empty_or_unknown_data_fails_the_run_though_every_case_passed(
    tmp_path: Path, mode: str, status: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """PROTO-29 PROTO-25 PROTO-24 Exit 1; text, footer, JSON report and matrix say why."""
    golden = write_tiny_golden(tmp_path)
    report = tmp_path / "r.json"
    code = cli.main(["run", "--golden", str(golden), "--adapter",
                     " ".join(fake("data_files", mode)), "--report-json", str(report)])
    out = capsys.readouterr().out
    assert code == 1
    assert "DATA CHECK FAILED" in out
    assert f": {status}" in out
    assert out.rstrip().splitlines()[-1] == "hrc: 6 passed, 1 failed, 0 skipped"
    document = json.loads(report.read_text(encoding="utf-8"))
    assert document["summary"]["ok"] is False
    assert document["summary"]["footer"] == "hrc: 6 passed, 1 failed, 0 skipped"
    assert document["dataCheck"]["status"] == "failed"
    assert [f["status"] for f in document["dataCheck"]["files"]].count(status) == 1
    assert cli.main(["report", str(report), "--markdown"]) == 0
    assert "| FAILED (1) |" in capsys.readouterr().out


def test_junit_shows_a_failed_data_check_as_a_failing_testcase(tmp_path: Path) -> None:
    """PROTO-29 A CI dashboard reading JUnit is red when the data check failed."""
    import xml.etree.ElementTree as ET

    golden = write_tiny_golden(tmp_path)
    path = tmp_path / "junit.xml"
    assert cli.main(["run", "--quiet", "--golden", str(golden), "--adapter",
                     " ".join(fake("data_files", "stale")), "--junit", str(path)]) == 1
    suite = ET.parse(path).getroot().find("testsuite")
    assert suite is not None
    assert (suite.get("tests"), suite.get("failures")) == ("7", "1")
    failure = suite.find("testcase[@name='hrc-data-files']/failure")
    assert failure is not None and "stale" in (failure.text or "")
    prop = suite.find("properties/property[@name='dataCheck']")
    assert prop is not None and prop.get("value") == "failed"


def test_no_data_files_is_a_warning_not_a_failure(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """PROTO-30 A protocol-1 hello without dataFiles still runs; the report warns."""
    golden = write_tiny_golden(tmp_path)
    report = tmp_path / "r.json"
    code = cli.main(["run", "--golden", str(golden), "--adapter",
                     " ".join(fake("data_files", "missing")), "--report-json", str(report)])
    out = capsys.readouterr().out
    assert code == 0
    assert "warning: adapter hello reports no dataFiles (PROTO-30)" in out
    document = json.loads(report.read_text(encoding="utf-8"))
    assert document["dataCheck"] == {"status": "unreported", "files": []}
    assert document["summary"]["ok"] is True


def test_hello_schema_rejects_malformed_data_files() -> None:
    """PROTO-28 Names are relative without '..'; hashes are 64 lowercase hex digits."""
    from conformance.adapters.protocol import decode_from_adapter
    from conformance.common.strict_json import ProtocolError

    base = {"type": "hello", "protocol": 1, "name": "x", "version": "1", "specVersion": "2.0.0",
            "operations": [], "capabilities": []}
    good = dict(base, dataFiles={"profiles/x/a.json": "a" * 64})
    decode_from_adapter(json.dumps(good).encode())
    for bad in ({"../a.json": "a" * 64}, {"/a.json": "a" * 64}, {"a.json": "A" * 64},
                {"a.json": "a" * 63}):
        with pytest.raises(ProtocolError):
            decode_from_adapter(json.dumps(dict(base, dataFiles=bad)).encode())
