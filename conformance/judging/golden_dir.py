"""Which golden directory a run reads, and when a local one shadows the kit's."""

from __future__ import annotations

from pathlib import Path

from conformance.judging.suite import kit_suite


def shadowed_golden(golden: Path | None, cwd: Path | None = None) -> str | None:
    """A warning when the working directory holds a `golden/` that a run without `--golden`
    does not read (the installed kit's cases are used instead), else None."""
    if golden is not None:
        return None
    here = (cwd or Path.cwd()) / "golden"
    used = kit_suite().golden
    if not here.is_dir() or here.resolve() == used.resolve():
        return None
    return (f"./golden is not the suite this run uses: the cases come from {used} (the "
            "installed kit); pass --golden golden to use yours, or `pip install -e .` here")
