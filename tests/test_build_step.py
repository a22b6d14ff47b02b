"""The build step before the handshake: `--build`, `hrc-adapter.yaml`, its progress and limit.

A compiled port that builds inside the handshake looks hung and fails once the build outlasts
the handshake timeout; `hrc run` builds first, says so, and stops on a failed or slow build
with one line (conformance/running/build_step.py).
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from conformance import cli

#: An adapter launcher that refuses to start until the build step has run.
_NEEDS_BUILD = """#!/bin/sh
dir=$(dirname "$0")
if [ ! -f "$dir/built" ]; then echo "not built" >&2; exit 1; fi
exec python3 "$dir/adapter.py"
"""


def _port(tmp_path: Path, declaration: str | None) -> Path:
    """A Python scaffold whose launcher needs `built`, with an optional hrc-adapter.yaml."""
    target = tmp_path / "port"
    assert cli.main(["init-port", "python", str(target)]) == 0
    launcher = target / "adapter"
    launcher.write_text(_NEEDS_BUILD, encoding="utf-8")
    launcher.chmod(0o755)
    if declaration is not None:
        (target / "hrc-adapter.yaml").write_text(declaration, encoding="utf-8")
    return launcher


def _run(launcher: Path, tmp_path: Path, *extra: str) -> tuple[int, dict[str, object] | None]:
    report = tmp_path / "report.json"
    status = cli.main(["run", "--adapter", str(launcher), "--select", "portability/length/",
                       "--quiet", "--handshake-timeout", "5", "--report-json", str(report),
                       *extra])
    document = json.loads(report.read_text(encoding="utf-8")) if report.exists() else None
    return status, document


def test_a_declared_build_runs_before_the_handshake_and_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The build declared beside the adapter runs in its folder first; the run then passes."""
    launcher = _port(tmp_path, "build: echo compiling; sleep 1; touch built\n")
    capsys.readouterr()
    status, document = _run(launcher, tmp_path)
    err = capsys.readouterr().err
    assert status == 0 and document is not None
    assert document["summary"]["passed"] > 0  # type: ignore[index]
    assert "hrc run: building the adapter: echo compiling; sleep 1; touch built" in err
    assert "hrc-adapter.yaml" in err and "hrc run: adapter built in" in err
    assert (launcher.parent / "built").exists()


def test_build_option_overrides_and_no_build_skips(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--build CMD` runs CMD in the current folder; `--no-build` skips the declared step."""
    launcher = _port(tmp_path, "build: exit 7\n")
    capsys.readouterr()
    status, _ = _run(launcher, tmp_path, "--no-build")
    assert status == 2  # nothing built: the launcher refuses to start
    assert "not built" in capsys.readouterr().out
    status, _ = _run(launcher, tmp_path, "--build", f"touch {launcher.parent / 'built'}")
    assert status == 0, capsys.readouterr()


def test_a_failed_build_stops_the_run_with_one_line_and_its_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A failing build: its output, then one error line, exit 2; no case is run."""
    launcher = _port(tmp_path, "build: \"echo 'main.go:3: undefined: x'; exit 3\"\n")
    capsys.readouterr()
    status, document = _run(launcher, tmp_path)
    err = capsys.readouterr().err
    assert status == 2 and document is None
    assert "  | main.go:3: undefined: x" in err
    last = err.strip().splitlines()[-1]
    assert last.startswith("hrc run: error: build ") and "failed (exit 3)" in last


def test_a_slow_build_hits_its_own_limit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--build-timeout bounds the build (not the handshake's limit), and the build is killed."""
    launcher = _port(tmp_path, "build: sleep 30\nbuildTimeout: 100\n")
    capsys.readouterr()
    clock = time.monotonic()
    status, _ = _run(launcher, tmp_path, "--build-timeout", "0.5")
    assert time.monotonic() - clock < 10
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert status == 2
    assert last == ("hrc run: error: build 'sleep 30' did not finish within 0.5 s "
                    "(raise the limit with --build-timeout)")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("build: [1, 2\n", ": not valid YAML"),
        ("builds: make\n", ":1: unknown key(s) builds"),
        ("build: ''\n", ":1: `build` must be a non-empty command line"),
        ("build: make\nbuildTimeout: -1\n", ":1: `buildTimeout` must be a positive number"),
    ],
)
def test_a_bad_declaration_is_one_line_with_its_file(
    text: str, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    launcher = _port(tmp_path, text)
    capsys.readouterr()
    status, _ = _run(launcher, tmp_path)
    err = capsys.readouterr().err.strip().splitlines()
    assert status == 2
    where = f"hrc run: error: {launcher.parent / 'hrc-adapter.yaml'}:"
    assert err[-1].startswith(where) and err[-1][len(where)].isdigit()
    assert message in err[-1]


def test_a_long_quiet_build_says_it_is_still_building(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A build that prints nothing for a while gets `still building (N s)` lines, so a cold
    compile never looks hung."""
    from conformance.running import build_step

    monkeypatch.setattr(build_step, "TICK", 0.3)
    launcher = _port(tmp_path, "build: sleep 1.5; touch built\n")
    capsys.readouterr()
    report = tmp_path / "r.json"
    assert cli.main(["run", "--adapter", str(launcher), "--select", "portability/length/",
                     "--report-json", str(report)]) == 0
    err = capsys.readouterr().err
    assert "hrc run: still building (" in err
    assert err.index("building the adapter") < err.index("still building") < err.index("built in")
