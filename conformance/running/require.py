"""`hrc run --require`: coverage a run must reach, or it fails (PROTO-42).

A port that declares little passes everything it declares: without a floor on coverage a green
run can test nothing (the JavaScript port without its optional FTS5 package skipped 61 cases and
exited 0). A requirement is one of

- `all`: every selected case is applicable (its operation and capabilities are declared);
- `stage:NAME`: every selected case of stage NAME (its golden folder; `profile:NAME` for a
  profile's cases) is applicable;
- `op:NAME`: the hello declares operation NAME;
- anything else is a capability name the hello must declare (`sqlite-fts5`, `profile:NAME`).

Requirements are given as repeated `--require` options or comma-separated. A name the suite and
the spec do not know is a usage error (exit 2), so a typo cannot pass silently.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from conformance.adapters.protocol import Hello
from conformance.common.errors import HrcError
from conformance.judging import profiles
from conformance.judging.cases import Case

_CAP_ROW = re.compile(r"^\|\s*`([^`]+)`\s*\|")


@dataclass(frozen=True)
class Requirement:
    """One `--require` item: kind `all`, `stage`, `op` or `capability`, and its name."""

    kind: str
    name: str

    @property
    def text(self) -> str:
        if self.kind == "all":
            return "all"
        if self.kind == "capability":
            return self.name
        return f"{self.kind}:{self.name}"


@dataclass(frozen=True)
class Verdict:
    """Whether a requirement was met, and what is missing (case ids, or the declared name)."""

    requirement: Requirement
    met: bool
    missing: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"requirement": self.requirement.text, "met": self.met, "missing": self.missing}

    def describe(self) -> str:
        req = self.requirement
        if self.met:
            return f"--require {req.text}: met"
        if req.kind in ("op", "capability"):
            what = "operation" if req.kind == "op" else "capability"
            return f"--require {req.text}: the adapter does not declare {what} {req.name!r}"
        shown = ", ".join(self.missing[:5]) + (" ..." if len(self.missing) > 5 else "")
        return f"--require {req.text}: {len(self.missing)} case(s) not applicable: {shown}"


def parse(items: Iterable[str]) -> list[Requirement]:
    """Requirements from `--require` values (repeatable, comma-separated)."""
    out: list[Requirement] = []
    for item in items:
        for text in (t.strip() for t in item.split(",")):
            if not text:
                raise HrcError("--require: empty requirement")
            if text == "all":
                req = Requirement("all", "")
            elif text.startswith("stage:"):
                req = Requirement("stage", text.removeprefix("stage:"))
            elif text.startswith("op:"):
                req = Requirement("op", text.removeprefix("op:"))
            else:
                req = Requirement("capability", text)
            if req not in out:
                out.append(req)
    return out


def spec_capabilities(spec_dir: Path) -> frozenset[str]:
    """Capability names of spec/operations.md's capability table and of the shipped profiles."""
    names: set[str] = set()
    in_table = False
    path = spec_dir / "operations.md"
    lines = path.read_text(encoding="utf-8").splitlines() if path.is_file() else []
    for line in lines:
        if line.startswith("| capability |"):
            in_table = True
            continue
        if not line.startswith("|"):
            in_table = False
            continue
        match = _CAP_ROW.match(line)
        if in_table and match and "NAME" not in match.group(1):
            names.add(match.group(1))
    folder = spec_dir / profiles.PROFILES_DIR
    if folder.is_dir():
        names |= {profiles.capability(p.stem) for p in folder.glob("*.md")}
    return frozenset(names)


def check_names(
    reqs: Sequence[Requirement], suite: Sequence[Case], known_ops: frozenset[str], spec_dir: Path
) -> None:
    """Raise HrcError for a stage, operation or capability neither the suite nor the spec has."""
    stages = {c.stage for c in suite}
    caps = spec_capabilities(spec_dir) | {r for c in suite for r in c.requires}
    for req in reqs:
        if req.kind == "stage" and req.name not in stages:
            raise HrcError(f"--require {req.text}: no stage {req.name!r} in the suite "
                           f"(stages: {', '.join(sorted(stages))})")
        if req.kind == "op" and req.name not in known_ops:
            raise HrcError(f"--require {req.text}: unknown operation {req.name!r}")
        if req.kind == "capability" and req.name not in caps:
            hint = ""
            if req.name in known_ops or req.name in stages:
                hint = f" (for an operation or a stage write op:{req.name} or stage:{req.name})"
            raise HrcError(f"--require {req.text}: unknown capability {req.name!r}{hint}")


def evaluate(reqs: Sequence[Requirement], cases: Sequence[Case], hello: Hello) -> list[Verdict]:
    """Each requirement against the hello and the selected cases (PROTO-42)."""
    out: list[Verdict] = []
    for req in reqs:
        if req.kind == "op":
            out.append(Verdict(req, req.name in hello.operations))
            continue
        if req.kind == "capability":
            out.append(Verdict(req, req.name in hello.capabilities))
            continue
        scope = [c for c in cases if req.kind == "all" or c.stage == req.name]
        missing = [c.id for c in scope if hello.not_applicable_reason(c.op, c.requires)]
        out.append(Verdict(req, not missing, missing))
    return out
