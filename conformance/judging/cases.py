"""Load golden case files: safe YAML, schema validation, unique ids, errors with file and line.

Format: golden/README.md; schema: schemas/case-file.schema.json.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

import yaml

from conformance.common import input_files, yaml_loader
from conformance.common.yaml_errors import invalid_yaml_message
from conformance.judging import capabilities, case_cache, profiles
from conformance.judging.schemas import schema_validator
from conformance.judging.suite import Suite, kit_suite
from reference.data import kit_root


class CaseFileError(ValueError):
    """A golden file is malformed; the message starts with `path:line:`."""


def _invalid_yaml(rel: str, exc: yaml.YAMLError, text: str) -> CaseFileError:
    """A YAML error as one line `path:line: invalid YAML: ...` (conformance/common/yaml_errors.py);
    a character YAML refuses is reported at its own line in `text`."""
    return CaseFileError(invalid_yaml_message(rel, exc, text))


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
    #: the profile this case belongs to (golden/profiles/NAME/), None for the core (PROFILE-3).
    profile: str | None = None
    #: DSL-23: the id of the case this `#canonical` case was derived from.
    derived_from: str | None = None

    def to_json(self) -> dict[str, Any]:
        extra = {"derivedFrom": self.derived_from} if self.derived_from is not None else {}
        return {
            "id": self.id,
            "op": self.op,
            "stage": self.stage,
            "description": self.description,
            "clauses": list(self.clauses),
            "tags": list(self.tags),
            "requires": list(self.requires),
            "profile": self.profile,
            "input": self.input,
            "expect": self.expect,
            "source": f"{self.file}:{self.line}",
            **extra,
        }


def golden_dir() -> Path:
    return kit_suite().golden


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


#: The kit's one YAML loader (conformance/common/yaml_loader.py).
_Loader: Any = yaml_loader.Loader
_JSON_NUMBER = re.compile(r"-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?")
_PORTABLE_BOOLS = {"true", "false"}
#: A plain scalar YAML 1.2's core schema (js-yaml, yaml.v3, SnakeYAML Engine) reads as a number.
_CORE_NUMBER = re.compile(
    r"[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+|[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?"
    r"|[-+]?\.(inf|Inf|INF)|\.(nan|NaN|NAN)"
)


#: Bounds on a case file, checked on the event stream before anything is built or walked, so
#: a hostile file fails with `path:line` instead of a segfault or a minute-long alias walk.
MAX_CASE_FILE_BYTES = 16 * 1024 * 1024
MAX_YAML_DEPTH = 64
#: Nodes after alias expansion (a 9-level alias bomb stands for billions).
MAX_YAML_NODES = 1_000_000
_JSON_TAGS = {
    yaml.ScalarNode: {
        "tag:yaml.org,2002:str",
        "tag:yaml.org,2002:int",
        "tag:yaml.org,2002:float",
        "tag:yaml.org,2002:bool",
        "tag:yaml.org,2002:null",
    },
    yaml.SequenceNode: {"tag:yaml.org,2002:seq"},
    yaml.MappingNode: {"tag:yaml.org,2002:map"},
}


def check_yaml_bounds(text: str, rel: str) -> None:
    """Refuse a file that is too large, nests deeper than MAX_YAML_DEPTH or expands (through
    aliases) to more than MAX_YAML_NODES nodes; iterative, on libyaml's event stream."""
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_CASE_FILE_BYTES:
        raise CaseFileError(f"{rel}:1: file of {size} bytes exceeds {MAX_CASE_FILE_BYTES}")
    loader = _Loader(text)
    sizes: dict[str, int] = {}
    open_nodes: list[tuple[str | None, int]] = []
    total = 0
    try:
        while loader.check_event():
            event = loader.get_event()
            line = event.start_mark.line + 1 if event.start_mark is not None else 1
            grown = 0
            if isinstance(event, yaml.CollectionStartEvent):
                if len(open_nodes) >= MAX_YAML_DEPTH:
                    raise CaseFileError(
                        f"{rel}:{line}: YAML nests deeper than {MAX_YAML_DEPTH} levels"
                    )
                open_nodes.append((event.anchor, 1))
                continue
            if isinstance(event, yaml.CollectionEndEvent):
                anchor, grown = open_nodes.pop()
                if anchor is not None:
                    sizes[anchor] = grown
            elif isinstance(event, yaml.ScalarEvent):
                grown = 1
                if event.anchor is not None:
                    sizes[event.anchor] = 1
            elif isinstance(event, yaml.AliasEvent):
                grown = sizes.get(event.anchor or "", 1)
            else:
                continue
            if open_nodes:
                anchor, count = open_nodes[-1]
                count += grown
                open_nodes[-1] = (anchor, count)
                reached = count
            else:
                total += grown
                reached = total
            if reached > MAX_YAML_NODES:
                raise CaseFileError(
                    f"{rel}:{line}: YAML expands to more than {MAX_YAML_NODES} nodes "
                    "(aliases count once per use)"
                )
    except yaml.YAMLError as exc:
        raise _invalid_yaml(rel, exc, text) from exc
    finally:
        loader.dispose()


def _non_json_scalar(node: yaml.Node) -> str | None:
    """Why `node` is not a JSON value (a !!binary, !!set, !!timestamp, ... or a number
    outside binary64), or None."""
    allowed = _JSON_TAGS.get(type(node), set())
    if node.tag not in allowed:
        return f"YAML type {node.tag} has no JSON form; case files hold JSON values only"
    if not isinstance(node, yaml.ScalarNode):
        return None
    if node.tag == "tag:yaml.org,2002:int":
        digits = len(node.value.lstrip("+-"))
        if digits > 309:
            return f"an integer of {digits} digits is outside the binary64 range"
    if node.tag == "tag:yaml.org,2002:float":
        try:
            value = float(node.value.replace("_", ""))
        except ValueError:
            return "not a finite JSON number"
        if not math.isfinite(value):
            return "not a finite JSON number (outside the binary64 range, or .inf/.nan)"
    return None


def _lint_node(node: yaml.Node, rel: str) -> None:
    """Reject YAML that other loaders read differently: duplicate keys, YAML 1.1-only scalars.

    PyYAML keeps the last of two equal keys and reads `yes`, `0x1F`, `1e-7` (a string!),
    `2024-01-01` in YAML 1.1 ways; a port reading the file with a YAML 1.2 loader would see
    other values. Quote such scalars, or write numbers in JSON form (`1.0e-7` is fine).
    """
    stack = [node]
    seen_nodes: set[int] = set()
    while stack:
        current = stack.pop()
        if id(current) in seen_nodes:
            continue  # an alias: its node was checked where it was anchored
        seen_nodes.add(id(current))
        plain = isinstance(current, yaml.ScalarNode) and not current.style
        kind = None if plain else _non_json_scalar(current)  # plain: the message below
        if kind is not None:
            raise CaseFileError(f"{rel}:{current.start_mark.line + 1}: {kind}")
        if isinstance(current, yaml.MappingNode):
            seen: dict[str, int] = {}
            for key, value in current.value:
                if isinstance(key, yaml.ScalarNode):
                    line = key.start_mark.line + 1
                    if key.value in seen:
                        raise CaseFileError(
                            f"{rel}:{line}: duplicate key {key.value!r} "
                            f"(first at line {seen[key.value]})"
                        )
                    seen[key.value] = line
                stack.append(key)
                stack.append(value)
        elif isinstance(current, yaml.SequenceNode):
            stack.extend(current.value)
        elif isinstance(current, yaml.ScalarNode) and not current.style:  # plain
            problem = _ambiguous_plain_scalar(current) or _non_json_scalar(current)
            if problem:
                line = current.start_mark.line + 1
                raise CaseFileError(
                    f"{rel}:{line}: ambiguous YAML scalar {current.value!r}: {problem}"
                )


def _ambiguous_plain_scalar(node: yaml.ScalarNode) -> str | None:
    tag, value = node.tag, node.value
    if tag == "tag:yaml.org,2002:bool" and value.lower() not in _PORTABLE_BOOLS:
        return "YAML 1.1 reads it as a boolean, YAML 1.2 as a string; write true/false or quote it"
    if tag in ("tag:yaml.org,2002:int", "tag:yaml.org,2002:float"):
        if not _JSON_NUMBER.fullmatch(value):
            return "YAML loaders disagree on this number; write it in JSON form or quote it"
        return None
    if tag == "tag:yaml.org,2002:str" and (
        _JSON_NUMBER.fullmatch(value) or _CORE_NUMBER.fullmatch(value)
    ):
        return (
            "PyYAML reads it as a string, other loaders as a number; "
            "write a float with a dot and a signed exponent (1.0e-7, 1.0e+7) or quote it"
        )
    if tag == "tag:yaml.org,2002:timestamp":
        return "PyYAML reads it as a date; quote it"
    return None


def load_file(path: Path, root: Path | None = None, *, suite: Suite | None = None) -> list[Case]:
    """Parse and validate one case file; raises CaseFileError with `path:line: message`.

    The file belongs to `suite` (default: the one of golden folder `root`, else the kit's); a
    file under `golden/profiles/NAME/` belongs to profile NAME (PROFILE-3).
    """
    rel = _rel(path)
    try:  # a regular file, bounded; a bad byte is reported at its line (issue 29)
        text = input_files.decode(rel, input_files.read_bytes(path, MAX_CASE_FILE_BYTES))
    except input_files.InputFileError as exc:
        if exc.size is not None:
            raise CaseFileError(
                f"{rel}:1: file of {exc.size} bytes exceeds {MAX_CASE_FILE_BYTES}"
            ) from None
        prefix = "" if exc.line is not None else "cannot read: "
        raise CaseFileError(f"{rel}:{exc.line or 1}: {prefix}{exc.message}") from None
    where = suite if suite is not None else Suite.at(root)
    profile = profile_of_path(path, where.golden)
    stage = path.parent.name if profile is None else profiles.capability(profile)
    key = case_cache.entry_key(text, rel, stage, profile, where.spec)
    records = case_cache.cached(
        key,
        text,
        lambda: [
            case_record(c) for c in load_text(text, rel, stage, profile=profile, spec=where.spec)
        ],
        lambda stored: valid_records(stored, rel, stage, profile),
    )
    return [case_from_record(r) for r in records]


_TUPLE_FIELDS = ("clauses", "tags", "requires")


def case_record(case: Case) -> dict[str, Any]:
    """Every field of a case as JSON values (the case cache's stored form)."""
    record = {f.name: getattr(case, f.name) for f in fields(Case)}
    for name in _TUPLE_FIELDS:
        record[name] = list(record[name])
    return record


_RECORD_TEXT = ("id", "op", "description", "file", "stage")
_RECORD_OPTIONAL_TEXT = ("profile", "derived_from")


def valid_records(records: list[Any], rel: str, stage: str, profile: str | None) -> bool:
    """Whether stored records can be the cases of file `rel`: a non-empty list (a case file
    holds at least one case) of records with exactly Case's fields, each of its type, and this
    file's name, stage and profile (the case cache's check of what it loads)."""
    names = {f.name for f in fields(Case)}
    if not records:
        return False
    for r in records:
        if not isinstance(r, dict) or set(r) != names:
            return False
        if not all(isinstance(r[k], str) for k in _RECORD_TEXT):
            return False
        if not all(r[k] is None or isinstance(r[k], str) for k in _RECORD_OPTIONAL_TEXT):
            return False
        if not all(
            isinstance(r[k], list) and all(isinstance(v, str) for v in r[k])
            for k in _TUPLE_FIELDS
        ):
            return False
        line = r["line"]
        if type(line) is not int or line < 1:
            return False
        if not isinstance(r["input"], dict) or not isinstance(r["expect"], dict):
            return False
        if (r["file"], r["stage"], r["profile"]) != (rel, stage, profile):
            return False
    return True


def case_from_record(record: dict[str, Any]) -> Case:
    """The case of `case_record`'s output."""
    values = dict(record)
    for name in _TUPLE_FIELDS:
        values[name] = tuple(values[name])
    return Case(**values)


def profile_of_path(path: Path, root: Path) -> str | None:
    """NAME for a file under `root/profiles/NAME/`, None for a core file (PROFILE-1)."""
    try:
        parts = path.resolve().relative_to(root.resolve()).parts
    except ValueError:
        return None
    if len(parts) >= 3 and parts[0] == profiles.PROFILES_DIR:
        return parts[1]
    return None


def load_text(
    text: str,
    rel: str,
    stage: str,
    profile: str | None = None,
    spec: Path | None = None,
) -> list[Case]:
    """Parse and validate the text of a case file named `rel` in folder `stage`.

    `profile` names the profile the file belongs to; `spec` is the suite's spec, whose data
    names the optional data tables (default: the kit's).
    """
    check_yaml_bounds(text, rel)
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            raise CaseFileError(f"{rel}:1: empty case file")
        _lint_node(node, rel)
        data = loader.construct_document(node)
    except yaml.YAMLError as exc:
        raise _invalid_yaml(rel, exc, text) from exc
    finally:
        loader.dispose()
    errors = sorted(schema_validator("case-file.schema.json").iter_errors(data), key=str)
    if errors:
        err = min(errors, key=lambda e: len(e.absolute_path))
        where = list(err.absolute_path)
        line = _line_of(node, where)
        loc = "/".join(str(p) for p in where) or "(root)"
        raise CaseFileError(f"{rel}:{line}: schema violation at {loc}: {err.message}")
    spec = spec if spec is not None else kit_suite().spec
    _check_op(data["op"], spec, f"{rel}:{_line_of(node, ['op'])}")
    cases: list[Case] = []
    for i, raw in enumerate(data["cases"]):
        line = _line_of(node, ["cases", i])
        requires = _checked_requires(data["op"], raw, profile, spec, f"{rel}:{line}")
        _check_absent(raw, f"{rel}:{line}")
        case = Case(
            id=raw["id"],
            op=data["op"],
            description=raw["description"],
            clauses=tuple(raw["clauses"]),
            input=raw["input"],
            expect=raw["expect"],
            file=rel,
            line=line,
            tags=tuple(raw.get("tags", ())),
            requires=requires,
            stage=stage,
            profile=profile,
        )
        cases.extend(with_meaning(case, raw.get("fixture")))
    return cases


def _check_absent(raw: dict[str, Any], where: str) -> None:
    """PROTO-47: a pointer of `expect.absent` may not name a value of the case's own output."""
    from conformance.judging.pointer import resolve_pointer

    expect = raw["expect"]
    for pointer in expect.get("absent", ()):
        if resolve_pointer(expect["output"], pointer)[0]:
            raise CaseFileError(
                f"{where}: case {raw['id']}: expect.absent lists {pointer!r}, which its own "
                "expected output holds"
            )


def _checked_requires(
    op: str, raw: dict[str, Any], profile: str | None, spec: Path, where: str
) -> tuple[str, ...]:
    """The case's `requires`, checked against its input and its place (PROTO-27, PROFILE-3/4/8).

    A profile case gets `profile:NAME` added here, never by hand; a core case may not name a
    profile, a profile operation or a `profiles/` id.
    """
    case_id: str = raw["id"]
    requires = list(raw.get("requires", ()))
    problems: list[str] = []
    op_owner = profiles.op_profile(op)
    if profile is not None:
        if not profiles.NAME.fullmatch(profile):
            problems.append(f"profile folder name {profile!r} is not a valid profile name")
        if not case_id.startswith(f"{profiles.PROFILES_DIR}/{profile}/"):
            problems.append(f"a case of profile {profile!r} needs an id 'profiles/{profile}/...'")
        if op_owner is not None and op_owner != profile:
            problems.append(f"operation {op!r} belongs to profile {op_owner!r}, not {profile!r}")
        elif op_owner is None:
            try:
                standalone = profiles.kind(spec, profile) == profiles.STANDALONE
            except profiles.ProfileError as exc:
                problems.append(str(exc))
            else:
                if standalone:
                    problems.append(
                        f"core operation {op!r} in standalone profile {profile!r}: its cases "
                        f"call only '{profile}.*' operations (PROFILE-8)"
                    )
        own = profiles.capability(profile)
        if own not in requires:
            requires.append(own)
    else:
        if case_id.startswith(f"{profiles.PROFILES_DIR}/"):
            problems.append("an id starting 'profiles/' belongs under golden/profiles/NAME/")
        if op_owner is not None:
            problems.append(f"profile operation {op!r} outside golden/profiles/{op_owner}/")
    strangers = [
        c for c in requires
        if profiles.name_of_capability(c) not in (None, profile)
    ]
    problems += [f"{c!r} can only be required by cases under golden/profiles/" for c in strangers]
    problems += capabilities.requirement_problems(op, raw["input"], requires, spec / "data")
    if problems:
        raise CaseFileError(f"{where}: case {case_id}: " + "; ".join(problems))
    return tuple(requires)
#: DSL-23: the capability of byte-exact FTS5 spelling, and the suffix of the cases that need it.
CANONICAL_FTS5 = "canonical-fts5"
CANONICAL_SUFFIX = "#canonical"


def with_meaning(case: Case, fixture: list[str] | None) -> list[Case]:
    """DSL-23: a case with FTS5 fields compares them by meaning, plus a derived `#canonical` case.

    The derived case (id `<id>#canonical`, tag and requirement `canonical-fts5`) compares the
    spelling exactly, as every case did in 1.0. A case that itself requires canonical-fts5 is
    about spelling and is compared exactly. A `fixture` on a case without FTS5 fields is an
    error in the case file.
    """
    from conformance.judging import fts5_meaning

    expect = case.expect
    spelling_only = CANONICAL_FTS5 in case.requires  # the case itself is about spelling
    pointers = fts5_meaning.fields(case.op, expect.get("output")) if "output" in expect else []
    if not pointers or spelling_only:
        if fixture is not None:
            raise CaseFileError(f"{case.file}:{case.line}: fixture on a case without FTS5 fields")
        return [case]
    meaning: dict[str, Any] = {"fields": pointers}
    if fixture is not None:
        meaning["fixture"] = list(fixture)
    base = replace(case, expect={**expect, "fts5": meaning})
    canonical = replace(
        case,
        id=case.id + CANONICAL_SUFFIX,
        description=f"The exact FTS5 spelling of {case.id} (canonical-fts5).",
        tags=(*case.tags, CANONICAL_FTS5),
        requires=(*case.requires, CANONICAL_FTS5),
        derived_from=case.id,
    )
    return [base, canonical]


def _check_op(op: str, spec_dir: Path, where: str) -> None:
    """PROTO-41: a case file's `op` must be an operation the spec defines."""
    from conformance.judging import known_ops

    core = known_ops.core_operations(spec_dir)
    if not known_ops.is_known(op, core, spec_dir):
        raise CaseFileError(
            f"{where}: unknown operation {op!r} (spec/operations.md defines: "
            f"{', '.join(sorted(core))})"
        )


def case_files(root: Path | None = None) -> list[Path]:
    """Every *.yaml under the golden directory; a missing folder or one without a case file is
    an error, never an empty suite (PROTO-41)."""
    base = root or golden_dir()
    if not base.exists():
        raise CaseFileError(f"{base}: golden directory does not exist")
    if not base.is_dir():
        raise CaseFileError(f"{base}: golden directory is not a directory")
    found = sorted(p for p in base.rglob("*.yaml") if p.is_file())
    if not found:
        raise CaseFileError(f"{base}: golden directory holds no case file (*.yaml)")
    inside = base.resolve()
    for path in found:  # PROTO-49: a link out of the folder is neither read nor quoted
        if path.resolve() != inside and inside not in path.resolve().parents:
            raise CaseFileError(
                f"{path}: a symbolic link to a file outside the golden directory {base}; "
                "not read")
    return found


def load_all(
    files: Iterable[Path] | None = None, root: Path | None = None, *, suite: Suite | None = None
) -> list[Case]:
    """Every case of every file, checked for id uniqueness across files.

    The files belong to `suite` (default: the one of golden folder `root`, else the kit's);
    pass `files` from `case_files(suite.golden)` so that profile cases are recognised
    (PROFILE-3).
    """
    seen: dict[str, Case] = {}
    out: list[Case] = []
    checked: set[str] = set()
    where = suite if suite is not None else Suite.at(root)
    for path in files if files is not None else case_files(where.golden):
        for case in load_file(path, suite=where):
            if case.id in seen:
                first = seen[case.id]
                raise CaseFileError(
                    f"{case.file}:{case.line}: duplicate case id {case.id!r} "
                    f"(first defined at {first.file}:{first.line})"
                )
            if case.profile is not None and case.profile not in checked:
                try:
                    profiles.version(where.spec, case.profile)
                except profiles.ProfileError as exc:
                    raise CaseFileError(f"{case.file}:{case.line}: {exc}") from exc
                checked.add(case.profile)
            seen[case.id] = case
            out.append(case)
    return out


def suite_profiles(cases: Iterable[Case], suite: Suite | None = None) -> dict[str, str]:
    """Profile name -> version for the profiles the cases belong to (PROFILE-2)."""
    spec_dir = (suite or kit_suite()).spec
    names = sorted({c.profile for c in cases if c.profile is not None})
    return {name: profiles.version(spec_dir, name) for name in names}
