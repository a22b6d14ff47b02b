"""Locate and load the spec's data files (spec/data/*), failing loudly when one is missing.

A missing data file is a packaging bug, never an empty table (spec/README.md#data-files).
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path
from typing import Any


class SpecDataError(RuntimeError):
    """A spec data file is missing or malformed."""


@cache
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


#: name -> SHA-256 hex of the bytes each load_json call parsed (the hello's dataFiles, PROTO-28).
_LOADED: dict[str, str] = {}


@cache
def load_json(name: str) -> Any:
    """Parse spec/data/<name> as JSON (cached); raises SpecDataError on a missing or bad file."""
    path = data_path(name)
    try:
        raw = path.read_bytes()
        value = json.loads(raw.decode("utf-8"))
    except (OSError, ValueError) as exc:
        raise SpecDataError(f"cannot read spec data file {path}: {exc}") from exc
    _LOADED[name] = hashlib.sha256(raw).hexdigest()
    return value


def loaded_files() -> dict[str, str]:
    """Every spec data file loaded so far: name -> SHA-256 hex of the bytes read (PROTO-28)."""
    return dict(sorted(_LOADED.items()))


def data_file_names() -> list[str]:
    """Names (relative to spec/data, `/`-separated) of every `**/*.json` data file."""
    base = kit_root() / "spec" / "data"
    return sorted(p.relative_to(base).as_posix() for p in base.rglob("*.json") if p.is_file())
