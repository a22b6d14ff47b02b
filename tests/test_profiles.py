"""Profiles end to end on the fixture profile `echo` (tests/fixtures/profile-kit).

Loader (PROFILE-1, PROFILE-3, PROFILE-4), versions (PROFILE-2, PROTO-31), core untouched
(PROFILE-5), reports, matrix, bundle and pytest plugin (PROFILE-6).
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
import sys
from pathlib import Path

import pytest
from fake_adapters.support import FAST, fake
from profile_chapters import chapter_versions, consistency_problems

from conformance import cli
from conformance.commands.bundle import build as build_bundle
from conformance.judging import profiles
from conformance.judging.cases import CaseFileError, case_files, load_all, suite_profiles
from conformance.judging.selection import select
from conformance.judging.suite import Suite
from conformance.reports.report import SuiteInfo
from conformance.reports.report import build as build_report
from conformance.running.runner import run_suite

KIT = Path(__file__).resolve().parent / "fixtures" / "profile-kit"
GOLDEN = KIT / "golden"
PROFILE_IDS = {
    "profiles/echo/reverse/ascii",
    "profiles/echo/reverse/astral",
    "profiles/echo/core-op/length",
}

pytest_plugins = ["pytester"]


def _suite() -> list:  # type: ignore[type-arg]
    return load_all(case_files(GOLDEN), root=GOLDEN)


def test_profile_cases_require_their_profile_without_saying_so() -> None:
    """PROFILE-1 PROFILE-3 A case under golden/profiles/NAME/ requires profile:NAME by itself."""
    cases = {c.id: c for c in _suite()}
    for cid in PROFILE_IDS:
        case = cases[cid]
        assert case.profile == "echo"
        assert case.stage == "profile:echo"
        assert case.requires == ("profile:echo",)
    core = cases["core/length/ascii"]
    assert (core.profile, core.stage, core.requires) == (None, "core", ())
    assert suite_profiles(cases.values(), Suite.at(GOLDEN)) == {"echo": "1.2.0"}


def _copy_kit(tmp_path: Path) -> Path:
    shutil.copytree(KIT, tmp_path / "kit")
    return tmp_path / "kit"


def _load(kit: Path) -> list:  # type: ignore[type-arg]
    golden = kit / "golden"
    return load_all(case_files(golden), root=golden)


def test_profile_operation_outside_its_profile_is_a_malformed_case(tmp_path: Path) -> None:
    """PROFILE-4 `echo.reverse` may only be called by cases under golden/profiles/echo/."""
    kit = _copy_kit(tmp_path)
    shutil.move(kit / "golden/profiles/echo/reverse.yaml", kit / "golden/core/reverse.yaml")
    with pytest.raises(CaseFileError, match=re.escape("profile operation 'echo.reverse' outside")):
        _load(kit)


def test_core_case_cannot_require_a_profile(tmp_path: Path) -> None:
    """PROFILE-3 A core case naming profile:NAME in `requires` is rejected."""
    kit = _copy_kit(tmp_path)
    path = kit / "golden/core/length.yaml"
    text = path.read_text(encoding="utf-8").replace(
        "clauses: [TEXT-8]", "clauses: [TEXT-8]\n    requires: ['profile:echo']"
    )
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CaseFileError, match="can only be required by cases under golden/profiles"):
        _load(kit)


def test_profile_case_id_names_its_profile(tmp_path: Path) -> None:
    """PROFILE-3 Ids of profile cases start with profiles/NAME/."""
    kit = _copy_kit(tmp_path)
    path = kit / "golden/profiles/echo/core-op.yaml"
    path.write_text(
        path.read_text(encoding="utf-8").replace("profiles/echo/core-op/length", "echo/x/y"),
        encoding="utf-8",
    )
    with pytest.raises(CaseFileError, match=re.escape("needs an id 'profiles/echo/...'")):
        _load(kit)


def test_profile_without_a_versioned_chapter_is_rejected(tmp_path: Path) -> None:
    """PROFILE-2 A profile needs spec/profiles/NAME.md with `Profile version **X.Y.Z**.`."""
    kit = _copy_kit(tmp_path)
    chapter = kit / "spec/profiles/echo.md"
    chapter.write_text("# echo\n\nNo version here.\n", encoding="utf-8")
    with pytest.raises(CaseFileError, match="no line `Profile version"):
        _load(kit)
    chapter.unlink()
    with pytest.raises(CaseFileError, match="has no chapter"):
        _load(kit)


def test_a_standalone_profile_case_may_not_call_a_core_operation(tmp_path: Path) -> None:
    """PROFILE-8 Without `Profile kind: **extension**.` a profile is standalone: a case of it
    that calls a core operation is refused at load, with the file and the case; with the line,
    the same case loads."""
    kit = _copy_kit(tmp_path)
    chapter = kit / "spec/profiles/echo.md"
    text = chapter.read_text(encoding="utf-8")
    assert profiles.kind(kit / "spec", "echo") == profiles.EXTENSION
    chapter.write_text(text.replace("Profile kind: **extension**.\n", ""), encoding="utf-8")
    assert profiles.kind(kit / "spec", "echo") == profiles.STANDALONE
    with pytest.raises(CaseFileError, match=r"core-op\.yaml.*profiles/echo/core-op/length.*"
                       r"core operation 'length' in standalone profile 'echo'"):
        _load(kit)
    chapter.write_text(text.replace("extension", "standalone"), encoding="utf-8")
    with pytest.raises(CaseFileError, match="PROFILE-8"):
        _load(kit)


def test_the_shipped_profiles_kinds() -> None:
    """PROFILE-8 temporal (the anchor's own) extends the core; every seed system's profile
    stands alone."""
    spec = Path(__file__).resolve().parents[1] / "spec"
    kinds = {name: profiles.kind(spec, name) for name in chapter_versions(spec)}
    assert kinds == {"temporal": "extension", "engram": "standalone", "gbrain": "standalone",
                     "bm25-okapi": "standalone", "scoped-fusion": "standalone"}


def test_profile_names_are_lowercase_words() -> None:
    """PROFILE-1 Names are lowercase ASCII words joined by '-', so they fit ids and op names."""
    assert profiles.NAME.fullmatch("temporal-expansion")
    assert not profiles.NAME.fullmatch("Temporal")
    assert not profiles.NAME.fullmatch("engram_intent")
    assert profiles.op_profile("gbrain-graph.traverse") == "gbrain-graph"
    assert profiles.op_profile("search") is None


def test_select_by_profile_capability() -> None:
    """PROFILE-6 `--select profile:NAME` selects a profile's cases (its stage)."""
    assert {c.id for c in select(_suite(), ["profile:echo"])} == PROFILE_IDS


def _run(adapter: list[str]) -> dict:  # type: ignore[type-arg]
    cases = _suite()
    run = run_suite(cases, adapter, FAST, data_dir=KIT / "spec" / "data")
    return build_report(run, SuiteInfo.for_cases(cases, Suite.at(GOLDEN), GOLDEN))


def test_a_port_declaring_the_profile_runs_and_passes_its_cases() -> None:
    """PROFILE-6 PROTO-31 The report shows the profile, its version and its own counts."""
    document = _run(fake("profile_port"))
    statuses = {c["id"]: c["status"] for c in document["cases"]}
    assert statuses == dict.fromkeys(["core/length/ascii", *PROFILE_IDS], "passed")
    [entry] = document["profiles"]
    assert entry["name"] == "echo" and entry["version"] == "1.2.0"
    assert entry["declared"] is True and entry["portVersion"] == "1.2.0"
    assert (entry["summary"]["total"], entry["summary"]["passed"]) == (3, 3)
    assert document["adapter"]["profiles"] == {"echo": "1.2.0"}
    assert document["dataCheck"]["status"] == "ok"
    assert document["warnings"] == []


def test_a_port_without_the_profile_gets_not_applicable_and_the_core_is_unchanged() -> None:
    """PROFILE-5 PROTO-7 Not declaring a profile skips exactly its cases; core cases still run."""
    document = _run(fake("profile_port", "none"))
    statuses = {c["id"]: c["status"] for c in document["cases"]}
    assert statuses.pop("core/length/ascii") == "passed"
    assert set(statuses) == PROFILE_IDS
    assert set(statuses.values()) == {"not_applicable"}
    messages = {c["message"] for c in document["cases"] if c["status"] == "not_applicable"}
    assert messages == {"capability 'profile:echo' is not declared"}
    [entry] = document["profiles"]
    assert entry["declared"] is False and entry["summary"]["not_applicable"] == 3
    assert document["summary"]["ok"] is True


def test_a_different_major_profile_version_is_a_warning_and_the_cases_still_run() -> None:
    """PROTO-31 PROFILE-2 Major mismatch: warned, but the cases are the judge."""
    document = _run(fake("profile_port", "2.0.0"))
    assert document["warnings"] == [
        "adapter implements profile echo 2.0.0, the suite has 1.2.0 (different major version)"
    ]
    assert all(c["status"] == "passed" for c in document["cases"])


def test_matrix_and_text_output_show_the_profile(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """PROFILE-6 `hrc run` prints a line per profile; `hrc report` adds a profile:NAME column."""
    report = tmp_path / "r.json"
    adapter = shlex.join(fake("profile_port"))
    code = cli.main(["run", "--golden", str(GOLDEN), "--adapter", adapter,
                     "--report-json", str(report)])
    out = capsys.readouterr().out
    assert code == 0
    assert "  profile echo 1.2.0 (declared): 3 passed, 0 failed, 0 skipped" in out
    assert cli.main(["report", str(report), "--markdown"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "| port | core | profile:echo | total | data |"
    assert lines[2] == "| fake 0.0.1 | 1/1 | 3/3 | 4/4 | ok |"


def test_bundle_carries_profiles_case_profile_and_data_hashes() -> None:
    """PROFILE-6 PROTO-29 The bundle names each case's profile and every data file's hash."""
    cases = _suite()
    bundle = build_bundle(cases, Suite.at(GOLDEN))
    assert bundle["profiles"] == {"echo": "1.2.0"}
    assert list(bundle["dataFiles"]) == ["profiles/echo/marks.json"]
    by_id = {c["id"]: c for c in bundle["cases"]}
    assert by_id["profiles/echo/reverse/ascii"]["profile"] == "echo"
    assert by_id["core/length/ascii"]["profile"] is None
    json.dumps(bundle, allow_nan=False)


def test_pytest_plugin_skips_an_undeclared_profile(pytester: pytest.Pytester) -> None:
    """PROFILE-6 Profile cases are pytest items; undeclared ones skip with the reason."""
    quiet = ("-p", "no:cacheprovider", "-p", "no:hypothesispytest", "-p", "no:syrupy")
    adapter = shlex.join(fake("profile_port", "none"))
    result = pytester.runpytest(
        *quiet, "-rs", "--hrc-adapter", adapter, "--hrc-golden", str(GOLDEN)
    )
    result.assert_outcomes(passed=2, skipped=3)
    result.stdout.fnmatch_lines(["*capability 'profile:echo' is not declared*"])
    selected = pytester.runpytest(
        *quiet, "--hrc-adapter", shlex.join(fake("profile_port")), "--hrc-golden", str(GOLDEN),
        "-k", "echo",
    )
    selected.assert_outcomes(passed=3)


def test_reference_declares_and_serves_every_profile_package(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """PROFILE-1 PROFILE-2 A reference/profiles/ package is declared, versioned and served."""
    import reference.profiles
    from conformance.adapters.adapter_reference import answer, hello_message
    from conformance.adapters.ops import registry

    package = tmp_path / "echo"
    package.mkdir()
    (package / "__init__.py").write_text(
        'VERSION = "1.2.0"\n'
        "OPERATIONS = {'echo.reverse': lambda data: {'reversed': data['text'][::-1]}}\n",
        encoding="utf-8",
    )
    monkeypatch.setattr(reference.profiles, "__path__", [str(tmp_path)])
    monkeypatch.delitem(sys.modules, "reference.profiles.echo", raising=False)
    handlers = registry()
    assert "echo.reverse" in handlers and "rrf" in handlers
    hello = hello_message(handlers)
    assert "profile:echo" in hello["capabilities"]
    assert hello["profiles"] == {"echo": "1.2.0"}
    request = {"type": "run", "seq": 1, "case": "profiles/echo/reverse/ascii",
               "op": "echo.reverse", "input": {"text": "abc"}}
    assert answer(handlers, request)["output"] == {"reversed": "cba"}
    assert consistency_problems(
        chapter_versions(KIT / "spec"), {"echo": hello["profiles"]["echo"]}
    ) == []
    monkeypatch.delitem(sys.modules, "reference.profiles.echo", raising=False)


def test_chapters_and_reference_profiles_must_agree() -> None:
    """PROFILE-2 A chapter needs a reference package of the same version, and the reverse."""
    assert consistency_problems({"a": "1.0.0"}, {"a": "1.1.0", "b": "1.0.0"}) == [
        "reference profile 'b' has no chapter spec/profiles/b.md",
        "reference profile 'a' is version 1.1.0, its chapter 1.0.0",
    ]
    assert consistency_problems({"c": "1.0.0"}, {}) == [
        "profile 'c' has a chapter but no reference/profiles/ package"
    ]


def test_shipped_profiles_have_matching_reference_packages() -> None:
    """PROFILE-1 Every spec/profiles/NAME.md of the kit has its reference package, same version."""
    from conformance.adapters.adapter_reference import reference_profiles
    from reference.data import kit_root

    shipped = chapter_versions(kit_root() / "spec")
    assert consistency_problems(shipped, reference_profiles()) == []
