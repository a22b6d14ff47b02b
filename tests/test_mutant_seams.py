"""Named seams: every reference name a broken port rebinds is declared by that port (`seams=`),
the declaration is what the port really rebinds, and a declared name that is gone stops the gate
(CONTRIBUTING.md, "Rules of the house")."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

from conformance.selftest.broken_ports import MUTANTS
from conformance.selftest.broken_ports.patching import Mutant, resolve, seam_problems

_DRY_RUN = textwrap.dedent(
    """
    import json, sys
    from conformance.selftest.broken_ports import MUTANTS, load_reference
    from conformance.selftest.broken_ports.patching import recording
    load_reference()
    out = {}
    for name, m in MUTANTS.items():
        with recording(dry=True) as rebound:
            m.apply()
        out[name] = sorted(rebound)
    json.dump(out, sys.stdout)
    """
)


def test_every_declared_seam_names_a_reference_binding() -> None:
    assert seam_problems() == []


def test_each_port_declares_exactly_what_it_rebinds() -> None:
    # In a child process: a dry patch still runs each port's set-up code.
    done = subprocess.run(
        [sys.executable, "-c", _DRY_RUN], capture_output=True, text=True, check=True
    )
    rebound = json.loads(done.stdout)
    wrong = {
        name: {"rebinds": names, "declares": sorted(MUTANTS[name].seams)}
        for name, names in rebound.items()
        if names != sorted(MUTANTS[name].seams)
    }
    assert wrong == {}
    assert set(rebound) == set(MUTANTS)


def test_a_renamed_reference_name_is_a_seam_problem() -> None:
    ghost = Mutant("ghost-seam", "RRF-2", "a port of a function since renamed", lambda: None,
                   ("reference.rrf.contribution_renamed", "reference.rrf.contribution"))
    MUTANTS[ghost.name] = ghost
    try:
        assert seam_problems([ghost.name]) == [
            "ghost-seam: seam reference.rrf.contribution_renamed names nothing"
        ]
    finally:
        del MUTANTS[ghost.name]


def test_resolve_reads_modules_classes_hooks_and_shadowed_builtins() -> None:
    assert resolve("reference.rrf.fuse")
    assert resolve("reference.fanout.len")  # a builtin shadowed on the module
    assert not resolve("reference.rrf.no_such_name")
    assert not resolve("reference.no_such_module.fuse")


def test_activate_refuses_a_port_whose_patch_differs_from_its_declaration() -> None:
    code = textwrap.dedent(
        """
        from conformance.selftest.broken_ports.patching import MUTANTS, Mutant, _mod, activate, swap
        MUTANTS["liar"] = Mutant("liar", "RRF-2", "declares one name, rebinds another",
                                 lambda: swap(_mod("reference.rrf"), "order", lambda f: f),
                                 ("reference.rrf.contribution",))
        activate("liar")
        """
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode != 0
    assert "rebinds ['reference.rrf.order'] but declares seams ['reference.rrf.contribution']" in (
        done.stderr
    )
