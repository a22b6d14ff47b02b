"""`hrc regen`: rewrite `expect.output` from the reference when it disagrees, and show the diff.

Only `output` expectations are rewritten; `one_of` and `error` expectations are hand-written
decisions and are only reported. Edits are minimal text replacements: only the
smallest YAML nodes whose value changed (a scalar; a mapping whose keys changed; a list whose
length changed) are rewritten, in that node's own style (flow `{...}` stays flow, block stays
block), so comments, key order and layout elsewhere survive. Strings with invisible or
combining characters are written as escapes, floats in a form every YAML loader reads as a
float. Each edited file is re-parsed and must give back exactly the new values, or nothing is
written. Comments inside a replaced block node are lost.

For `compare: partial` the new value keeps only the fields the case already lists, so the
case keeps its focus; a partial case that asserts a member or list entry the reference no
longer gives is reported, never rewritten, so no assertion is dropped unseen. Exit status: 0
nothing to do or rewritten; 1 with `--check` when anything would change, or when a case cannot
be rewritten (reported).
"""

from __future__ import annotations

import argparse
import difflib
import json
import re
import sys
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from conformance.adapters.protocol import non_finite_at
from conformance.common import atomic_write, errors, yaml_loader
from conformance.judging.authority import AuthorityError, index_for
from conformance.judging.cases import Case, CaseFileError, case_files, load_all, load_text
from conformance.judging.compare import absent_problem, check, compare, drop_timings, numbers_equal
from conformance.judging.selection import SelectionError, select
from conformance.judging.suite import Suite
from reference.data import kit_root

Handler = Callable[[dict[str, Any]], dict[str, Any]]
_PLAIN = re.compile(r"[A-Za-z_](?:[A-Za-z0-9_./-]| (?=[A-Za-z0-9_./-]))*")
_RESERVED = {"true", "false", "null", "yes", "no", "on", "off", "y", "n", "~"}
_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t", "\r": "\\r", "\0": "\\0"}
_FLOW_WIDTH = 96


class RegenError(RuntimeError):
    """A file could not be rewritten safely."""


@dataclass(frozen=True)
class Change:
    case: Case
    path: Path
    old: Any
    new: Any


@dataclass(frozen=True)
class Problem:
    case: Case
    message: str

    def render(self) -> str:
        return f"{self.case.file}:{self.case.line}: {self.case.id}: {self.message}"


# -- the reference ---------------------------------------------------------------------------


def reference_answer(handler: Handler, case: Case) -> tuple[str, Any]:
    """("output", value) or ("error", kind); other exceptions propagate. An output holding a
    non-finite number is `invalid_input`, as the reference adapter answers (TEXT-11)."""
    try:
        output = handler(case.input)
        return ("error", "invalid_input") if non_finite_at(output) else ("output", output)
    except Exception as exc:
        kind = getattr(exc, "kind", None)
        if isinstance(kind, str):
            return "error", kind
        raise


def project(template: Any, value: Any) -> Any:
    """`value` cut down to the fields `template` mentions (for `compare: partial`)."""
    if isinstance(template, dict) and isinstance(value, dict):
        return {k: project(template[k], value[k]) for k in template if k in value}
    if isinstance(template, list) and isinstance(value, list):
        head = [project(t, v) for t, v in zip(template, value, strict=False)]
        return head + value[len(template) :]
    return value


def lost_pointers(template: Any, value: Any, pointer: str = "") -> list[str]:
    """JSON pointers of what `template` asserts and `value` no longer has: members gone and
    list entries past the new end. A partial case projected onto `value` would drop them."""
    if isinstance(template, dict) and isinstance(value, dict):
        out: list[str] = []
        for key, sub in template.items():
            where = f"{pointer}/{str(key).replace('~', '~0').replace('/', '~1')}"
            out += lost_pointers(sub, value[key], where) if key in value else [where]
        return out
    if isinstance(template, list) and isinstance(value, list):
        out = [f"{pointer}/{i}" for i in range(len(value), len(template))]
        for i, (sub, got) in enumerate(zip(template, value, strict=False)):
            out += lost_pointers(sub, got, f"{pointer}/{i}")
        return out
    return []


def plan(cases: Sequence[Case], handlers: dict[str, Handler]) -> tuple[list[Change], list[Problem]]:
    """What would change, and what cannot be fixed by a rewrite."""
    changes: list[Change] = []
    problems: list[Problem] = []
    for case in cases:
        handler = handlers.get(case.op)
        if handler is None:
            problems.append(Problem(case, f"no reference handler for op {case.op!r}"))
            continue
        try:
            status, value = reference_answer(handler, case)
        except Exception as exc:
            problems.append(Problem(case, f"reference raised {type(exc).__name__}: {exc}"))
            continue
        expect = case.expect
        if "output" in expect:
            if status == "error":
                problems.append(
                    Problem(case, f"reference answers error {value!r}; not rewritten")
                )
                continue
            present = absent_problem(expect.get("absent", ()), drop_timings(value))
            if present is not None:
                problems.append(Problem(case, f"reference output breaks expect.absent: {present}"))
                continue
            mode = expect.get("compare", "exact")
            if compare(drop_timings(expect["output"]), drop_timings(value), mode) is None:
                continue
            new = drop_timings(value)
            if mode == "partial":
                lost = lost_pointers(expect["output"], new)
                if lost:
                    problems.append(Problem(
                        case,
                        "the reference no longer gives what this partial case asserts at "
                        + ", ".join(lost[:5]) + (" …" if len(lost) > 5 else "")
                        + "; not rewritten (edit the case by hand)",
                    ))
                    continue
                cut = project(expect["output"], new)
                if compare(cut, new, "partial") is None:
                    new = cut
            changes.append(Change(case, _case_path(case), expect["output"], new))
        elif "one_of" in expect:
            if status == "error":
                problems.append(Problem(case, f"reference answers error {value!r} (one_of case)"))
            elif (mismatch := check(expect, value)) is not None:
                problems.append(
                    Problem(case, f"reference disagrees with one_of (not rewritten): {mismatch}")
                )
        elif status != "error" or value != expect["error"]:
            got = f"error {value!r}" if status == "error" else "an output"
            problems.append(
                Problem(case, f"expects error {expect['error']!r}, reference gives {got}")
            )
    return changes, problems


def _case_path(case: Case) -> Path:
    path = Path(case.file)
    return path if path.is_absolute() else kit_root() / path


# -- YAML emission ---------------------------------------------------------------------------


def _needs_escape(ch: str) -> bool:
    if ch == " ":
        return False
    category = unicodedata.category(ch)
    return category[0] in "CZ" or category in ("Mn", "Me", "Mc")


def _quote(text: str) -> str:
    out = ['"']
    for ch in text:
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif _needs_escape(ch):
            code = ord(ch)
            out.append(f"\\u{code:04X}" if code <= 0xFFFF else f"\\U{code:08X}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def _float(value: float) -> str:
    text = repr(value)
    if text in ("inf", "-inf", "nan"):
        raise RegenError(f"non-finite number {text} cannot be a golden value")
    mantissa, _, exponent = text.partition("e")
    if "." not in mantissa:
        mantissa += ".0"
    if exponent and exponent[0] not in "+-":
        exponent = "+" + exponent
    return mantissa + ("e" + exponent if exponent else "")


def _single_quote(text: str) -> str | None:
    """`'text'` (YAML single quotes: no escapes, `'` doubled), None when `text` needs one."""
    if any((ch in _ESCAPES and ch not in '\\"') or _needs_escape(ch) for ch in text):
        return None
    return "'" + text.replace("'", "''") + "'"


def scalar(value: Any, quote: str | None = None) -> str:
    """One scalar; strings plain when YAML reads them back as the same string, or always in
    `quote` (`'` or `"`) when the node being rewritten quotes its strings (issue 38)."""
    if isinstance(value, str) and quote is not None:
        return (_single_quote(value) if quote == "'" else None) or _quote(value)
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return _float(value)
    if isinstance(value, str):
        if _PLAIN.fullmatch(value) and value.lower() not in _RESERVED:
            return value
        return _quote(value)
    raise RegenError(f"cannot write a {type(value).__name__} into a golden file")


def _key(key: str) -> str:
    return scalar(key)


def flow(value: Any, quote: str | None = None) -> str:
    """One-line YAML flow form."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_key(k)}: {flow(v, quote)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(flow(v, quote) for v in value) + "]"
    return scalar(value, quote)


def _simple(value: Any, col: int) -> bool:
    """Written on one line: a scalar, or a collection whose flow form fits the width."""
    if not isinstance(value, dict | list) or not value:
        return True
    return col + len(flow(value)) <= _FLOW_WIDTH


def block(value: Any, col: int, quote: str | None = None) -> str:
    """Block form; the first line is written at the current position, the rest at `col`."""
    pad = " " * col
    lines: list[str] = []
    if isinstance(value, dict):
        if not value:
            return "{}"
        for key, item in value.items():
            if _simple(item, col + len(_key(key)) + 2):
                lines.append(f"{_key(key)}: {flow(item, quote)}")
            else:
                lines.append(f"{_key(key)}:\n{pad}  " + block(item, col + 2, quote))
    elif isinstance(value, list):
        if not value:
            return "[]"
        for item in value:
            if _simple(item, col + 2):
                lines.append(f"- {flow(item, quote)}")
            else:
                lines.append("- " + block(item, col + 2, quote))
    else:
        return scalar(value, quote)
    return ("\n" + pad).join(lines)


# -- text edits ------------------------------------------------------------------------------

Path_ = tuple[str | int, ...]


def stale_paths(old: Any, new: Any, path: Path_ = ()) -> list[Path_]:
    """The smallest subtrees of `old` that must be replaced to give `new`."""
    if isinstance(old, dict) and isinstance(new, dict):
        if list(old) != list(new):
            return [path]
        return [p for k in old for p in stale_paths(old[k], new[k], (*path, k))]
    if isinstance(old, list) and isinstance(new, list):
        if len(old) != len(new):
            return [path]
        return [p for i, (o, n) in enumerate(zip(old, new, strict=True)) for p in
                stale_paths(o, n, (*path, i))]
    if _is_number(old) and _is_number(new) and type(old) is type(new):
        return [] if numbers_equal(float(old), float(new)) else [path]
    return [] if _same(old, new) else [path]


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _get(node: yaml.Node, key: str) -> tuple[yaml.Node, yaml.Node] | None:
    if isinstance(node, yaml.MappingNode):
        for k, v in node.value:
            if isinstance(k, yaml.ScalarNode) and k.value == key:
                return k, v
    return None


def _output_node(root: yaml.Node, case_id: str) -> tuple[yaml.Node, yaml.Node]:
    cases = _get(root, "cases")
    if cases is None or not isinstance(cases[1], yaml.SequenceNode):
        raise RegenError("no `cases` list")
    for item in cases[1].value:
        found = _get(item, "id")
        if found is not None and getattr(found[1], "value", None) == case_id:
            expect = _get(item, "expect")
            output = _get(expect[1], "output") if expect is not None else None
            if output is None:
                break
            return output
    raise RegenError(f"cannot find expect.output of {case_id!r}")


def _descend(node: yaml.Node, path: Path_) -> yaml.Node:
    for step in path:
        if isinstance(step, str):
            found = _get(node, step)
            if found is None:
                raise RegenError(f"cannot find key {step!r} in the YAML")
            node = found[1]
        elif isinstance(node, yaml.SequenceNode) and 0 <= step < len(node.value):
            node = node.value[step]
        else:
            raise RegenError(f"cannot find item {step} in the YAML")
    return node


def _value_at(value: Any, path: Path_) -> Any:
    for step in path:
        value = value[step]
    return value


def _content_end(node: yaml.Node, text: str) -> int:
    """Index just after the last character that belongs to `node` (not trailing blanks)."""
    end = node.start_mark.index
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, yaml.ScalarNode) or getattr(current, "flow_style", False):
            end = max(end, current.end_mark.index)
        elif isinstance(current, yaml.MappingNode):
            for k, v in current.value:
                stack.extend((k, v))
        elif isinstance(current, yaml.SequenceNode):
            stack.extend(current.value)
    while end > node.start_mark.index and text[end - 1] in " \t\r\n":
        end -= 1
    return end


def string_style(node: yaml.Node, root: yaml.Node | None = None) -> str | None:
    """How the strings of `node` are written (issue 38: a rewrite mixed quoted and plain ids on
    one line): the quote most of its string values use when most are quoted, else None
    (plain). A node without string values follows `root`, the whole file."""
    counts: dict[str | None, int] = {}
    stack: list[tuple[yaml.Node, bool]] = [(node, False)]
    while stack:
        current, is_key = stack.pop()
        if isinstance(current, yaml.ScalarNode):
            if not is_key and current.tag == "tag:yaml.org,2002:str":
                style = current.style if current.style in ("'", '"') else None
                counts[style] = counts.get(style, 0) + 1
        elif isinstance(current, yaml.MappingNode):
            for k, v in current.value:
                stack.extend(((k, True), (v, False)))
        elif isinstance(current, yaml.SequenceNode):
            stack.extend((v, False) for v in current.value)
    if not counts:
        return string_style(root) if root is not None and root is not node else None
    quoted = {k: v for k, v in counts.items() if k is not None}
    if not quoted or sum(quoted.values()) <= counts.get(None, 0):
        return None
    return max(sorted(quoted, key=str), key=lambda k: quoted[k])


def _block_start(text: str, start: int) -> tuple[int, int] | None:
    """Where a block form of the flow node at `start` begins and its indentation, when the node
    is a block mapping's value (`key: {…}`); None inside a flow collection."""
    line_start = text.rfind("\n", 0, start) + 1
    prefix = text[line_start:start]
    if not re.fullmatch(r"\s*(- )*[^\s{}\[\],#&*!|>'\"%@`][^{}\[\],#]*:\s+", prefix):
        return None
    stripped = prefix.lstrip(" ")
    column = len(prefix) - len(stripped)
    while stripped.startswith("- "):
        stripped, column = stripped[2:], column + 2
    return line_start + len(prefix.rstrip()), column + 2


def _outermost_big_flow(output: yaml.Node, path: Path_, new: Any, text: str) -> Path_:
    """`path`, or the path of the outermost flow collection holding it when that collection,
    rewritten with the new value, no longer fits its line and can become a block."""
    for depth in range(len(path) + 1):
        node = _descend(output, path[:depth])
        if isinstance(node, yaml.ScalarNode) or not getattr(node, "flow_style", False):
            continue
        value = _value_at(new, path[:depth])
        fits = node.start_mark.column + len(flow(value)) <= _FLOW_WIDTH
        if not fits and _block_start(text, node.start_mark.index) is not None:
            return path[:depth]
        return path
    return path


def _replacement(
    node: yaml.Node, new: Any, text: str, root: yaml.Node | None = None
) -> tuple[int, int, str]:
    """(start, end, text) replacing `node` by `new`, in the node's own style and quoting; a
    flow collection that no longer fits the line becomes a block (issue 38: a ~2 KB one-line
    case was rewritten as one line)."""
    quote = string_style(node, root)
    if isinstance(node, yaml.ScalarNode) or getattr(node, "flow_style", False):
        one_line = flow(new, quote)
        big = node.start_mark.column + len(one_line) > _FLOW_WIDTH
        at = _block_start(text, node.start_mark.index) if big else None
        if at is not None and isinstance(new, dict | list) and new:
            start, indent = at
            return start, node.end_mark.index, "\n" + " " * indent + block(new, indent, quote)
        return node.start_mark.index, node.end_mark.index, one_line
    return (node.start_mark.index, _content_end(node, text),
            block(new, node.start_mark.column, quote))


def rewrite_text(text: str, edits: Sequence[tuple[str, Any, Any]]) -> str:
    """Apply (case id, old output, new output) edits to one file's text, minimally."""
    root = yaml_loader.compose(text)
    if root is None:
        raise RegenError("empty file")
    spans: dict[int, tuple[int, int, str]] = {}
    for case_id, old, new in edits:
        _, output = _output_node(root, case_id)
        for path in stale_paths(old, new):
            path = _outermost_big_flow(output, path, new, text)
            start, end, replacement = _replacement(
                _descend(output, path), _value_at(new, path), text, root)
            spans[start] = (start, end, replacement)
    for start, end, replacement in sorted(spans.values(), reverse=True):
        text = text[:start] + replacement + text[end:]
    return text


def _same(a: Any, b: Any) -> bool:
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def apply(changes: Sequence[Change]) -> dict[Path, tuple[str, str]]:
    """New text per file (old, new), verified by re-parsing; raises RegenError."""
    by_file: dict[Path, list[Change]] = {}
    for change in changes:
        by_file.setdefault(change.path, []).append(change)
    out: dict[Path, tuple[str, str]] = {}
    for path, file_changes in by_file.items():
        old = path.read_text(encoding="utf-8")
        new = rewrite_text(old, [(c.case.id, c.old, c.new) for c in file_changes])
        try:
            first = file_changes[0].case
            reloaded = {
                c.id: c for c in load_text(new, str(path), first.stage, profile=first.profile)
            }
        except CaseFileError as exc:
            raise RegenError(f"{path}: the rewritten file does not load: {exc}") from exc
        for change in file_changes:
            got = reloaded[change.case.id].expect.get("output")
            if not _same(got, change.new):
                raise RegenError(f"{path}: {change.case.id}: rewritten value does not read back")
        out[path] = (old, new)
    return out


def unified(path: Path, old: str, new: str) -> str:
    try:
        name = str(path.relative_to(kit_root()))
    except ValueError:
        name = str(path)
    return "".join(
        difflib.unified_diff(
            old.splitlines(keepends=True), new.splitlines(keepends=True), f"a/{name}", f"b/{name}"
        )
    )


# -- hrc regen -------------------------------------------------------------------------------


def register(subparsers: Any) -> None:
    p: argparse.ArgumentParser = subparsers.add_parser(
        "regen",
        help="rewrite expected outputs from the reference",
        description="Re-run `output` cases through the reference and rewrite expectations "
        "that differ, printing a unified diff. `one_of` and `error` cases are only reported.",
    )
    p.add_argument("--check", action="store_true", help="change nothing; exit 1 if stale")
    p.add_argument("--select", action="append", default=[], metavar="PATTERN")
    p.add_argument("--golden", type=Path, metavar="DIR", help="golden case directory")
    p.set_defaults(func=cmd_regen)


def cmd_regen(args: argparse.Namespace) -> int:
    from conformance.adapters.ops import registry

    try:
        suite = Suite.at(args.golden)
        cases = select(
            load_all(case_files(suite.golden), suite=suite), args.select, index_for(suite.spec)
        )
        cases = [c for c in cases if c.derived_from is None]  # DSL-23: same file node as base
    except (CaseFileError, SelectionError, AuthorityError) as exc:
        return errors.emit("regen", str(exc))
    from conformance.judging.golden_dir import shadowed_golden

    shadowed = shadowed_golden(args.golden)
    if shadowed is not None:
        errors.warn("regen", shadowed)
    changes, problems = plan(cases, registry())
    try:
        edits = apply(changes)
    except RegenError as exc:
        errors.emit("regen", str(exc))
        return 1
    if not args.check:
        try:  # PROTO-49: a link or a non-regular file is refused before any file is rewritten
            for path in edits:
                atomic_write.check_destination(path)
        except OSError as exc:
            return errors.emit("regen", f"cannot rewrite {errors.os_message(exc, path)}")
    for path, (old, new) in edits.items():
        sys.stdout.write(unified(path, old, new))
        if not args.check:
            try:  # PROTO-49: a full disk leaves the old file whole
                atomic_write.write_text(path, new)
            except OSError as exc:
                return errors.emit("regen", f"cannot rewrite {errors.os_message(exc, path)}; "
                                   "the file is unchanged")
    for problem in problems:
        print(f"hrc regen: not rewritten: {problem.render()}", file=sys.stderr)
    verb = "would rewrite" if args.check else "rewrote"
    print(f"hrc regen: {verb} {len(changes)} case(s) in {len(edits)} file(s); "
          f"{len(problems)} case(s) need a human")
    if problems or (args.check and changes):
        return 1
    return 0
