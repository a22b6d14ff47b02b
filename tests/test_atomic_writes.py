"""PROTO-49: every file the kit writes is written beside itself and renamed; a failed write
leaves the old file whole, a link is never written through, a new file is 0666 less the umask
(issue 39, item 1)."""

from __future__ import annotations

import json
import os
import resource
import signal
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from fake_adapters.support import write_tiny_golden

from conformance import cli
from conformance.common import atomic_write, errors
from conformance.judging import case_cache
from conformance.judging.cases import CaseFileError, case_files

STALE = "output: {length: 3}\n  - id: tiny/length/astral"
#: The largest file the child may write (RLIMIT_FSIZE): a full disk as the kernel reports it.
LIMIT = 16 * 1024


def _stale_golden(tmp_path: Path, pad: int = 0) -> tuple[Path, Path]:
    golden = write_tiny_golden(tmp_path)
    path = golden / "lengths" / "length.yaml"
    text = path.read_text(encoding="utf-8").replace(
        STALE, "output: {length: 4}\n  - id: tiny/length/astral")
    path.write_text("# padding\n" * (pad // 10) + text, encoding="utf-8")
    return golden, path


def _limited() -> None:  # pragma: no cover - runs in the child
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG
    resource.setrlimit(resource.RLIMIT_FSIZE, (LIMIT, LIMIT))


def _hrc(*args: str, limited: bool = False, env: dict[str, str] | None = None,
         ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "conformance.cli", *args], capture_output=True,
                          text=True, timeout=120, preexec_fn=_limited if limited else None,
                          env={**os.environ, "HRC_NO_CACHE": "1", **(env or {})})


def test_regen_on_a_full_disk_leaves_the_golden_file_whole(tmp_path: Path) -> None:
    """The rewrite is larger than the child may write: the old file stays byte for byte, no
    temporary file is left, and the error is one line (before: truncated at the limit)."""
    golden, path = _stale_golden(tmp_path, pad=4 * LIMIT)
    before = path.read_bytes()
    done = _hrc("regen", "--golden", str(golden), limited=True)
    assert done.returncode == 2, done.stderr
    assert path.read_bytes() == before
    assert not list(path.parent.glob("*" + atomic_write.TEMP_SUFFIX))
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("hrc regen: error: cannot rewrite "), lines
    assert "the file is unchanged" in lines[0]


def test_regen_never_writes_through_a_link(tmp_path: Path) -> None:
    """A golden file that is a link is refused before any file is rewritten; the link and its
    target stay as they were (before: the target was rewritten through the link)."""
    golden, path = _stale_golden(tmp_path)
    target = golden / "lengths" / "length.yaml.real"
    path.rename(target)
    path.symlink_to(target.name)
    before = target.read_bytes()
    assert cli.main(["regen", "--golden", str(golden), "--select", "tiny/length/*"]) == 2
    assert path.is_symlink() and target.read_bytes() == before


def test_a_case_file_linked_out_of_the_golden_folder_is_not_read(tmp_path: Path) -> None:
    """Neither read nor quoted: the error names the link only (item 7)."""
    golden = write_tiny_golden(tmp_path)
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET-TEXT: not yaml at all [", encoding="utf-8")
    (golden / "text" / "leak.yaml").symlink_to(secret)
    with pytest.raises(CaseFileError) as caught:
        case_files(golden)
    assert "outside the golden directory" in str(caught.value)
    assert "TOP-SECRET" not in str(caught.value)


def test_a_new_file_gets_the_umask_mode_not_0600(tmp_path: Path) -> None:
    """A porter found the JSON report 0600 (mkstemp's mode): a new file is 0666 less umask."""
    old = os.umask(0o022)
    try:
        atomic_write.write_text(tmp_path / "a.json", "{}\n")
        os.umask(0o027)
        atomic_write.write_bytes(tmp_path / "b.svg", b"<svg/>")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "a.json").stat().st_mode) == 0o644
    assert stat.S_IMODE((tmp_path / "b.svg").stat().st_mode) == 0o640


def test_the_json_report_is_0644(tmp_path: Path) -> None:
    golden = write_tiny_golden(tmp_path)
    out = tmp_path / "report.json"
    old = os.umask(0o022)
    try:
        cli.main(["run", "--golden", str(golden), "--report-json", str(out), "--quiet"])
    finally:
        os.umask(old)
    assert json.loads(out.read_text(encoding="utf-8"))["complete"] is True
    assert stat.S_IMODE(out.stat().st_mode) == 0o644


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path: Path) -> None:
    path = tmp_path / "out.txt"
    path.write_text("old\n", encoding="utf-8")
    with pytest.raises(RuntimeError), atomic_write.open_text(path) as fh:
        fh.write("new, half")
        raise RuntimeError("disk gone")
    assert path.read_text(encoding="utf-8") == "old\n"
    assert os.listdir(tmp_path) == ["out.txt"]


@pytest.mark.parametrize("kind", ["link", "fifo", "dir"])
def test_outputs_that_are_not_regular_files_are_refused_before_the_run(
    tmp_path: Path, kind: str
) -> None:
    """--report-json, --junit, --html, --badge, -o: a link, FIFO or folder is refused by the
    check made before the run (PROTO-44), and by the write itself."""
    target = tmp_path / "elsewhere.json"
    target.write_text("keep\n", encoding="utf-8")
    out = tmp_path / "out.json"
    if kind == "link":
        out.symlink_to(target)
    elif kind == "fifo":
        os.mkfifo(out)
    else:
        out.mkdir()
    with pytest.raises(errors.HrcError):
        errors.check_writable(out, "--report-json")
    with pytest.raises(OSError):
        atomic_write.write_text(out, "new\n")
    assert target.read_text(encoding="utf-8") == "keep\n"
    assert not list(tmp_path.glob("*" + atomic_write.TEMP_SUFFIX))


def test_a_cache_entry_that_cannot_be_written_leaves_no_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A full cache disk left a 0-byte temporary per run (item 7)."""
    def full(*_a: object, **_k: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(case_cache.json, "dump", full)
    case_cache._store(tmp_path, tmp_path / "entry.json", {"x": 1})
    assert os.listdir(tmp_path) == []
