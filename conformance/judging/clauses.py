"""Spec clause ids: where they are defined and where cases and tests cite them (spec/README.md)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from conformance.judging.suite import kit_suite

DEFINITION = re.compile(r"^[ \t]*-[ \t]+\*\*([A-Z]+-[0-9]+)\*\*", re.MULTILINE)
CITATION = re.compile(r"\b([A-Z]+-[0-9]+)\b")


@dataclass(frozen=True)
class Clause:
    """A clause id and the spec file and line that define it."""

    id: str
    file: str
    line: int


def defined_clauses(spec_dir: Path | None = None) -> dict[str, Clause]:
    """Every `- **PREFIX-N**` definition in spec/*.md and spec/profiles/*.md (PROFILE-1);
    a clause defined twice is an error."""
    base = spec_dir or kit_suite().spec
    found: dict[str, Clause] = {}
    chapters = sorted(base.glob("*.md")) + sorted(base.glob("profiles/*.md"))
    for path in chapters:
        text = path.read_text(encoding="utf-8")
        for match in DEFINITION.finditer(text):
            cid = match.group(1)
            line = text.count("\n", 0, match.start()) + 1
            if cid in found:
                first = found[cid]
                raise ValueError(
                    f"{path.name}:{line}: clause {cid} already defined at {first.file}:{first.line}"
                )
            found[cid] = Clause(cid, path.relative_to(base).as_posix(), line)
    return found


def cited_in_texts(texts: Iterable[str], known_prefixes: set[str]) -> set[str]:
    """Clause ids mentioned in free text, restricted to prefixes the spec defines."""
    out: set[str] = set()
    for text in texts:
        for match in CITATION.finditer(text):
            cid = match.group(1)
            if cid.split("-")[0] in known_prefixes:
                out.add(cid)
    return out
