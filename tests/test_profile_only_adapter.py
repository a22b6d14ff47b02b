"""PROFILE-8: a standalone profile is a conformance target of its own. A port that implements
only a profile's operations, and none of the core's, runs every case of that profile, and the
profile's schemas require no member of a stage its system does not have."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fake_adapters.support import HERE
from profile_chapters import chapter_versions

from conformance.judging import profiles
from conformance.judging.cases import load_all
from conformance.judging.selection import select
from conformance.running.results import RunOptions
from conformance.running.runner import run_suite
from reference.data import kit_root

SPEC = kit_root() / "spec"
STANDALONE = sorted(
    name for name in chapter_versions(SPEC)
    if profiles.kind(SPEC, name) == profiles.STANDALONE
)
#: Trace and output members that only jeffs-brain's own stages write (spec/trace.md): the retry
#: ladder and fanout, the compiled query DSL, the unanimity shortcut, trigram rescue and the
#: anchor's intent table. A seed system that lacks the stage cannot be asked for them.
CORE_ONLY_MEMBERS = frozenset({
    "ladder", "rungs", "rung", "firstPass", "expression", "compiled", "unanimity", "trigram",
    "intentTable", "requestedMode", "fellBackToBM25",
})


def test_every_seed_system_profile_stands_alone() -> None:
    """The four profiles of seeds 001-004 are standalone (temporal, the anchor's own, extends)."""
    assert STANDALONE == ["bm25-okapi", "engram", "gbrain", "scoped-fusion"]


@pytest.mark.parametrize("name", STANDALONE)
def test_a_port_of_the_profile_alone_passes_every_case_of_it(name: str) -> None:
    """Declaring only `profile:NAME` and the `NAME.*` operations: no case of the profile is
    `not_applicable` for want of a core operation or capability, and every one passes."""
    cases = select(load_all(), [f"profile:{name}"])
    assert cases, f"profile {name} has no cases"
    argv = [sys.executable, str(HERE / "profile_only.py"), name]
    run = run_suite(cases, argv, RunOptions(timeout=20))
    failed = {r.case.id: f"{r.status}: {r.message}" for r in run.results if r.status != "passed"}
    assert failed == {}, f"{len(failed)} of {len(cases)} cases of {name} did not pass"
    assert len(run.results) == len(cases)


def _required_names(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        required = node.get("required")
        if isinstance(required, list):
            yield from (r for r in required if isinstance(r, str))
        for value in node.values():
            yield from _required_names(value)
    elif isinstance(node, list):
        for value in node:
            yield from _required_names(value)


@pytest.mark.parametrize("name", STANDALONE)
def test_the_profile_schemas_require_no_member_of_a_core_only_stage(name: str) -> None:
    """No schema under schemas/profiles/NAME/ requires a ladder, DSL, unanimity, trigram or
    anchor-intent member: an honest trace of the system can always be written."""
    folder = kit_root() / "schemas" / "profiles" / name
    schemas = sorted(folder.glob("*.json"))
    assert schemas, f"{folder}: no schemas"
    found = {
        (path.name, member)
        for path in schemas
        for member in _required_names(json.loads(path.read_text(encoding="utf-8")))
        if member in CORE_ONLY_MEMBERS
    }
    assert found == set()


def test_the_fake_port_declares_no_core_operation() -> None:
    """The check above means something only if the fake port really lacks the core."""
    text = (Path(HERE) / "profile_only.py").read_text(encoding="utf-8")
    assert 'op.startswith(NAME + ".")' in text and 'capabilities=[f"profile:{NAME}"]' in text
