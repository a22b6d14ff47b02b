"""The gallery of wrapped libraries (ports/wild/, issue 28): the committed matrix is what the
committed reports give, every library is pinned and hashed, and every failing clause is
explained in its FINDINGS.md. None of these needs an install; the rebuild test does, and runs
only with `pytest --gallery -m gallery` (tests/conftest.py deselects it otherwise).
"""

from __future__ import annotations

import copy
import importlib.util
import json
import re
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from conformance.running.results import FAILING

ROOT = Path(__file__).resolve().parent.parent
WILD = ROOT / "ports" / "wild"


def _tool() -> ModuleType:
    path = ROOT / "tools" / "gallery.py"
    spec = importlib.util.spec_from_file_location("gallery_tool", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["gallery_tool"] = module
    spec.loader.exec_module(module)
    return module


GALLERY = _tool()
LIBS: tuple[str, ...] = GALLERY.LIBRARIES


def _report(lib: str) -> dict[str, Any]:
    document: dict[str, Any] = json.loads((WILD / lib / "report.json").read_text("utf-8"))
    return document


def test_at_least_five_libraries() -> None:
    assert len(LIBS) >= 5
    assert sorted(p.name for p in WILD.iterdir() if (p / "adapter.py").exists()) == sorted(LIBS)


def test_committed_matrix_is_what_the_committed_reports_give() -> None:
    """Regenerate with `python tools/gallery.py render` (or `all`, which reruns the libraries)."""
    assert GALLERY.main(["check"]) == 0


def test_matrix_follows_an_outcome_change(tmp_path: Path) -> None:
    """The check can fail: one case outcome changed in a report changes the rendered page."""
    for lib in LIBS:
        (tmp_path / f"{lib}.json").write_text(json.dumps(_report(lib)), "utf-8")
    assert GALLERY.rendered(tmp_path) == GALLERY.rendered()
    changed = copy.deepcopy(_report(LIBS[0]))
    case = next(c for c in changed["cases"] if c["status"] == "passed")
    case["status"], case["message"] = "failed", "at /results/0/id: value differs"
    changed["summary"]["passed"] -= 1
    changed["summary"]["failed"] += 1
    (tmp_path / f"{LIBS[0]}.json").write_text(json.dumps(changed), "utf-8")
    assert GALLERY.rendered(tmp_path) != GALLERY.rendered()
    assert GALLERY.render(check=True, reports=tmp_path) == 1


@pytest.mark.parametrize("lib", LIBS)
def test_library_is_pinned_with_hashes(lib: str) -> None:
    """requirements.in pins the library exactly; the lock pins every package with a hash."""
    wanted = [line for line in (WILD / lib / "requirements.in").read_text("utf-8").splitlines()
              if line.strip() and not line.startswith("#")]
    assert wanted and all(re.fullmatch(r"[A-Za-z0-9._-]+==[0-9][0-9A-Za-z.]*", w) for w in wanted)
    lock = (WILD / lib / "requirements.lock").read_text("utf-8")
    entries = re.findall(r"^([a-z0-9._-]+)==(\S+) \\\n((?:    --hash=sha256:[0-9a-f]{64}.*\n)+)",
                         lock, flags=re.MULTILINE)
    pinned = {name: version for name, version, _ in entries}
    assert len(entries) == len(re.findall(r"^[a-z0-9]", lock, flags=re.MULTILINE))
    for line in wanted:
        name, version = line.split("==")
        assert pinned.get(name.lower()) == version, f"{lib}: {line} not in the lock"


@pytest.mark.parametrize("lib", LIBS)
def test_report_is_of_the_pinned_version(lib: str) -> None:
    """The committed report was produced by the locked version of the library."""
    main = (WILD / lib / "requirements.in").read_text("utf-8").splitlines()[0]
    assert _report(lib)["adapter"]["version"] == main.split("==")[1]
    assert _report(lib)["complete"] is True


@pytest.mark.parametrize("lib", LIBS)
def test_findings_explain_every_failing_clause(lib: str) -> None:
    """Each clause cited by a case that failed the run is named in the library's FINDINGS.md."""
    findings = (WILD / lib / "FINDINGS.md").read_text("utf-8")
    failing = {clause for case in _report(lib)["cases"] if case["status"] in FAILING
               for clause in case["clauses"]}
    missing = sorted(c for c in failing if not re.search(rf"\b{re.escape(c)}\b", findings))
    assert not missing, f"ports/wild/{lib}/FINDINGS.md does not explain {missing}"


def test_readme_links_the_gallery() -> None:
    readme = (ROOT / "README.md").read_text("utf-8")
    assert "ports/wild/README.md" in readme
    gallery = (WILD / "README.md").read_text("utf-8")
    for lib in LIBS:
        assert f"({lib}/FINDINGS.md)" in gallery


@pytest.mark.gallery
def test_rebuild_gives_the_committed_matrix(tmp_path: Path) -> None:
    """Installs every lock (PyPI), runs every adapter and compares: `tox -e gallery`."""
    assert GALLERY.main(["verify", "--reports", str(tmp_path)]) == 0


def _suite_size() -> int:
    from conformance.judging.cases import load_all
    from conformance.judging.selection import select

    return len(select(load_all(), list(GALLERY.SELECT)))


@pytest.mark.parametrize("lib", LIBS)
def test_report_was_built_for_the_suites_spec_version(lib: str) -> None:
    """Issue 38: the gallery stayed at 3.0.0 (175 cases) while the suite moved on, and passed
    quietly. A report run by another kit, for another spec, or over another number of cases
    than the suite's fails here: rebuild with `tox -e gallery` then `python tools/gallery.py
    all` (PyPI, about 9 minutes cold on 2 cores; about 70 s with the virtualenvs in place)."""
    from reference import SPEC_VERSION

    report = _report(lib)
    built = {"kit": report["hrc"]["kitVersion"], "suite": report["suite"]["specVersion"],
             "hello": report["adapter"]["specVersion"], "cases": report["suite"]["selected"]}
    assert built == {"kit": SPEC_VERSION, "suite": SPEC_VERSION, "hello": SPEC_VERSION,
                     "cases": _suite_size()}, (
        f"ports/wild/{lib}/report.json was built for another suite: rebuild the gallery")


def test_the_adapters_hello_declares_the_kits_spec_version() -> None:
    from reference import SPEC_VERSION

    spec = importlib.util.spec_from_file_location("wildproto", WILD / "wildproto.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.SPEC_VERSION == SPEC_VERSION


def test_the_gallery_page_states_the_suite_size_of_its_reports() -> None:
    """The prose count of the page ("(N cases: …") is the reports' count."""
    text = (WILD / "README.md").read_text("utf-8")
    (stated,) = re.findall(r"\((\d+) cases:", text)
    assert {_report(lib)["suite"]["selected"] for lib in LIBS} == {int(stated)}
