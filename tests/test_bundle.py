"""`hrc bundle`: every case in one JSON file with the spec version and content hashes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fake_adapters.support import IDS, write_tiny_golden

from conformance import cli
from conformance.commands.bundle import case_hash
from conformance.judging.cases import case_files, load_all
from reference import SPEC_VERSION


def _bundle(golden: Path, out: Path) -> dict[str, object]:
    assert cli.main(["bundle", "--golden", str(golden), "-o", str(out)]) == 0
    data: dict[str, object] = json.loads(out.read_text(encoding="utf-8"))
    return data


def test_bundle_holds_every_case_with_spec_version(tmp_path: Path) -> None:
    """The bundle lists every case, flattened, with the spec version."""
    data = _bundle(write_tiny_golden(tmp_path), tmp_path / "golden.json")
    assert data["specVersion"] == SPEC_VERSION
    cases = data["cases"]
    assert isinstance(cases, list)
    assert [c["id"] for c in cases] == IDS
    first = cases[0]
    assert first["op"] == "length" and first["stage"] == "lengths"
    assert first["expect"] == {"output": {"length": 3}}
    assert first["hash"].startswith("sha256:") and len(first["hash"]) == 71


def test_hash_changes_with_the_expectation_only(tmp_path: Path) -> None:
    """The hash covers input and expect, not the description."""
    golden = write_tiny_golden(tmp_path)
    before = {c.id: case_hash(c) for c in load_all(case_files(golden))}
    path = golden / "lengths" / "length.yaml"
    text = path.read_text(encoding="utf-8")
    text = text.replace("Three ASCII letters", "3 ASCII letters")
    text = text.replace("output: {length: 3}\n  - id: tiny/length/astral",
                        "output: {length: 4}\n  - id: tiny/length/astral")
    path.write_text(text, encoding="utf-8")
    after = {c.id: case_hash(c) for c in load_all(case_files(golden))}
    changed = sorted(k for k in before if before[k] != after[k])
    assert changed == ["tiny/length/ascii"]
    assert before["tiny/length/astral"] == after["tiny/length/astral"]


def test_bundle_can_go_to_stdout(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`-o -` writes the bundle to stdout."""
    assert cli.main(["bundle", "--golden", str(write_tiny_golden(tmp_path)), "-o", "-"]) == 0
    assert json.loads(capsys.readouterr().out)["caseCount"] == 6
