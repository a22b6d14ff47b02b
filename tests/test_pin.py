"""The kit's version is the spec's, from one place, and `hrc pin` prints an install that works.

The kit is on no package index: `pip install hybrid-retrieval-conformance==X` cannot work, so
no document may tell a porter to run it; `hrc pin` names the clone, file or revision instead.
"""

from __future__ import annotations

import re
import tomllib
import zipfile
from pathlib import Path
from typing import Any

import pytest

import conformance
import reference
from conformance import cli
from conformance.commands import init_port as scaffold
from conformance.commands import pin
from conformance.common.version import kit_version

ROOT = Path(__file__).resolve().parent.parent


def test_the_package_version_is_the_spec_version_from_one_line() -> None:
    """pyproject.toml reads the version from SPEC_VERSION; every other version is that one."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in project["project"] and project["project"]["dynamic"] == ["version"]
    source = project["tool"]["hatch"]["version"]
    text = (ROOT / source["path"]).read_text(encoding="utf-8")
    found = re.findall(source["pattern"], text)
    assert found == [reference.SPEC_VERSION]
    assert conformance.__version__ == reference.__version__ == kit_version() == found[0]
    spec_readme = (ROOT / "spec" / "README.md").read_text(encoding="utf-8")
    assert f"Spec version **{found[0]}**" in spec_readme
    assert pin.tag(found[0]) == f"v{found[0]}"


@pytest.mark.parametrize(
    ("direct_url", "expected"),
    [
        ({"url": "file:///src/hrc", "dir_info": {"editable": True}}, "pip install /src/hrc"),
        ({"url": "file:///w/my%20dist/hybrid_retrieval_conformance-2.2.0-py3-none-any.whl",
          "archive_info": {}},
         "pip install '/w/my dist/hybrid_retrieval_conformance-2.2.0-py3-none-any.whl'"),
        ({"url": "https://git.example/hrc.git",
          "vcs_info": {"vcs": "git", "requested_revision": "v2.2.0", "commit_id": "ab12"}},
         "pip install git+https://git.example/hrc.git@v2.2.0"),
        (None, "pip install /clone"),
    ],
)
def test_install_command_follows_what_pip_recorded(
    direct_url: dict[str, object] | None, expected: str
) -> None:
    assert pin.install_command(direct_url, Path("/clone")) == expected


def test_install_command_without_a_source_is_none() -> None:
    assert pin.install_command(None, None) is None


def test_pin_prints_a_command_naming_something_that_exists(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert cli.main(["pin"]) == 0
    first, *notes = capsys.readouterr().out.splitlines()
    assert first.startswith("pip install ") and "==" not in first
    target = first.removeprefix("pip install ")
    assert Path(target).exists() or target.startswith(("git+", "'git+", "http"))
    # No release tag is assumed (issue 38: the repository has none): the notes pin the commit
    # and name the wheel path, which works from any repository.
    assert not any("git checkout v" in line for line in notes)
    assert any("hrc pin --wheel" in line for line in notes)
    at = pin.revision(ROOT)
    if at is not None:
        assert any(at.commit in line for line in notes)


def test_a_clone_with_a_remote_is_pinned_by_its_commit(tmp_path: Path) -> None:
    """`git+URL@COMMIT` for a clone with a remote; a local remote path becomes a file URL and
    scp-like syntax an ssh URL, both of which pip reads."""
    sha = "0123456789abcdef0123456789abcdef01234567"
    assert pin.git_spec("https://github.com/o/hrc.git", sha) == (
        f"git+https://github.com/o/hrc.git@{sha}")
    assert pin.git_spec("git@github.com:o/hrc.git", sha) == f"git+ssh://git@github.com/o/hrc.git@{sha}"
    assert pin.git_spec(str(tmp_path), sha) == f"git+{tmp_path.as_uri()}@{sha}"
    clone = tmp_path / "clone"
    clone.mkdir()
    git = ["git", "-C", str(clone), "-c", "user.name=t", "-c", "user.email=t@t"]
    import subprocess

    subprocess.run(["git", "init", "-q", str(clone)], check=True)
    (clone / "f").write_text("x", encoding="utf-8")
    subprocess.run([*git, "add", "f"], check=True)
    subprocess.run([*git, "commit", "-qm", "c"], check=True)
    at = pin.revision(clone)
    assert at is not None and len(at.commit) == 40 and at.remote is None and at.tag is None
    assert not at.dirty
    subprocess.run([*git, "remote", "add", "origin", "https://example.org/hrc.git"], check=True)
    (clone / "f").write_text("y", encoding="utf-8")
    at = pin.revision(clone)
    assert at is not None and at.remote == "https://example.org/hrc.git" and at.dirty
    assert pin.revision(tmp_path / "not-a-clone") is None


@pytest.mark.slow
def test_pin_wheel_builds_the_spec_versioned_wheel(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`hrc pin --wheel DIR` builds offline and prints the command that installs that file."""
    assert cli.main(["pin", "--wheel", str(tmp_path)]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    wheel = Path(first.removeprefix("pip install "))
    assert wheel.parent == tmp_path.resolve() and wheel.is_file()
    assert f"-{reference.SPEC_VERSION}-" in wheel.name
    with zipfile.ZipFile(wheel) as archive:
        (meta,) = [n for n in archive.namelist() if n.endswith(".dist-info/METADATA")]
        assert f"\nVersion: {reference.SPEC_VERSION}\n" in archive.read(meta).decode()


def test_no_document_pins_the_kit_from_an_index() -> None:
    """Install instructions name `hrc pin` or a path, never an index version that cannot work."""
    docs = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", ROOT / "ports" / "README.md",
            ROOT / "conformance" / "commands" / "data_path.py"]
    language = scaffold.LANGUAGES["go"]
    generated = scaffold.readme(language, Path("my-port"), scaffold.substitutions(Path("p")))
    texts = {str(p): p.read_text(encoding="utf-8") for p in docs} | {"scaffold": generated}
    for name, text in texts.items():
        assert "hybrid-retrieval-conformance==" not in text, name
    assert "hrc pin" in texts["scaffold"] and "hrc pin" in texts[str(ROOT / "ports" / "README.md")]


def test_a_kit_installed_from_a_clone_knows_the_clone(tmp_path: Path) -> None:
    """`pip install /path/to/clone` records the folder; `--wheel` builds from it."""
    (tmp_path / "pyproject.toml").write_text("", encoding="utf-8")
    recorded = {"url": tmp_path.as_uri(), "dir_info": {}}
    assert pin.recorded_clone(recorded) == tmp_path
    assert pin.recorded_clone({"url": tmp_path.as_uri(), "archive_info": {}}) is None
    assert pin.recorded_clone(None) is None


def _bump_tool() -> Any:
    import importlib.util

    path = ROOT / "tools" / "bump_spec_version.py"
    spec = importlib.util.spec_from_file_location("bump_spec_version", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_hand_written_spec_version_is_spec_version() -> None:
    """The hellos of the ports and examples, the chapters' version lines: `python
    tools/bump_spec_version.py X.Y.Z` moves them all; this fails when one lags behind."""
    tool = _bump_tool()
    assert tool.current() == reference.SPEC_VERSION
    assert tool.lagging(reference.SPEC_VERSION) == []


def test_the_version_check_can_fail() -> None:
    """Against another version every place is reported, one line per place at least."""
    tool = _bump_tool()
    problems = tool.lagging("0.0.1")
    assert any("ports/go/hrc/jsonio.go" in p for p in problems)
    assert any(p.startswith("spec/rrf.md") for p in problems)
    assert len(problems) >= len(tool.PLACES)
