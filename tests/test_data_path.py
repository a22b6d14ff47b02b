"""`hrc data-path` and what `pip install .` ships: spec/data, the goldens and the scaffolds.

The wheel is built and installed for real (no editable install, no repository on the path),
then the installed `hrc` prints its data directory, writes a scaffold and runs it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conformance import cli
from conformance.judging.cases import load_all
from conformance.judging.datafiles import kit_hashes
from reference.data import kit_root

ROOT = Path(__file__).resolve().parent.parent


def test_data_path_prints_the_kit_data_directory(capsys: pytest.CaptureFixture[str]) -> None:
    """PROTO-28 The printed directory holds the files whose hashes the data check compares."""
    assert cli.main(["data-path"]) == 0
    printed = capsys.readouterr().out
    assert printed == f"{kit_root() / 'spec' / 'data'}\n"
    assert (Path(printed.strip()) / "intent-anchor.json").is_file()


def test_data_path_json_names_versions_and_hashes(capsys: pytest.CaptureFixture[str]) -> None:
    from reference import SPEC_VERSION

    assert cli.main(["data-path", "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["specVersion"] == SPEC_VERSION
    assert info["files"] == kit_hashes(Path(info["data"]))
    assert "stopwords-anchor.json" in info["files"]
    assert Path(info["golden"]).is_dir() and Path(info["spec"]).is_dir()


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A non-editable install of this checkout into a fresh directory (`pip install --target`)."""
    work = tmp_path_factory.mktemp("wheel")
    wheels, target = work / "dist", work / "site"
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]
    subprocess.run(
        [*pip, "wheel", "--no-deps", "--no-build-isolation", "-w", str(wheels), str(ROOT)],
        check=True, timeout=600,
    )
    (wheel,) = wheels.glob("*.whl")
    subprocess.run(
        [*pip, "install", "--no-deps", "--no-index", "--target", str(target), str(wheel)],
        check=True, timeout=600,
    )
    return target


def _hrc(site: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(site)}
    return subprocess.run(
        [sys.executable, "-m", "conformance.cli", *args],
        cwd=cwd, env=env, capture_output=True, text=True, timeout=600, check=False,
    )


@pytest.mark.slow
def test_installed_kit_reports_its_own_data(installed: Path, tmp_path: Path) -> None:
    """From a wheel install, data-path points inside the install, with every data file."""
    done = _hrc(installed, tmp_path, "data-path")
    assert done.returncode == 0, done.stderr
    data = Path(done.stdout.strip())
    assert data == installed / "conformance" / "_kit" / "spec" / "data"
    assert kit_hashes(data) == kit_hashes(ROOT / "spec" / "data")


@pytest.mark.slow
def test_installed_kit_writes_and_runs_a_scaffold(installed: Path, tmp_path: Path) -> None:
    """TEXT-8 The README's three commands work from a wheel: init-port, then run."""
    done = _hrc(installed, tmp_path, "init-port", "python", "my-port")
    assert done.returncode == 0, done.stderr
    assert os.access(tmp_path / "my-port" / "adapter", os.X_OK)
    done = _hrc(installed, tmp_path, "run", "--adapter", "my-port/adapter",
                "--select", "portability/length/")
    assert done.returncode == 0, done.stdout + done.stderr
    lengths = sum(1 for case in load_all() if case.op == "length")
    assert done.stdout.rstrip().splitlines()[-1] == f"hrc: {lengths} passed, 0 failed, 0 skipped"
