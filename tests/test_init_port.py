"""`hrc init-port`: every scaffold passes its first cases out of the box, through the protocol.

A language whose tools are missing on this machine is skipped with the reason, except under CI
(`CI` set, as `.ci/run` runs), where a missing toolchain FAILS: CI must prove every scaffold.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from functools import cache
from pathlib import Path

import pytest

from conformance import cli
from conformance.commands import init_port as scaffold
from conformance.judging.cases import load_all

#: Programs each scaffold's launcher needs on PATH.
TOOLS: dict[str, tuple[str, ...]] = {
    "python": ("python3",),
    "javascript": ("node",),
    "typescript": ("node", "npm"),
    "go": ("go",),
    "rust": ("cargo",),
    "java": ("javac", "java"),
}
IN_CI = bool(os.environ.get("CI"))


def _need_tools(language: str) -> None:
    missing = [tool for tool in TOOLS[language] if shutil.which(tool) is None]
    if not missing:
        return
    message = f"{language} scaffold not tested: {', '.join(missing)} not on PATH"
    if IN_CI:
        pytest.fail(f"{message} (CI must test every scaffold)")
    pytest.skip(message)


@cache
def _length_case_ids() -> set[str]:
    return {c.id for c in load_all() if c.op == scaffold.FIRST_OPERATION}


def test_every_language_has_a_template_with_a_launcher() -> None:
    """The table of languages and the shipped templates agree; each has an executable launcher."""
    assert set(TOOLS) == set(scaffold.LANGUAGES)
    for language in scaffold.LANGUAGES.values():
        files = dict((rel, path) for path, rel in scaffold.planned_files(language))
        assert "adapter" in files, language.name
        assert os.access(files["adapter"], os.X_OK), f"{language.name}/adapter is not executable"
        assert language.source in files, language.name
        # A compiled scaffold declares its build, so `hrc run` builds before the handshake.
        assert ("hrc-adapter.yaml" in files) == (language.build != ""), language.name


@pytest.mark.slow
@pytest.mark.parametrize("language", sorted(scaffold.LANGUAGES))
def test_generated_adapter_passes_its_first_cases(
    language: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """TEXT-8 PROTO-7 The scaffold passes every `length` case; every other case is N/A."""
    _need_tools(language)
    target = tmp_path / f"my-{language}-port"
    assert cli.main(["init-port", language, str(target)]) == 0
    printed = capsys.readouterr().out
    launcher = target / "adapter"
    assert f"next: hrc run --adapter {launcher}" in printed
    readme = (target / "README.md").read_text(encoding="utf-8")
    assert f"hrc run --adapter {launcher}" in readme and "Next steps" in readme
    declared = target / "hrc-adapter.yaml"
    if declared.exists():
        # `adapter --build` builds and exits without starting the program (its stdin stays
        # open, so a started program would hang here), and keeps stdout clean (the protocol's).
        with subprocess.Popen(
            [str(launcher), "--build"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True,
        ) as build:
            returncode = build.wait(timeout=600)
            assert build.stdout is not None and build.stderr is not None
            out, err = build.stdout.read(), build.stderr.read()
            assert build.stdin is not None
            build.stdin.close()
        assert returncode == 0, err[-2000:]
        assert out == "", "a launcher must keep build output off stdout (the protocol's)"

    report = tmp_path / "report.json"
    status = cli.main(
        ["run", "--adapter", str(launcher), "--select", "portability/", "--quiet",
         "--report-json", str(report)]
    )
    said = capsys.readouterr().err
    document = json.loads(report.read_text(encoding="utf-8"))
    assert status == 0, document["summary"]
    # A compiled scaffold is built before the handshake, and the run says so.
    assert ("hrc run: adapter built in" in said) == (scaffold.LANGUAGES[language].build != "")
    assert document["adapter"]["name"] == f"my-{language}-port"
    assert document["adapter"]["operations"] == ["length"]
    statuses = {case["id"]: case["status"] for case in document["cases"]}
    lengths = _length_case_ids()
    assert lengths and {statuses[i] for i in lengths} == {"passed"}
    others = {s for cid, s in statuses.items() if cid not in lengths}
    assert others == {"not_applicable"}


@pytest.mark.slow
@pytest.mark.parametrize("language", ["python", "go"])
def test_generated_adapter_rejects_a_bad_input(
    language: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """OP-2 A text that is not a string is `invalid_input`, not a crash."""
    from fake_adapters.support import write_tiny_golden

    _need_tools(language)
    target = tmp_path / "port"
    assert cli.main(["init-port", language, str(target)]) == 0
    report = tmp_path / "report.json"
    golden = write_tiny_golden(tmp_path / "golden")
    cli.main(["run", "--adapter", str(target / "adapter"), "--golden", str(golden),
              "--select", "tiny/length/", "--quiet", "--report-json", str(report)])
    capsys.readouterr()
    cases = json.loads(report.read_text(encoding="utf-8"))["cases"]
    assert {c["id"]: c["status"] for c in cases} == {
        "tiny/length/ascii": "passed",
        "tiny/length/astral": "passed",
        "tiny/length/not-a-string": "passed",
    }


def test_unknown_language_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["init-port", "cobol", str(tmp_path / "x")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("hrc init-port: error: unknown language 'cobol'; choose one of: python,")
    assert err.count("\n") == 1
    assert not (tmp_path / "x").exists()


def test_a_non_empty_directory_is_refused_unless_forced(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "keep.txt").write_text("mine", encoding="utf-8")
    assert cli.main(["init-port", "python", str(tmp_path)]) == 2
    assert "not empty (use --force" in capsys.readouterr().err
    assert not (tmp_path / "adapter.py").exists()
    assert cli.main(["init-port", "python", str(tmp_path), "--force"]) == 0
    assert (tmp_path / "adapter.py").is_file()
    assert (tmp_path / "keep.txt").read_text(encoding="utf-8") == "mine"


def test_a_file_in_the_way_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "port"
    blocker.write_text("", encoding="utf-8")
    assert cli.main(["init-port", "go", str(blocker)]) == 2
    assert "exists and is not a directory" in capsys.readouterr().err


def test_templates_are_written_under_their_real_names(tmp_path: Path) -> None:
    """`.tmpl` suffixes and package-safe names (`gitignore`) are undone; placeholders filled."""
    scaffold.init_port("rust", tmp_path / "9 Lives!")
    written = sorted(p.relative_to(tmp_path / "9 Lives!").as_posix()
                     for p in (tmp_path / "9 Lives!").rglob("*") if p.is_file())
    assert written == [".gitignore", "Cargo.toml", "README.md", "adapter", "hrc-adapter.yaml",
                       "src/json.rs", "src/main.rs"]
    scaffold.init_port("python", tmp_path / "py")
    source = (tmp_path / "py" / "adapter.py").read_text(encoding="utf-8")
    assert '"name": "py"' in source and "__HRC_" not in source
    cargo = (tmp_path / "9 Lives!" / "Cargo.toml").read_text(encoding="utf-8")
    assert 'name = "hrc-9-lives"' in cargo


def test_port_names_are_safe_identifiers() -> None:
    assert scaffold.port_name(Path("My_Port")) == "my-port"
    assert scaffold.port_name(Path("2fast")) == "hrc-2fast"
    assert scaffold.port_name(Path("---")) == "hrc"
