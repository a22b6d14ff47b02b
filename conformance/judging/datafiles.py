"""The data check: the spec/data files a port loaded against the kit's own (PROTO-28..30).

The adapter's hello reports `dataFiles: {"<name relative to spec/data>": "<sha256 hex>"}`
for every file it loaded. A stale or unknown file fails the run; a kit file the port did not
load is listed but is not a failure; no `dataFiles` at all is a warning. File names are never
hard-coded here: the kit's side is every `spec/data/**/*.json`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: Per-file verdicts, in report order. `stale` and `unknown` fail the run (PROTO-29).
FILE_STATUSES: tuple[str, ...] = ("stale", "unknown", "not_loaded", "ok")
FAILING_FILE_STATUSES = frozenset({"stale", "unknown"})


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def kit_hashes(data_dir: Path) -> dict[str, str]:
    """SHA-256 of every `**/*.json` under `data_dir`, keyed by its `/`-separated relative name."""
    out: dict[str, str] = {}
    for path in sorted(data_dir.rglob("*.json")):
        if path.is_file():
            out[path.relative_to(data_dir).as_posix()] = sha256_hex(path.read_bytes())
    return out


@dataclass(frozen=True)
class DataFile:
    """One file name and its verdict; `kit`/`adapter` are the hashes (None when absent)."""

    name: str
    status: str
    kit: str | None
    adapter: str | None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "status": self.status}
        if self.kit is not None:
            out["kit"] = self.kit
        if self.adapter is not None:
            out["adapter"] = self.adapter
        return out

    def describe(self) -> str:
        if self.status == "stale":
            return (
                f"{self.name}: stale (adapter loaded sha256 {self.adapter}, "
                f"the kit ships {self.kit})"
            )
        if self.status == "unknown":
            return f"{self.name}: unknown (the kit ships no spec/data file of this name)"
        if self.status == "not_loaded":
            return f"{self.name}: not loaded by the adapter"
        return f"{self.name}: ok"


@dataclass(frozen=True)
class DataCheck:
    """The verdict on a hello's `dataFiles`: `ok`, `failed` or `unreported` (PROTO-29/30)."""

    status: str
    files: tuple[DataFile, ...] = ()

    @property
    def failed(self) -> bool:
        return self.status == "failed"

    def problems(self) -> list[DataFile]:
        return [f for f in self.files if f.status in FAILING_FILE_STATUSES]

    def to_json(self) -> dict[str, Any]:
        return {"status": self.status, "files": [f.to_json() for f in self.files]}

    def summary(self) -> str:
        """One line naming only the non-zero counts, e.g. `failed: 1 stale, 2 not loaded,
        1 matching the kit` or `ok (nothing stale or unknown): 10 not loaded`."""
        counts = {s: sum(f.status == s for f in self.files) for s in FILE_STATUSES}
        if self.status == "unreported":
            return "unreported: the adapter's hello has no dataFiles"
        parts = ", ".join(
            f"{counts[s]} {_FILE_LABELS.get(s, s)}" for s in FILE_STATUSES if counts[s]
        )
        head = "ok (nothing stale or unknown)" if self.status == "ok" else self.status
        return f"{head}: {parts or 'no files'}"


#: How the one-line summary names each file status ("ok" alone read as the whole check's).
_FILE_LABELS = {"not_loaded": "not loaded", "ok": "matching the kit"}


def check(reported: Mapping[str, str] | None, kit: Mapping[str, str]) -> DataCheck:
    """Compare a hello's `dataFiles` with the kit's hashes (PROTO-29, PROTO-30)."""
    if reported is None:
        return DataCheck("unreported")
    files: list[DataFile] = []
    for name in sorted(set(kit) | set(reported)):
        ours, theirs = kit.get(name), reported.get(name)
        if ours is None:
            status = "unknown"
        elif theirs is None:
            status = "not_loaded"
        elif theirs != ours:
            status = "stale"
        else:
            status = "ok"
        files.append(DataFile(name, status, ours, theirs))
    failed = any(f.status in FAILING_FILE_STATUSES for f in files)
    return DataCheck("failed" if failed else "ok", tuple(files))
