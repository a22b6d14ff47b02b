"""Where one suite lives: its case files, the spec beside them, that spec's data and the kit's
schemas. Built once per command (and once by the pytest plugin) and passed down, so every
room reads the same folders (docs/architecture.md, "The Suite value")."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from reference.data import kit_root


@dataclass(frozen=True)
class Suite:
    """`golden` as given (`--golden DIR`) or the kit's; `spec` is `../spec` beside a given
    golden folder when there is one, else the kit's (a third-party suite ships its own)."""

    golden: Path
    spec: Path
    schemas: Path

    @property
    def data(self) -> Path:
        """The spec's data files (spec/README.md: ports load these bytes)."""
        return self.spec / "data"

    @classmethod
    def at(cls, golden: Path | None) -> Suite:
        """The suite of `--golden` (None: the kit's own)."""
        if golden is None:
            return kit_suite()
        beside = golden.resolve().parent / "spec"
        spec = beside if beside.is_dir() else kit_root() / "spec"
        return cls(golden=golden, spec=spec, schemas=kit_root() / "schemas")


@cache
def kit_suite() -> Suite:
    """The kit's own suite: golden/, spec/ and schemas/ of the checkout."""
    root = kit_root()
    return Suite(golden=root / "golden", spec=root / "spec", schemas=root / "schemas")
