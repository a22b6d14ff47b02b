"""Load golden case files: safe YAML, schema validation, unique ids, errors with file and line.

Format: golden/README.md; schema: schemas/case-file.schema.json.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import yaml

from reference.data import kit_root


class CaseFileError(ValueError):
    """A golden file is malformed; the message starts with `path:line:`."""


@dataclass(frozen=True)
class Case:
    """One golden case, with where it came from."""

    id: str
    op: str
    description: str
    clauses: tuple[str, ...]
    input: dict[str, Any]
    expect: dict[str, Any]
    file: str
    line: int
    tags: tuple[str, ...] = ()
    requires: tuple[str, ...] = ()
    stage: str = field(default="")

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "op": self.op,
            "stage": self.stage,
            "description": self.description,
            "clauses": list(self.clauses),
            "tags": list(self.tags),
            "requires": list(self.requires),
            "input": self.input,
            "expect": self.expect,
            "source": f"{self.file}:{self.line}",
        }


def golden_dir() -> Path:
    return kit_root() / "golden"


def schemas_dir() -> Path:
    return kit_root() / "schemas"


@cache
def _validator(name: str) -> jsonschema.Draft202012Validator:
    schema = json.loads((schemas_dir() / name).read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator(schema)


def schema_validator(name: str) -> jsonschema.Draft202012Validator:
    """Validator for schemas/<name> (cached)."""
    return _validator(name)


def _line_of(node: yaml.Node, path: Sequence[str | int]) -> int:
    """1-based line of the YAML node at `path` (deepest node found)."""
    current = node
    for key in path:
        if isinstance(current, yaml.MappingNode) and isinstance(key, str):
            nxt = next((v for k, v in current.value if getattr(k, "value", None) == key), None)
        elif isinstance(current, yaml.SequenceNode) and isinstance(key, int):
            nxt = current.value[key] if 0 <= key < len(current.value) else None
        else:
            nxt = None
        if nxt is None:
            break
        current = nxt
    return int(current.start_mark.line) + 1


def _rel(path: Path) -> str:
    try:
        return str(path.relative_to(kit_root()))
    except ValueError:
        return str(path)


def load_file(path: Path) -> list[Case]:
    """Parse and validate one case file; raises CaseFileError with `path:line: message`."""
    rel = _rel(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise CaseFileError(f"{rel}:1: cannot read: {exc}") from exc
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else 1
        raise CaseFileError(f"{rel}:{line}: invalid YAML: {exc}") from exc
    if node is None:
        raise CaseFileError(f"{rel}:1: empty case file")
    errors = sorted(schema_validator("case-file.schema.json").iter_errors(data), key=str)
    if errors:
        err = min(errors, key=lambda e: len(e.absolute_path))
        where = list(err.absolute_path)
        line = _line_of(node, where)
        loc = "/".join(str(p) for p in where) or "(root)"
        raise CaseFileError(f"{rel}:{line}: schema violation at {loc}: {err.message}")
    stage = path.parent.name
    cases: list[Case] = []
    for i, raw in enumerate(data["cases"]):
        cases.append(
            Case(
                id=raw["id"],
                op=data["op"],
                description=raw["description"],
                clauses=tuple(raw["clauses"]),
                input=raw["input"],
                expect=raw["expect"],
                file=rel,
                line=_line_of(node, ["cases", i]),
                tags=tuple(raw.get("tags", ())),
                requires=tuple(raw.get("requires", ())),
                stage=stage,
            )
        )
    return cases


def case_files(root: Path | None = None) -> list[Path]:
    base = root or golden_dir()
    return sorted(p for p in base.rglob("*.yaml") if p.is_file())


def load_all(files: Iterable[Path] | None = None) -> list[Case]:
    """Every case of every file, checked for id uniqueness across files."""
    seen: dict[str, Case] = {}
    out: list[Case] = []
    for path in files if files is not None else case_files():
        for case in load_file(path):
            if case.id in seen:
                first = seen[case.id]
                raise CaseFileError(
                    f"{case.file}:{case.line}: duplicate case id {case.id!r} "
                    f"(first defined at {first.file}:{first.line})"
                )
            seen[case.id] = case
            out.append(case)
    return out
