"""PROTO-51: SIGTERM and SIGHUP end `hrc` as Ctrl-C does (issue 39, item 3): `hrc run` writes
its partial report and kills the adapter's process group, a build is killed with its group,
`hrc index` leaves no temporary file."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from fake_adapters.support import fake, write_tiny_golden

pytestmark = pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="Linux /proc")
ROOT = Path(__file__).resolve().parent.parent


def _running(marker: str) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as fh:
                    if marker.encode() in fh.read().replace(b"\0", b" "):
                        found.append(int(entry))
            except OSError:
                pass
    return found


def _gone(marker: str) -> bool:
    deadline = time.monotonic() + 5
    while _running(marker) and time.monotonic() < deadline:
        time.sleep(0.05)
    return not _running(marker)


def _start(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "conformance.cli", *args], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "HRC_NO_CACHE": "1"})


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_a_terminated_run_reports_and_leaves_no_process(tmp_path: Path, signum: int) -> None:
    """Before: exit at once, no report, no message, the adapter's child left running."""
    golden = write_tiny_golden(tmp_path)
    report = tmp_path / "r.json"
    argv = " ".join(fake("hang_with_child", "tiny/length/not-a-string"))
    with _start("run", "--golden", str(golden), "--adapter", argv, "--timeout", "60",
                "--report-json", str(report)) as proc:
        assert proc.stderr is not None
        assert proc.stderr.read(2) == ".."  # two cases passed; the third hangs
        assert _running("47.31")
        time.sleep(0.3)
        proc.send_signal(signum)
        out, err = proc.communicate(timeout=30)
    name = signal.Signals(signum).name
    assert proc.returncode == 128 + signum, err
    assert out.splitlines()[-1] == "hrc: 2 passed, 0 failed, 0 skipped, 4 not run"
    assert f"hrc run: interrupted ({name}); 4 selected case(s) not run" in err
    document = json.loads(report.read_text(encoding="utf-8"))
    assert document["interrupted"] is True and document["complete"] is True
    assert document["cases"][2]["message"] == f"not run: the run was interrupted ({name})"
    assert _gone("47.31")


def test_a_terminated_build_is_killed_with_its_group(tmp_path: Path) -> None:
    """Before: `hrc` died and the build went on."""
    golden = write_tiny_golden(tmp_path)
    script = tmp_path / "build.sh"  # the markers must not be in hrc's own command line
    script.write_text("sleep 48.21; sleep 48.22\n", encoding="utf-8")
    with _start("run", "--golden", str(golden), "--adapter", " ".join(fake("good")),
                "--build", f"sh {script}") as proc:
        deadline = time.monotonic() + 20
        while not _running("48.21") and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _running("48.21")
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
    assert proc.returncode == 128 + signal.SIGTERM, err
    assert "interrupted (SIGTERM)" in err
    assert _gone("48.21") and _gone("48.22")


def test_a_terminated_first_index_leaves_no_temporary(tmp_path: Path) -> None:
    """Before: `.x.db.*.hrc-tmp` and its journal stayed (removed only a minute later)."""
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    words = [f"word{i}" for i in range(500)]
    for i in range(400):
        (corpus / f"d{i}.md").write_text(
            f"# T{i}\n\n" + " ".join(words[(i * 7 + j) % 500] for j in range(300)), "utf-8")
    db = tmp_path / "x.db"
    with _start("index", str(corpus), "--db", str(db)) as proc:
        deadline = time.monotonic() + 60
        while not list(tmp_path.glob(".x.db.*")) and time.monotonic() < deadline:
            time.sleep(0.02)
        time.sleep(0.3)
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
    if proc.returncode == 0:
        pytest.skip("the index was built before the signal arrived")
    assert proc.returncode == 128 + signal.SIGTERM, err
    assert "interrupted (SIGTERM)" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["corpus"]
