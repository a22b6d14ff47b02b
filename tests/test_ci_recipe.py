"""The CI recipe a porter copies (ports/ci/, issue 38 item 1): a plain shell script that installs
the pinned kit into a virtualenv of its own, builds the adapter and runs `hrc run --require …`
with JUnit out, and a GitHub Actions workflow that calls it. No release tag is needed anywhere:
the pin is a wheel file (or a git commit). The slow test runs the script from a folder outside
the kit against a fresh scaffold, with the wheel `hrc pin --wheel` builds."""

from __future__ import annotations

import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import yaml

from conformance import cli
from conformance.commands import init_port as scaffold
from conformance.reports.junit import file_attribute

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "ports" / "ci" / "hrc-conformance.sh"
WORKFLOW = ROOT / "ports" / "ci" / "github-actions.yml"


def test_the_workflow_calls_the_script_with_a_wheel_and_uploads_the_junit_file() -> None:
    workflow = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    steps = workflow["jobs"]["conformance"]["steps"]
    runs = " ".join(str(step.get("run", "")) for step in steps)
    assert "ci/hrc-conformance.sh" in runs and "HRC_PIN=" in runs and ".whl" in runs
    env = next(step["env"] for step in steps if "run" in step)
    assert env["HRC_REQUIRE"] == "all"
    uploaded = next(step for step in steps if "upload-artifact" in str(step.get("uses")))
    assert "junit.xml" in uploaded["with"]["path"]
    text = WORKFLOW.read_text(encoding="utf-8") + SCRIPT.read_text(encoding="utf-8")
    assert "git checkout v" not in text and "hybrid-retrieval-conformance==" not in text


def test_the_script_is_posix_sh_and_executable() -> None:
    assert os.access(SCRIPT, os.X_OK)
    assert SCRIPT.read_text(encoding="utf-8").startswith("#!/bin/sh\n")
    assert subprocess.run(["sh", "-n", str(SCRIPT)], check=False).returncode == 0


def test_junit_file_paths_are_from_the_working_directory(tmp_path: Path) -> None:
    """A case file under the working directory is relative to it; elsewhere it is absolute,
    never relative to the kit (which is not the porter's repository)."""
    from reference.data import kit_root

    inside = kit_root()
    assert file_attribute("golden/rrf/basics.yaml", inside) == "golden/rrf/basics.yaml"
    assert file_attribute("golden/rrf/basics.yaml", tmp_path) == (
        (kit_root() / "golden" / "rrf" / "basics.yaml").as_posix())
    assert file_attribute(str(tmp_path / "g" / "x.yaml"), tmp_path) == "g/x.yaml"


@pytest.mark.slow
def test_the_script_runs_a_scaffold_in_a_folder_outside_the_kit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["pin", "--wheel", str(tmp_path / "dist")]) == 0
    wheel = capsys.readouterr().out.splitlines()[0].removeprefix("pip install ")
    import zipfile

    with zipfile.ZipFile(wheel) as archive:
        assert "conformance/_kit/ports/ci/hrc-conformance.sh" in archive.namelist()
    port = tmp_path / "my-port"
    scaffold.init_port("python", port)
    assert not port.resolve().is_relative_to(ROOT)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HRC_", "VIRTUAL_ENV"))}
    env |= {"HRC_PIN": wheel, "HRC_REQUIRE": "op:length", "HRC_SELECT": "portability/length/",
            "PYTHON": sys.executable, "HRC_NO_CACHE": "1"}
    done = subprocess.run(["sh", str(SCRIPT)], cwd=port, env=env, capture_output=True,
                          text=True, check=False, timeout=600)
    assert done.returncode == 0, (done.stdout[-2000:], done.stderr[-2000:])
    assert "passed, 0 failed" in done.stdout
    suite = ET.parse(port / "hrc-out" / "junit.xml").getroot()
    cases = suite.findall(".//testcase")
    assert cases and all(c.find("failure") is None for c in cases)
    for case in cases:  # every file= resolves from the porter's repository
        assert (port / case.attrib["file"]).is_file(), case.attrib["file"]
    assert (port / "hrc-out" / "report.json").is_file()


def test_hrc_pin_ci_copies_the_recipe(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The recipe ships with the kit (the wheel force-includes ports/ci), so a porter with only
    the wheel gets it with `hrc pin --ci DIR`."""
    assert cli.main(["pin", "--ci", str(tmp_path / "ci")]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert printed[:2] == [str(tmp_path / "ci" / "hrc-conformance.sh"),
                           str(tmp_path / "ci" / "github-actions.yml")]
    assert (tmp_path / "ci" / "hrc-conformance.sh").read_bytes() == SCRIPT.read_bytes()
    assert os.access(tmp_path / "ci" / "hrc-conformance.sh", os.X_OK)
    assert (tmp_path / "ci" / "github-actions.yml").read_bytes() == WORKFLOW.read_bytes()
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    included = project["tool"]["hatch"]["build"]["targets"]["wheel"]["force-include"]
    assert included["ports/ci"] == "conformance/_kit/ports/ci"
