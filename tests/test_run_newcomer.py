"""What a new user reads from `hrc run`: which suite ran, a footer even after Ctrl-C, one line of
undeclared profiles, marked failures in the matrix, and hints for a launcher that cannot start.
"""

from __future__ import annotations

import re
import shlex
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from fake_adapters.support import fake, write_tiny_golden

from conformance import cli
from conformance.reports.report import load as load_report
from reference import SPEC_VERSION
from reference.data import kit_root


@pytest.fixture
def golden(tmp_path: Path) -> Path:
    return write_tiny_golden(tmp_path)


def run_argv(golden: Path | None, adapter: list[str], *extra: str) -> list[str]:
    where = ["--golden", str(golden)] if golden is not None else []
    return ["run", *where, "--adapter", shlex.join(adapter), "--timeout", "2",
            "--handshake-timeout", "2", *extra]


# -- which suite ran -------------------------------------------------------------------------


def test_the_run_names_its_golden_folder(golden: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(run_argv(golden, fake("good"), "--select", "tiny/length/")) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == f"golden: {golden} (3 of 6 cases, spec {SPEC_VERSION})"


def test_a_golden_folder_the_run_does_not_read_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """In a folder holding its own golden/, a run without --golden warns that it reads the
    installed kit's cases instead; regen --check says the same."""
    (tmp_path / "golden").mkdir()
    monkeypatch.chdir(tmp_path)
    assert cli.main(run_argv(None, fake("good"), "--select", "portability/length/")) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].startswith(f"golden: {kit_root() / 'golden'} (")
    warning = [line for line in out.splitlines() if "./golden" in line]
    assert warning == [
        f"warning: ./golden is not the suite this run uses: the cases come from "
        f"{kit_root() / 'golden'} (the installed kit); pass --golden golden to use yours, or "
        "`pip install -e .` here"
    ]
    assert cli.main(["regen", "--check", "--select", "portability/length/"]) == 0
    assert "hrc regen: warning: ./golden is not the suite" in capsys.readouterr().err
    # With --golden, or where ./golden is the suite used, nothing is said.
    assert cli.main(run_argv(tmp_path / "golden", fake("good"))) == 2  # an empty suite
    assert "./golden is not" not in capsys.readouterr().out


# -- Ctrl-C ----------------------------------------------------------------------------------


def test_ctrl_c_writes_the_footer_and_both_reports_marked_interrupted(
    golden: Path, tmp_path: Path
) -> None:
    """PROTO-40 Ctrl-C during a case: the footer, a valid JSON report with `interrupted: true`,
    a JUnit file with an `interrupted` error, exit 130."""
    report, junit, xfail = tmp_path / "r.json", tmp_path / "j.xml", tmp_path / "xfail.yaml"
    argv = [sys.executable, "-m", "conformance.cli",
            *run_argv(golden, fake("hang_on", "tiny/length/not-a-string"), "--timeout", "60",
                      "--report-json", str(report), "--junit", str(junit),
                      "--update-expected-failures", str(xfail))]
    with subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          cwd=Path(__file__).resolve().parent.parent) as proc:
        assert proc.stderr is not None and proc.stdout is not None
        assert proc.stderr.read(2) == ".."  # two cases passed; the third hangs
        time.sleep(1.0)  # the third case is under way (a loaded machine starts it late)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert out.splitlines()[-1] == "hrc: 2 passed, 0 failed, 0 skipped, 4 not run"
    assert "hrc run: interrupted (Ctrl-C); 4 selected case(s) not run" in err
    document = load_report(report)
    assert document["interrupted"] is True and document["summary"]["ok"] is False
    statuses = [c["status"] for c in document["cases"]]
    assert statuses == ["passed", "passed", "not_run", "not_run", "not_run", "not_run"]
    assert document["cases"][2]["message"] == "not run: the run was interrupted (Ctrl-C)"
    xml = ET.parse(junit).getroot()
    assert [e.get("type") for e in xml.iter("error")] == ["interrupted"]
    assert not xfail.exists()  # a cut run would list only the failures it reached


# -- noise -----------------------------------------------------------------------------------


def test_undeclared_profiles_share_one_line_and_the_data_line_names_no_zero(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A first port declares no profile and loads no data file: one line lists the profiles
    it does not declare, and the data line says only what is there (no `0 ok` under `ok`)."""
    from conformance.adapters.adapter_reference import reference_profiles
    from conformance.judging.datafiles import kit_hashes

    port = tmp_path / "port"
    assert cli.main(["init-port", "python", str(port)]) == 0
    capsys.readouterr()
    assert cli.main(["run", "--adapter", str(port / "adapter"),
                     "--select", "portability/length/"]) == 0
    out = capsys.readouterr().out.splitlines()
    names = ", ".join(f"{name} {version}" for name, version in
                      sorted(reference_profiles().items()))
    assert [ln for ln in out if "profile" in ln] == [f"  profiles not declared: {names}"]
    (data,) = [ln for ln in out if ln.startswith("data files:")]
    files = len(kit_hashes(kit_root() / "spec" / "data"))
    assert data == f"data files: ok (nothing stale or unknown): {files} not loaded"


# -- matrix ----------------------------------------------------------------------------------


def test_the_matrix_marks_failures_apart_from_not_applicable(
    golden: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A port with failing cases never reads like an incomplete but correct one: its cells say
    how many failed (`✗N`), in bold in Markdown, with a legend."""
    wrong, partial = tmp_path / "wrong.json", tmp_path / "partial.json"
    assert cli.main(run_argv(golden, fake("always_wrong"), "--quiet",
                             "--report-json", str(wrong))) == 1
    assert cli.main(run_argv(golden, fake("missing_op"), "--quiet",
                             "--report-json", str(partial))) == 0
    capsys.readouterr()
    assert cli.main(["report", str(wrong), str(partial), "--markdown"]) == 0
    lines = capsys.readouterr().out.splitlines()
    failing, clean = lines[2], lines[3]
    assert "✗" in failing and "**" in failing, lines
    assert "✗" not in clean and "**" not in clean and "*" in clean
    assert any(line.startswith("**`✗N`**") for line in lines)
    assert cli.main(["report", str(wrong), str(partial)]) == 0
    text = capsys.readouterr().out.splitlines()
    assert "✗" in text[1] and "✗" not in text[2]
    assert text[-1].startswith("✗N: N cases failed the run")


# -- small things ------------------------------------------------------------------------------


def test_a_launcher_named_without_dot_slash_or_without_x_gets_a_hint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--adapter adapter` (PATH lookup misses the file here) hints `./adapter`; a launcher
    without the execute bit hints `chmod +x`."""
    port = tmp_path / "port"
    assert cli.main(["init-port", "python", str(port)]) == 0
    monkeypatch.chdir(port)
    capsys.readouterr()
    assert cli.main(["run", "--adapter", "adapter", "--select", "portability/length/"]) == 2
    assert "(a file 'adapter' is in this folder: run it as './adapter')" in capsys.readouterr().err
    (port / "adapter").chmod(0o644)
    assert cli.main(["run", "--adapter", "./adapter", "--select", "portability/length/"]) == 2
    assert "(it is not executable: chmod +x ./adapter)" in capsys.readouterr().err


def test_diff_status_only_lists_status_changes_and_tallies_them(
    golden: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good, wrong = tmp_path / "good.json", tmp_path / "wrong.json"
    cli.main(run_argv(golden, fake("good"), "--quiet", "--report-json", str(good)))
    cli.main(run_argv(golden, fake("always_wrong"), "--quiet", "--report-json", str(wrong)))
    capsys.readouterr()
    assert cli.main(["diff", str(good), str(wrong), "--status-only"]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[:2] == ["tiny/length/ascii: passed -> failed",
                         "tiny/length/astral: passed -> failed"]
    assert all(" -> " in line for line in lines[:-1]) and "/output" not in "".join(lines)
    tally = [line.split() for line in lines if line.startswith("  ")]
    assert sum(int(t[0]) for t in tally) == len(lines) - len(tally) - 1
    assert cli.main(["diff", str(good), str(good), "--status-only"]) == 0
    capsys.readouterr()


def test_search_shows_the_chunk_when_one_file_gives_two_rows(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    notes = tmp_path / "notes"
    notes.mkdir()
    parts = [f"\n## Part {i}\n\n" + "kubernetes cluster setup. " * 80 for i in range(3)]
    (notes / "long.md").write_text("# Guide\n" + "".join(parts), encoding="utf-8")
    (notes / "short.md").write_text("# Short\n\nkubernetes once.\n", encoding="utf-8")
    db = tmp_path / "i.db"
    assert cli.main(["index", str(notes), "--db", str(db)]) == 0
    capsys.readouterr()
    assert cli.main(["search", "--db", str(db), "kubernetes", "--mode", "bm25"]) == 0
    rows = [line.split()[3] for line in capsys.readouterr().out.splitlines()[2:]]
    assert "short.md" in rows
    longs = [r for r in rows if r.startswith("long.md")]
    assert len(longs) > 1 and len(set(longs)) == len(longs)
    assert all(re.fullmatch(r"long\.md#[0-9]+", r) for r in longs)


def test_an_unchanged_reindex_counts_unresolved_links_without_listing_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "a.md").write_text("# A\n\nSee [[missing-page]].\n", encoding="utf-8")
    db = tmp_path / "i.db"
    assert cli.main(["index", str(notes), "--db", str(db)]) == 0
    first = capsys.readouterr().out
    assert "-> missing-page" in first
    assert cli.main(["index", str(notes), "--db", str(db)]) == 0
    again = capsys.readouterr().out
    assert "-> missing-page" not in again and "(unchanged; --links lists them)" in again
    assert cli.main(["index", str(notes), "--db", str(db), "--links"]) == 0
    assert "-> missing-page" in capsys.readouterr().out


def test_eval_warns_when_no_judged_document_is_in_the_index(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "a.md").write_text("# A\n\nkubernetes\n", encoding="utf-8")
    db = tmp_path / "i.db"
    assert cli.main(["index", str(notes), "--db", str(db)]) == 0
    (tmp_path / "queries.tsv").write_text("q1\tkubernetes\n", encoding="utf-8")
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("q1 0 notes/a.md 1\n", encoding="utf-8")  # the folder name is not in a path
    capsys.readouterr()
    assert cli.main(["eval", "--db", str(db), "--qrels", str(qrels)]) == 0
    err = capsys.readouterr().err
    assert "eval: warning: none of the 1 judged documents is in the index (e.g. 'notes/a.md')" \
        in err
    qrels.write_text("q1 0 a.md 1\n", encoding="utf-8")
    assert cli.main(["eval", "--db", str(db), "--qrels", str(qrels)]) == 0
    assert "warning" not in capsys.readouterr().err
