"""Locate and load the spec's data files (spec/data/*), failing loudly when one is missing.

A missing data file is a packaging bug, never an empty table (spec/README.md#data-files).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any


class SpecDataError(RuntimeError):
    """A spec data file is missing or malformed."""


def kit_root() -> Path:
    """Directory holding spec/, golden/ and schemas/: the repo checkout or the installed wheel."""
    here = Path(__file__).resolve().parent
    candidates = [here.parent, here.parent / "conformance" / "_kit"]
    for root in candidates:
        if (root / "spec" / "data").is_dir():
            return root
    raise SpecDataError(
        "cannot find spec/data next to the reference package; looked in: "
        + ", ".join(str(c) for c in candidates)
    )


def data_path(name: str) -> Path:
    """Path of spec/data/<name>; raises SpecDataError if it does not exist."""
    path = kit_root() / "spec" / "data" / name
    if not path.is_file():
        raise SpecDataError(f"spec data file missing: {path}")
    return path


@cache
def load_json(name: str) -> Any:
    """Parse spec/data/<name> as JSON (cached); raises SpecDataError on a missing or bad file."""
    path = data_path(name)
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise SpecDataError(f"cannot read spec data file {path}: {exc}") from exc
