"""`hrc report` reads reports with the kit's one bounded JSON loader and prints a port's own
text inert (issue 29, items 6 and 7)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from fake_adapters.support import fake, write_tiny_golden

from conformance import cli

POSIX = pytest.mark.skipif(os.name != "posix", reason="POSIX files")


def _hrc(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "conformance.cli", *args],
                          capture_output=True, text=True, timeout=60, check=False)


def _one_error_line(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 2, done
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    return done.stderr


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    tmp = tmp_path_factory.mktemp("report")
    path = tmp / "good.json"
    cli.main(["run", "--golden", str(write_tiny_golden(tmp)), "--adapter", " ".join(fake("good")),
              "--quiet", "--report-json", str(path)])
    document: dict[str, object] = json.loads(path.read_text(encoding="utf-8"))
    return document


@pytest.mark.parametrize("depth", [70, 100_000])
def test_a_deeply_nested_report_is_one_error_line(tmp_path: Path, depth: int) -> None:
    path = tmp_path / "deep.json"
    path.write_text('{"a": ' + "[" * depth + "]" * depth + "}", encoding="utf-8")
    err = _one_error_line(_hrc("report", str(path)))
    assert f"{path}" in err and "nest deeper than 64 levels" in err


@POSIX
def test_a_fifo_report_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "report.json"
    os.mkfifo(fifo)
    assert f"{fifo}: cannot read report: a FIFO" in _one_error_line(_hrc("report", str(fifo)))


def test_a_bad_report_names_its_line(tmp_path: Path) -> None:
    path = tmp_path / "nan.json"
    path.write_text('{\n"complete": true,\n"x": NaN\n}\n', encoding="utf-8")
    assert f"{path}:3: cannot read report: NaN" in _one_error_line(_hrc("report", str(path)))


def _with_name(tmp_path: Path, report: dict[str, object], name: str, version: str) -> str:
    document = json.loads(json.dumps(report))
    document["adapter"]["name"] = name
    document["adapter"]["version"] = version
    path = tmp_path / "named.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    return str(path)


def test_markdown_shows_a_port_name_as_text_not_html(
    tmp_path: Path, report: dict[str, object], capsys: pytest.CaptureFixture[str]
) -> None:
    path = _with_name(tmp_path, report, "<img src=x onerror=alert(1)>", "[v](javascript:x)|1")
    assert cli.main(["report", path, "--markdown"]) == 0
    row = capsys.readouterr().out.splitlines()[2]
    assert "<img" not in row and "[v](" not in row
    assert row.startswith(r"| &lt;img src=x onerror=alert(1)&gt; \[v\](javascript:x)\|1 |")
    assert row.count(" | ") == 4  # the | in the version did not add a cell


def test_the_text_table_escapes_terminal_controls(
    tmp_path: Path, report: dict[str, object], capsys: pytest.CaptureFixture[str]
) -> None:
    path = _with_name(tmp_path, report, "port\x1b]0;title\x07", "1\x1b[2J")
    for extra in ([], ["--markdown"]):
        assert cli.main(["report", path, *extra]) == 0
        out = capsys.readouterr().out
        assert "\x1b" not in out and "\x07" not in out and "u001b" in out and "title" in out
