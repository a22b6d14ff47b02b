#!/usr/bin/env python3
"""Codemod of issue 26: split `conformance/` into packages by role, break its import circles and
its giant files, and rewrite every import and path that names the old modules.

Deterministic and re-runnable on a main that has moved: a module of `conformance/` that the
MODULES table does not place makes it stop with exit 1 before it touches anything (add one line,
run again); a broken port whose clause prefix STAGES does not place does the same. Run it from
the repository root on a clean work tree, then run the checks (docs/architecture.md).

    python tools/restructure_conformance.py            # apply
    python tools/restructure_conformance.py --check    # only report what is unmapped
"""

from __future__ import annotations

import argparse
import ast
import io
import re
import shutil
import subprocess
import sys
import textwrap
import tokenize
from collections.abc import Callable, Iterable
from pathlib import Path

# -- the mapping ---------------------------------------------------------------------------------

#: New packages, bottom to top, with the docstring of their __init__.py.
PACKAGES: dict[str, str] = {
    "conformance.common": "Bottom of the kit: user-facing errors, printable text, YAML error "
    "messages and the kit's version; imports nothing else of the kit.",
    "conformance.judging": "The case format and its judging: loading YAML cases (and their "
    "cache), capabilities, clauses and their authority, profiles, data files, comparison, "
    "tolerances, FTS5 meaning, trace checks and expected failures.",
    "conformance.adapters": "The adapter side: protocol messages, the adapter process, the "
    "reference adapter and its operation handlers (`ops/`).",
    "conformance.running": "Running a suite against an adapter: the runner, its result types "
    "(`results`, the bottom of this package), `--require`, not-applicable reasons, build steps.",
    "conformance.reports": "What a run leaves behind: text/JSON reports, JUnit, HTML, the ports "
    "matrix, badges, expected-failure updates, eval charts and TREC files.",
    "conformance.selftest": "The broken-port gate: broken ports (`broken_ports/`, one module "
    "per stage), the adapter that runs one, and the gate that runs them all.",
    "conformance.commands": "One module per `hrc` sub-command; each exposes `register(subparsers)`"
    " (conformance/cli.py lists them). Commands never import each other.",
}

#: Every module of conformance/ (old dotted name) -> its new dotted name. A package maps its
#: sub-modules with it (`conformance.ops` -> `conformance.adapters.ops`).
MODULES: dict[str, str] = {
    "conformance": "conformance",
    "conformance.cli": "conformance.cli",  # entry point `hrc` (pyproject.toml)
    "conformance.pytest_plugin": "conformance.pytest_plugin",  # entry point pytest11
    # common
    "conformance.errors": "conformance.common.errors",
    "conformance.printable": "conformance.common.printable",
    "conformance.yaml_errors": "conformance.common.yaml_errors",
    "conformance.input_files": "conformance.common.input_files",  # issue 29
    # judging
    "conformance.cases": "conformance.judging.cases",
    "conformance.case_cache": "conformance.judging.case_cache",
    "conformance.capabilities": "conformance.judging.capabilities",
    "conformance.clauses": "conformance.judging.clauses",
    "conformance.authority": "conformance.judging.authority",
    "conformance.profiles": "conformance.judging.profiles",
    "conformance.datafiles": "conformance.judging.datafiles",
    "conformance.compare": "conformance.judging.compare",
    "conformance.tolerances": "conformance.judging.tolerances",
    "conformance.fts5_meaning": "conformance.judging.fts5_meaning",
    "conformance.trace_check": "conformance.judging.trace_check",
    "conformance.trace_optional": "conformance.judging.trace_optional",
    "conformance.expectations": "conformance.judging.expectations",
    "conformance.known_ops": "conformance.judging.known_ops",
    # adapters
    "conformance.protocol": "conformance.adapters.protocol",
    "conformance.adapter_process": "conformance.adapters.adapter_process",
    "conformance.adapter_reference": "conformance.adapters.adapter_reference",
    "conformance.ops": "conformance.adapters.ops",
    # running
    "conformance.runner": "conformance.running.runner",
    "conformance.require": "conformance.running.require",
    "conformance.not_applicable": "conformance.running.not_applicable",
    "conformance.build_step": "conformance.running.build_step",
    # reports
    "conformance.report": "conformance.reports.report",
    "conformance.junit": "conformance.reports.junit",
    "conformance.html_report": "conformance.reports.html_report",
    "conformance.matrix": "conformance.reports.matrix",
    "conformance.badge": "conformance.reports.badge",
    "conformance.update_expected": "conformance.reports.update_expected",
    "conformance.eval_chart": "conformance.reports.eval_chart",
    "conformance.eval_trec": "conformance.reports.eval_trec",
    # selftest (the broken ports themselves are split below, SPLIT_BROKEN_PORTS)
    "conformance.selftest": "conformance.selftest",
    "conformance.selftest.gate": "conformance.selftest.gate",
    "conformance.selftest.mutant_adapter": "conformance.selftest.mutant_adapter",
    "conformance.selftest.mutants": "conformance.selftest.broken_ports",
    "conformance.selftest.mutants_bm25_okapi": "conformance.selftest.broken_ports",
    "conformance.selftest.mutants_first_pass": "conformance.selftest.broken_ports",
    "conformance.selftest.mutants_profiles_seeds": "conformance.selftest.broken_ports",
    # commands (one per sub-command)
    "conformance.listing": "conformance.commands.listing",
    "conformance.bundle": "conformance.commands.bundle",
    "conformance.regen": "conformance.commands.regen",
    "conformance.diff": "conformance.commands.diff",
    "conformance.eval": "conformance.commands.eval",
    "conformance.scaffold": "conformance.commands.init_port",
    "conformance.kitpaths": "conformance.commands.data_path",
    "conformance.pin": "conformance.commands.pin",
    "conformance.properties": "conformance.commands.properties",
    "conformance.selftest.cli": "conformance.commands.selftest",
}

#: Old modules folded into the broken-port split rather than moved (they disappear).
BROKEN_PORT_SOURCES = (
    "conformance.selftest.mutants",
    "conformance.selftest.mutants_bm25_okapi",
    "conformance.selftest.mutants_first_pass",
    "conformance.selftest.mutants_profiles_seeds",
)

#: Top-level definitions moved after the module moves (new names), to break a circle, to put a
#: command in its own module or to bring a file under 600 lines: (from, names, to, docstring).
DEFINITION_MOVES: list[tuple[str, tuple[str, ...], str, str]] = [
    # circle compare <-> fts5_meaning
    ("conformance.judging.compare", ("resolve_pointer",), "conformance.judging.pointer",
     "JSON Pointer lookup, shared by the comparison and the FTS5 meaning check."),
    # circle cases -> known_ops -> protocol -> cases: what a hello declares is the adapter side
    ("conformance.judging.known_ops", ("unknown_operations",), "conformance.adapters.protocol",
     ""),
    # circle runner -> report -> runner (and kitpaths <-> report): the version at the bottom
    ("conformance.reports.report", ("kit_version",), "conformance.common.version",
     "The kit's version (the spec version it ships)."),
    ("conformance.commands.data_path", ("shadowed_golden",), "conformance.judging.golden_dir",
     "Which golden directory a run reads, and when a local one shadows the kit's."),
    # circle runner -> junit/report/not_applicable/update_expected -> runner: result types
    ("conformance.running.runner",
     ("OUTCOMES", "FAILING", "SKIPPED", "NOT_RUN", "RunOptions", "CaseResult", "RunResult"),
     "conformance.running.results",
     "What a run produces: the outcome names, one case's result, the run's result. The bottom "
     "of conformance.running, so reports import it without importing the runner."),
    ("conformance.running.runner",
     ("_positive", "_count", "_at_least_one", "register", "repro_prefix", "cmd_run"),
     "conformance.commands.run", "`hrc run`: run the golden suite against an adapter."),
    # circle html_report <-> matrix: the command leaves the matrix
    ("conformance.reports.matrix", ("register", "cmd_report"), "conformance.commands.report",
     "`hrc report`: merge JSON reports into the ports matrix, HTML and badges."),
    # strict JSON (PROTO-2, PROTO-36) is read by cases, reports and diff, not only the protocol
    ("conformance.adapters.protocol",
     ("MAX_DEPTH", "ProtocolError", "_no_constants", "_finite_float", "_bounded_int", "too_deep",
      "_unique_pairs", "lone_surrogate", "_SURROGATE_ESCAPE_TEXT", "loads_strict", "_excerpt"),
     "conformance.common.strict_json",
     "Strict JSON as the protocol reads a line (PROTO-2): no NaN or Infinity, numbers within "
     "binary64, no repeated key, bounded nesting (PROTO-36), no lone surrogate."),
    # files over 600 lines
    ("conformance.judging.cases",
     ("schemas_dir", "_validator", "_LOCAL_DEF", "inline_local_refs", "schema_validator"),
     "conformance.judging.schemas", "JSON Schema validators of schemas/ (cached)."),
    ("conformance.judging.cases", ("SelectionError", "matches", "select"),
     "conformance.judging.selection",
     "`--select`: which cases a pattern (id, file, clause, tag, authority) picks."),
    ("conformance.commands.properties",
     ("JSON", "_IDS", "_PATHS", "_TITLES", "_WEIGHTS", "_DEFAULT_WEIGHTS", "rrf_inputs",
      "rerank_inputs", "_WORDS", "_EXTRAS", "_CONTENTS", "ladder_inputs", "_QUERIES",
      "_DOC_PATHS", "_DOC_CONTENTS", "_SCORES", "intent_inputs"),
     "conformance.running.property_inputs",
     "Hypothesis strategies of `hrc properties`: the inputs a property draws."),
    ("reference.backends.sqlite_fts",
     ("_flatten_word_blobs", "pack_vector", "unpack_vectors"),
     "reference.backends.vector_blobs", "Vectors stored as BLOBs beside the FTS5 index."),
    ("reference.backends.sqlite_fts",
     ("TOKENIZER", "WEIGHT_ID", "WEIGHT_PATH", "WEIGHT_TITLE", "WEIGHT_SUMMARY", "WEIGHT_CONTENT",
      "SCHEMA", "_LAYOUT", "VECTORS_KEY", "_RANK", "SEARCH_SQL", "CHUNKS_SQL",
      "CHUNKS_WITH_VECTORS_SQL", "_COLUMN_INDEX", "_RANK_SQL", "_AT_MOST_SQL"),
     "reference.backends.sqlite_schema",
     "The FTS5 index's tables, column weights (BACKEND-4) and SQL statements."),
]

#: Moves of code whose names differ between versions of main (issue 29 renamed and reused
#: some): each name the source defines moves; a name it does not define is skipped.
OPTIONAL_DEFINITION_MOVES: list[tuple[str, tuple[str, ...], str, str]] = [
    # issue 29: input_files.load_json (common) reads JSON as the protocol and `hrc diff` do
    ("conformance.commands.diff",
     ("_TOKEN", "_CONSTANTS", "_UNLOCATED", "UNLOCATED", "_finite_token", "locate_violation"),
     "conformance.common.strict_json", ""),
]

#: Public names kept working by a thin module at the old place: old module -> (its new home,
#: the docstring of the thin module). `python -m NAME` in prose keeps the old name.
PUBLIC_SHIMS: dict[str, tuple[str, str]] = {
    "conformance.adapter_reference": (
        "conformance.adapters.adapter_reference",
        "`python -m conformance.adapter_reference`: the reference adapter under the name "
        "spec/adapter-protocol.md gives it (its code: conformance/adapters/adapter_reference.py).",
    ),
}

#: Exact texts to restore after the rewrite: path -> [(rewritten, wanted)].
TEXT_FIXUPS: dict[str, list[tuple[str, str]]] = {
    # the argv of the reference run (in every report) stays the public name
    "conformance/running/runner.py": [
        ('REFERENCE_ADAPTER_MODULE = "conformance.adapters.adapter_reference"',
         'REFERENCE_ADAPTER_MODULE = "conformance.adapter_reference"'),
    ],
}

#: `hrc` sub-commands whose `register` moved: cli.SUBCOMMAND_MODULES entries to rewrite.
SUBCOMMAND_FIXUPS = {
    '("conformance.running.runner", ("run",))': '("conformance.commands.run", ("run",))',
    '("conformance.reports.matrix", ("report",))': '("conformance.commands.report", ("report",))',
}

#: Broken ports by the clause prefix they break -> the stage module they live in (a profile's
#: next to its stage). Order = registration order of the stages.
STAGES: dict[str, tuple[tuple[str, ...], str]] = {
    "text": (("TEXT",), "portability of text (spec/portability.md)"),
    "query": (("DSL",), "the query DSL (spec/query-dsl.md)"),
    "fusion": (("RRF", "UNAN"), "fusion and unanimity (spec/rrf.md, spec/unanimity.md)"),
    "pipeline": (("PIPE", "OP", "TRACE"), "the pipeline, operations and trace (spec/pipeline.md)"),
    "ladder": (("LADDER",), "the retry ladder (spec/ladder.md)"),
    "trigram": (("TRI",), "the trigram fallback (spec/trigram.md)"),
    "intent": (("INTENT", "MODE"), "intent reweighting and modes (spec/intent.md)"),
    "rerank": (("RERANK",), "the reranker (spec/rerank.md)"),
    "backends": (("BACKEND",), "the backends (spec/backends.md)"),
    "fanout": (("FANOUT",), "the BM25 leg's first pass (spec/fanout.md)"),
    "metrics": (("METRIC",), "the metrics (spec/metrics.md)"),
    "graph": (("GRAPH",), "the graph leg (spec/graph.md)"),
    "profile_scoped_fusion": (("SCOPE",), "profile scoped-fusion (spec/profiles/scoped-fusion.md)"),
    "profile_temporal": (("TEMPORAL",), "profile temporal (spec/profiles/temporal.md)"),
    "profile_gbrain": (("GBRAIN",), "profile gbrain (spec/profiles/gbrain.md)"),
    "profile_engram": (("ENGRAM",), "profile engram (spec/profiles/engram.md)"),
    "profile_bm25_okapi": (("OKAPI",), "profile bm25-okapi (spec/profiles/bm25-okapi.md)"),
}

#: Names of the broken-port registry and patching helpers: the shared module.
BROKEN_PORT_CORE = ("_PATCHABLE", "Mutant", "MUTANTS", "Patch", "mutant", "load_reference",
                    "swap", "set_attr", "_clear_caches", "activate", "_mod")
BROKEN_PORT_SHARED = "patching"

#: Where imports and paths are rewritten (Python and prose).
SCOPE_DIRS = ("conformance", "reference", "tests", "tools", "benchmarks", "ports/python-wrapper",
              "docs", ".ci")
SCOPE_FILES = ("README.md", "CONTRIBUTING.md", "pyproject.toml", "tox.ini")
#: Where only prose (Markdown) is rewritten: paths of modules named in the spec and port notes.
PROSE_DIRS = ("spec", "ports")
TEXT_SUFFIXES = {".py", ".md", ".toml", ".cfg", ".ini", ".txt", ".yaml", ".yml", ".json", ""}
SKIP_PARTS = {".git", "node_modules", "__pycache__", "scaffolds", "_kit", ".ci-venv"}
THIS = Path("tools/restructure_conformance.py")
MAX_LINES = 600  # tests/test_architecture.py


# -- helpers -------------------------------------------------------------------------------------


def die(message: str) -> None:
    print(f"restructure_conformance: {message}", file=sys.stderr)
    raise SystemExit(1)


def run(*argv: str) -> None:
    subprocess.run(argv, check=True)


def path_of(module: str, package: bool = False) -> Path:
    base = Path(*module.split("."))
    return base / "__init__.py" if package else base.with_suffix(".py")


def module_of(path: Path) -> str:
    parts = list(path.with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def conformance_modules() -> list[str]:
    out = []
    for p in sorted(Path("conformance").rglob("*.py")):
        if SKIP_PARTS & set(p.parts):
            continue
        out.append(module_of(p))
    return out


def mapped(module: str) -> str | None:
    """New name of an old module (or of a sub-module of a mapped package), None if unmapped."""
    if module in MODULES:
        return MODULES[module]
    head = module
    while "." in head:
        head = head.rpartition(".")[0]
        if head in MODULES and MODULES[head] != head:  # a package moved whole (ops)
            return MODULES[head] + module[len(head):]
    return None


def scope_files() -> list[Path]:
    files: list[Path] = []
    for d in SCOPE_DIRS:
        for p in sorted(Path(d).rglob("*")) if Path(d).exists() else []:
            if p.is_file() and not SKIP_PARTS & set(p.parts) and p.suffix in TEXT_SUFFIXES:
                files.append(p)
    files += [Path(f) for f in SCOPE_FILES if Path(f).exists()]
    for d in PROSE_DIRS:
        files += [p for p in sorted(Path(d).rglob("*.md")) if not SKIP_PARTS & set(p.parts)]
    return [f for f in files if f != THIS]


def top_names(node: ast.stmt) -> list[str]:
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return [node.name]
    if isinstance(node, ast.Assign):
        return [t.id for t in node.targets if isinstance(t, ast.Name)]
    if isinstance(node, ast.AnnAssign | ast.AugAssign) and isinstance(node.target, ast.Name):
        return [node.target.id]
    return []


def chunks(source: str) -> tuple[str, list[tuple[ast.stmt, str]]]:
    """Split a module into its header (docstring, imports) and its top-level statements, each
    with the comments above it."""
    tree = ast.parse(source)
    lines = source.splitlines(keepends=True)
    body = tree.body
    first = 0
    while first < len(body) and (
        isinstance(body[first], ast.Import | ast.ImportFrom)
        or (first == 0 and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant))
    ):
        first += 1
    header_end = body[first - 1].end_lineno if first else 0
    header = "".join(lines[:header_end])
    out = []
    prev = header_end
    for node in body[first:]:
        # comments directly above belong to the statement; blank-separated ones too
        text = "".join(lines[prev:node.end_lineno]).strip("\n") + "\n"
        out.append((node, text))
        prev = node.end_lineno or prev
    return header, out


def imports_of(source: str, exclude: str = "") -> str:
    """The module's top-level import statements, as text, except those from `exclude`."""
    tree = ast.parse(source)
    lines = source.splitlines(keepends=True)
    out = []
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module == exclude:
            continue
        if isinstance(node, ast.Import | ast.ImportFrom):
            out.append("".join(lines[node.lineno - 1:node.end_lineno]))
    return "".join(out)


def without_docstring(node: ast.stmt) -> str:
    body = getattr(node, "body", None)
    if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
        value = body[0].value
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            node = type(node)(**{**vars(node), "body": body[1:]})
    return ast.dump(node, include_attributes=False)


def used_names(text: str) -> set[str]:
    return {n.id for n in ast.walk(ast.parse(text)) if isinstance(n, ast.Name)} | {
        n.value.id for n in ast.walk(ast.parse(text))
        if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name)
    }


def write_module(path: Path, docstring: str, imports: str, parts: Iterable[str]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    body = "\n\n".join(p.rstrip("\n") + "\n" for p in parts)
    path.write_text(f'{docstring_text(docstring)}\n\n{imports}\n\n{body}')


def docstring_text(doc: str) -> str:
    """A module docstring, wrapped to the house's 100 columns."""
    lines = textwrap.wrap(doc, 96, break_on_hyphens=False)
    if len(lines) == 1:
        return f'"""{lines[0]}"""'
    return '"""' + "\n".join(lines) + '\n"""'



# -- 1. check the tables cover the tree ---------------------------------------------------------


def check_coverage() -> None:
    missing = [m for m in conformance_modules() if mapped(m) is None]
    if missing:
        die("modules of conformance/ the MODULES table does not place (add a line each):\n  "
            + "\n  ".join(missing))
    prefixes = {p for prefs, _ in STAGES.values() for p in prefs}
    unknown = []
    for old in BROKEN_PORT_SOURCES:
        p = path_of(old)
        if not p.exists():
            continue
        for node in ast.parse(p.read_text()).body:
            clause = broken_port_clause(node)
            if clause is not None and clause.rsplit("-", 1)[0] not in prefixes:
                unknown.append(f"{p}:{node.lineno}: {clause}")
    if unknown:
        die("broken ports whose clause prefix STAGES does not place:\n  " + "\n  ".join(unknown))


def broken_port_clause(node: ast.stmt) -> str | None:
    if not isinstance(node, ast.FunctionDef):
        return None
    for dec in node.decorator_list:
        if (isinstance(dec, ast.Call) and isinstance(dec.func, ast.Name) and dec.func.id == "mutant"
                and len(dec.args) > 1 and isinstance(dec.args[1], ast.Constant)):
            return str(dec.args[1].value)
    return None


# -- 2. move the modules -------------------------------------------------------------------------


def move_modules() -> dict[str, str]:
    """git mv every module whose name changes; returns old -> new for whole modules."""
    renames: dict[str, str] = {}
    modules = conformance_modules()
    for pkg, doc in PACKAGES.items():
        init = path_of(pkg, True)
        if not init.exists():
            init.parent.mkdir(parents=True, exist_ok=True)
            init.write_text(docstring_text(doc) + "\n")
            run("git", "add", str(init))
    for old in modules:
        new = mapped(old)
        assert new is not None
        if new == old or old in BROKEN_PORT_SOURCES:
            continue
        src = path_of(old, path_of(old, True).exists())
        dst = path_of(new, src.name == "__init__.py")
        if src.name == "__init__.py":
            continue  # a package moves with its modules
        dst.parent.mkdir(parents=True, exist_ok=True)
        run("git", "mv", str(src), str(dst))
        fix_file_depth(dst, len(src.parts), len(dst.parts))
        renames[old] = new
    for old in MODULES:  # packages: their __init__ files
        src = path_of(old, True)
        if old != MODULES[old] and src.exists() and old != "conformance":
            dst = path_of(MODULES[old], True)
            run("git", "mv", str(src), str(dst))
            renames[old] = MODULES[old]
            if not any(src.parent.iterdir()):
                src.parent.rmdir()
    return renames


def fix_file_depth(path: Path, old_depth: int, new_depth: int) -> None:
    """`Path(__file__).resolve().parent...` keeps pointing where it pointed."""
    extra = ".parent" * (new_depth - old_depth)
    text = path.read_text()
    new = re.sub(r"(Path\(__file__\)\.resolve\(\)(?:\.parent\b)+)", lambda m: m.group(1) + extra,
                 text)
    if new != text:
        path.write_text(new)


# -- 3. split the broken ports by stage ----------------------------------------------------------


def split_broken_ports() -> None:
    sources = [path_of(m) for m in BROKEN_PORT_SOURCES if path_of(m).exists()]
    if not sources:
        return
    main_src = sources[0].read_text()
    imports = "".join(imports_of(p.read_text()) for p in sources)
    imports = "\n".join(
        line for line in imports.splitlines() if "conformance.selftest.mutants" not in line
    ) + "\n"
    stage_of_prefix = {p: s for s, (prefs, _) in STAGES.items() for p in prefs}
    items: list[tuple[str | None, list[str], str, set[str]]] = []  # stage, names, text, uses
    seen: dict[str, str] = {}  # helper name -> its code, docstring aside
    for p in sources:
        _, parts = chunks(p.read_text())
        for node, text in parts:
            if isinstance(node, ast.Import | ast.ImportFrom):
                continue
            clause = broken_port_clause(node)
            stage = stage_of_prefix[clause.rsplit("-", 1)[0]] if clause else None
            if stage is None and top_names(node):
                code = without_docstring(node)
                name = top_names(node)[0]
                if name in seen:
                    if seen[name] != code:
                        die(f"{p}:{node.lineno}: helper {name} is defined twice, differently; "
                            "rename one")
                    continue  # the same helper, copied into two modules: keep the first
                seen[name] = code
            items.append((stage, top_names(node), text, used_names(text)))
    # a helper lives with the one stage that uses it, else in the shared module
    place: dict[str, str] = {}
    for _, names, _, _ in items:
        for n in names:
            if n in BROKEN_PORT_CORE:
                place[n] = BROKEN_PORT_SHARED
    changed = True
    helpers = [(names, uses) for stage, names, _, uses in items if stage is None]
    while changed:
        changed = False
        for names, _ in helpers:
            if names and names[0] in place and place[names[0]] == BROKEN_PORT_SHARED:
                continue
            users = {s for s, _, _, uses in items if s is not None and set(names) & uses}
            users |= {place[hn[0]] for hn, huses in helpers
                      if hn and hn[0] in place and set(names) & huses and hn != names}
            want = users.pop() if len(users) == 1 else BROKEN_PORT_SHARED
            for n in names:
                if place.get(n) != want:
                    place[n] = want
                    changed = True
    files: dict[str, list[str]] = {BROKEN_PORT_SHARED: []}
    files.update({s: [] for s in STAGES})
    for stage, names, text, _ in items:
        where = stage if stage is not None else (place[names[0]] if names else BROKEN_PORT_SHARED)
        files[where].append(text)
    pkg = Path("conformance/selftest/broken_ports")
    pkg.mkdir(parents=True, exist_ok=True)
    shared_names = sorted(n for n, w in place.items() if w == BROKEN_PORT_SHARED)
    doc = ast.get_docstring(ast.parse(main_src)) or ""
    for stage, parts in files.items():
        if not parts and stage != BROKEN_PORT_SHARED:
            continue
        if stage == BROKEN_PORT_SHARED:
            docstring = ("The broken ports' registry and patching helpers, shared by every "
                         "stage module.")
            extra = ""
        else:
            docstring = f"Broken ports of {STAGES[stage][1]}, registered on import."
            extra = (f"from conformance.selftest.broken_ports.{BROKEN_PORT_SHARED} import "
                     f"{', '.join(shared_names)}\n")
        write_module(pkg / f"{stage}.py", docstring, imports + extra, parts)
    stages = [s for s in STAGES if files[s]]
    init = (f'"""{doc}\n\nOne module per stage (broken_ports/<stage>.py, a profile\'s next to '
            f'its\nstage); importing this package registers them all."""\n\n'
            f"from conformance.selftest.broken_ports import (  # noqa: F401  (registers)\n"
            + "".join(f"    {s},\n" for s in stages) + ")\n"
            f"from conformance.selftest.broken_ports.{BROKEN_PORT_SHARED} import (\n"
            "    MUTANTS,\n    Mutant,\n    activate,\n    load_reference,\n)\n\n"
            '__all__ = ["MUTANTS", "Mutant", "activate", "load_reference"]\n')
    (pkg / "__init__.py").write_text(init)
    for p in sources:
        run("git", "rm", "-q", str(p))
    run("git", "add", str(pkg))


# -- 4. rewrite imports and paths ----------------------------------------------------------------


def rewrite_from_imports(text: str, renames: dict[str, str]) -> str:
    """`from conformance import a, b` (modules) -> one import per new package."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return text
    lines = text.splitlines(keepends=True)
    edits = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom) or node.module is None or node.level:
            continue
        targets = [f"{node.module}.{a.name}" for a in node.names]
        if not any(t in renames for t in targets):
            continue
        groups: dict[str, list[str]] = {}
        for a, t in zip(node.names, targets, strict=True):
            new = renames.get(t)
            if new is None:
                groups.setdefault(node.module, []).append(
                    a.name + (f" as {a.asname}" if a.asname else ""))
                continue
            pkg, _, base = new.rpartition(".")
            alias = a.asname or (a.name if base != a.name else None)
            groups.setdefault(pkg, []).append(base + (f" as {alias}" if alias else ""))
        indent = " " * node.col_offset
        stmt = "\n".join(f"{indent if i else ''}from {pkg} import {', '.join(names)}"
                         for i, (pkg, names) in enumerate(groups.items()))
        edits.append((node.lineno, node.end_lineno, node.col_offset, stmt))
    for start, end, col, stmt in sorted(edits, reverse=True):
        tail = lines[end - 1]
        end_text = tail[len(tail.rstrip("\n")):]
        # keep a trailing comment of the import's last line
        seg = ast.get_source_segment(text, _find(tree, start, col)) or ""
        last = lines[end - 1].rstrip("\n")
        after = last[last.find(seg.splitlines()[-1]) + len(seg.splitlines()[-1]):] if seg else ""
        lines[start - 1:end] = [lines[start - 1][:col] + stmt + after + (end_text or "\n")]
    return "".join(lines)


def _find(tree: ast.AST, lineno: int, col: int) -> ast.AST:
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.lineno == lineno and node.col_offset == col:
            return node
    raise LookupError(lineno)


def rewrite_names(text: str, renames: dict[str, str]) -> str:
    """Dotted names (`conformance.x.y`, also in strings) and paths (`conformance/x.py`)."""
    for old in sorted(renames, key=len, reverse=True):
        new = renames[old]
        keep = r"(?<!-m )" if old in PUBLIC_SHIMS else ""  # `python -m NAME` still works
        text = re.sub(rf"{keep}\b{re.escape(old)}(?![\w])", new, text)
        # `from pkg import module` inside strings (code run by `python -c`)
        pkg, _, base = old.rpartition(".")
        new_pkg, _, new_base = new.rpartition(".")
        alias = "" if new_base == base else f" as {base}"
        text = re.sub(rf"\bfrom {re.escape(pkg)} import {re.escape(base)}\b(?! as)",
                      f"from {new_pkg} import {new_base}{alias}", text)
        text = re.sub(rf"\bfrom {re.escape(pkg)} import {re.escape(base)} as\b",
                      f"from {new_pkg} import {new_base} as", text)
        old_p, new_p = old.replace(".", "/"), new.replace(".", "/")
        old_is_pkg = path_of(new, True).exists() and not path_of(new).exists()
        # a path built from parts: ROOT / "conformance" / "kitpaths.py"
        if old not in BROKEN_PORT_SOURCES and not old_is_pkg:
            parts = [f'"{part}"' for part in f"{old_p}.py".split("/")]
            new_parts = " / ".join(f'"{part}"' for part in f"{new_p}.py".split("/"))
            text = re.sub(r"\s*/\s*".join(map(re.escape, parts)), new_parts, text)
        if old in BROKEN_PORT_SOURCES:
            text = re.sub(rf"\b{re.escape(old_p)}\.py\b", new_p + "/", text)
        elif old_is_pkg:
            text = re.sub(rf"\b{re.escape(old_p)}/", new_p + "/", text)
        else:
            text = re.sub(rf"\b{re.escape(old_p)}\.py\b", new_p + ".py", text)
    return text


def fix_file_refs(text: str, renames: dict[str, str]) -> str:
    """`Path(module.__file__).resolve().parents[N]` of a module that moved deeper keeps
    pointing at the same folder (tests find spec/ that way)."""
    for old, new in renames.items():
        depth = len(new.split(".")) - len(old.split("."))
        if depth == 0:
            continue
        new_pkg, _, new_base = new.rpartition(".")
        try:
            tree = ast.parse(text)
        except SyntaxError:
            return text
        locals_ = {a.asname or a.name for node in ast.walk(tree)
                   if isinstance(node, ast.ImportFrom) and node.module == new_pkg
                   for a in node.names if a.name == new_base}
        for local in sorted(locals_):
            text = re.sub(rf"(\b{local}\.__file__\)\.resolve\(\)\.parents\[)(\d+)\]",
                          lambda n, d=depth: f"{n.group(1)}{int(n.group(2)) + d}]", text)
            text = re.sub(rf"(\b{local}\.__file__\)\.resolve\(\)(?:\.parent\b)+)",
                          lambda n, d=depth: n.group(1) + ".parent" * d, text)
    return text


def rewrite_everything(renames: dict[str, str]) -> None:
    for path in scope_files():
        text = path.read_text()
        new = text
        if path.suffix == ".py":
            new = rewrite_from_imports(new, renames)
            new = wrap_prose(new, lambda t: rewrite_names(t, renames))
            new = fix_file_refs(new, renames)
        else:
            new = rewrite_names(new, renames)
        if new != text:
            path.write_text(new)


def prose_lines(text: str) -> set[int]:
    """0-based indexes of the lines of docstrings and of comment-only lines."""
    out = {i for i, line in enumerate(text.splitlines()) if line.lstrip().startswith("#")}
    for node in ast.walk(ast.parse(text)):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            value = body[0].value
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                out.update(range(body[0].lineno - 1, body[0].end_lineno or body[0].lineno))
    return out


def wrap_prose(text: str, rewrite: Callable[[str], str], width: int = 100) -> str:
    """Rewrite each line; a docstring or comment line the rewrite made too long is wrapped."""
    try:
        prose = prose_lines(text)
    except SyntaxError:
        return rewrite(text)
    out = []
    for i, line in enumerate(text.splitlines(keepends=True)):
        new = rewrite(line)
        body = new.rstrip("\n")
        if new == line or len(body) <= width or i not in prose or len(line.rstrip("\n")) > width:
            out.append(new)
            continue
        indent = body[: len(body) - len(body.lstrip())]
        lead = indent + ("# " if body.lstrip().startswith("#") else "")
        while len(body) > width:
            cut = body.rfind(" ", len(lead) + 1, width + 1)
            if cut < 0:
                break
            out.append(body[:cut].rstrip() + "\n")
            body = lead + body[cut + 1 :]
        out.append(body + new[len(new.rstrip("\n")) :])
    return "".join(out)


# -- 5. move definitions -------------------------------------------------------------------------


def move_definitions(source: str, names: tuple[str, ...], target: str, docstring: str) -> None:
    src_path, dst_path = path_of(source), path_of(target)
    text = src_path.read_text()
    header, parts = chunks(text)
    moved = [t for node, t in parts if set(top_names(node)) & set(names)]
    found = {n for node, _ in parts for n in top_names(node)} & set(names)
    if found != set(names):
        die(f"{src_path}: cannot move {sorted(set(names) - found)} to {target}: not defined")
    lines = text.splitlines(keepends=True)
    prev, drop = len(header.splitlines()), set()
    for node, _ in parts:
        if set(top_names(node)) & set(names):
            start = prev
            while start < len(lines) and not lines[start].strip():
                start += 1  # the blank lines above stay; comments above go with it
            drop.update(range(start, node.end_lineno or prev))
        prev = node.end_lineno or prev
    rest_text = "".join(line for i, line in enumerate(lines) if i not in drop)
    rest_text = re.sub(r"\n{4,}", "\n\n\n", rest_text).rstrip("\n") + "\n"
    src_imports = imports_of(text, exclude=target)
    kept_defined = {n for node, _ in parts for n in top_names(node)} - set(names)
    needed = sorted(kept_defined & set().union(*(used_names(m) for m in moved)))
    if needed:  # the moved code uses what stays behind: import it from there
        src_imports += f"from {source} import {', '.join(needed)}\n"
    if dst_path.exists():
        dst_text = dst_path.read_text()
        added = "\n\n".join(m.rstrip("\n") + "\n" for m in moved)
        dst_text = dst_text.rstrip("\n") + "\n\n\n" + added
        # the moved code may need the source's imports
        dst_header, dst_parts = chunks(dst_text)
        dst_path.write_text(dst_header + src_imports_without_future(src_imports) + "\n\n"
                            + "\n\n".join(t for _, t in dst_parts))
    else:
        write_module(dst_path, docstring, src_imports, moved)
        run("git", "add", str(dst_path))
    back = sorted(n for n in names if n in used_names(rest_text))
    if back:  # what stays behind still uses a moved name: import it after the imports
        cut = len(header)
        rest_text = (rest_text[:cut].rstrip("\n") + "\n"
                     + f"from {target} import {', '.join(back)}\n" + rest_text[cut:])
    src_path.write_text(rest_text)
    # every other importer of a moved name
    for path in scope_files():
        if path.suffix != ".py" or path in (src_path, dst_path):
            continue
        t = path.read_text()
        new = retarget_imports(t, source, set(names), target)
        if new != t:
            path.write_text(new)


def src_imports_without_future(imports: str) -> str:
    return "".join(line + "\n" for line in imports.splitlines() if "__future__" not in line)


def retarget_imports(text: str, source: str, names: set[str], target: str) -> str:
    tree = ast.parse(text)
    lines = text.splitlines(keepends=True)
    edits = []
    base = source.rpartition(".")[2]
    tpkg, _, tbase = target.rpartition(".")
    module_aliases = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == source:
            hit = [a for a in node.names if a.name in names]
            if not hit:
                continue
            rest = [a for a in node.names if a.name not in names]
            fmt = lambda al: ", ".join(a.name + (f" as {a.asname}" if a.asname else "") for a in al)  # noqa: E731
            ind = " " * node.col_offset
            stmt = f"from {target} import {fmt(hit)}"
            if rest:
                stmt = f"from {source} import {fmt(rest)}\n{ind}{stmt}"
            edits.append((node.lineno, node.end_lineno, node.col_offset, stmt))
        if isinstance(node, ast.ImportFrom) and f"{node.module}.{base}" == source:
            for a in node.names:
                if a.name == base:
                    module_aliases.add((a.asname or a.name, node.col_offset, node.end_lineno))
    for start, end, col, stmt in sorted(edits, reverse=True):
        last = lines[end - 1].rstrip("\n")
        comment = last[last.index("#"):] if "#" in last else ""
        if comment:  # a noqa comment on the import goes on each import it became
            stmt = "\n".join(f"{part}  {comment}" for part in stmt.split("\n"))
        lines[start - 1:end] = [lines[start - 1][:col] + stmt + "\n"]
    text = "".join(lines)
    for alias, col, end in sorted(module_aliases, key=lambda a: a[2], reverse=True):
        pattern = rf"\b{re.escape(alias)}\.({'|'.join(map(re.escape, sorted(names)))})\b"
        if re.search(pattern, text):
            text = re.sub(pattern, rf"{tbase}.\1", text)
            lines = text.splitlines(keepends=True)
            lines.insert(end, " " * col + f"from {tpkg} import {tbase}\n")
            text = "".join(lines)
    return text


# -- 6. tidy -------------------------------------------------------------------------------------


def allow_long_lines() -> None:
    """A code line the renames made longer than 100 columns (a module path in a string of code)
    gets `# noqa: E501`; one inside a multi-line string cannot, and stops the codemod."""
    done = subprocess.run(["ruff", "check", "--quiet", "--select", "E501", "--output-format",
                           "concise", *SCOPE_DIRS], capture_output=True, text=True, check=False)
    stuck = []
    for hit in re.findall(r"^(\S+\.py):(\d+):\d+: E501", done.stdout, re.M):
        path, row = Path(hit[0]), int(hit[1])
        text = path.read_text()
        inside = set()
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type == tokenize.STRING and tok.end[0] > tok.start[0]:
                inside.update(range(tok.start[0], tok.end[0]))
        lines = text.splitlines(keepends=True)
        if row in inside:
            stuck.append(f"{path}:{row}")
            continue
        line = lines[row - 1].rstrip("\n")
        if "# noqa:" in line:
            line = line + ",E501" if "E501" not in line else line
        else:
            line = line + "  # noqa: E501"
        lines[row - 1] = line + "\n"
        path.write_text("".join(lines))
    if stuck:
        die("lines the renames made longer than 100 columns inside a string (wrap by hand, "
            "then run ruff):\n  " + "\n  ".join(stuck))


def tidy() -> None:
    dirs = ["conformance", "reference", "tests", "tools", "benchmarks"]
    subprocess.run(["ruff", "check", "--quiet", "--fix", "--select", "F401,I001", *dirs],
                   check=False)
    one_name = re.compile(r"^(\s*from [\w.]+ import )\(\n\s+([\w]+(?: as \w+)?),\n\s*\)$", re.M)
    for d in dirs:
        for path in sorted(Path(d).rglob("*.py")):
            text = path.read_text()
            new = one_name.sub(r"\1\2", text)
            if new != text:
                path.write_text(new)
    subprocess.run(["ruff", "check", "--quiet", "--fix", "--select", "I001", *dirs], check=False)
    allow_long_lines()
    out = subprocess.run(["ruff", "check", "--quiet", "--select", "F821,F811,F401,I001",
                          "conformance", "reference", "tests", "tools"], check=False)
    if out.returncode:
        die("the rewritten tree has undefined or duplicated names (above): extend the tables")
    long = {}
    for package in ("conformance", "reference"):
        for path in sorted(Path(package).rglob("*.py")):
            if not SKIP_PARTS & set(path.parts):
                n = len(path.read_text().splitlines())
                if n > MAX_LINES:
                    long[str(path)] = n
    if long:
        die(f"modules over {MAX_LINES} lines (add DEFINITION_MOVES): {long}")
    run("git", "add", "-A",
        *[p for p in (*SCOPE_DIRS, *SCOPE_FILES, *PROSE_DIRS) if Path(p).exists()])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check the tables cover the tree")
    args = parser.parse_args()
    if not Path("conformance/__init__.py").exists():
        die("run me from the repository root")
    if shutil.which("ruff") is None:
        die("ruff is not on PATH (activate the dev virtualenv)")
    if Path("conformance/selftest/broken_ports").exists():
        die("already restructured (conformance/selftest/broken_ports exists)")
    check_coverage()
    if args.check:
        print("restructure_conformance: every module and broken port is placed")
        return 0
    renames = {**move_modules(), **{m: MODULES[m] for m in BROKEN_PORT_SOURCES}}
    split_broken_ports()
    rewrite_everything(renames)
    for source, names, target, doc in DEFINITION_MOVES:
        move_definitions(source, names, target, doc)
    for source, names, target, doc in OPTIONAL_DEFINITION_MOVES:
        defined = {n for node in ast.parse(path_of(source).read_text()).body
                   for n in top_names(node)} & set(names)
        if defined:
            move_definitions(source, tuple(n for n in names if n in defined), target, doc)
    for old, (new, doc) in PUBLIC_SHIMS.items():
        shim = path_of(old)
        shim.write_text(f"{docstring_text(doc)}\n\nfrom __future__ import annotations\n\n"
                        f"import sys\n\nfrom {new} import main\n\n"
                        'if __name__ == "__main__":\n    sys.exit(main())\n')
        run("git", "add", str(shim))
    for name, pairs in TEXT_FIXUPS.items():
        fixed = Path(name).read_text()
        for old_text, new_text in pairs:
            if old_text not in fixed:
                die(f"{name}: expected {old_text}")
            fixed = fixed.replace(old_text, new_text)
        Path(name).write_text(fixed)
    cli = Path("conformance/cli.py")
    text = cli.read_text()
    for old, new in SUBCOMMAND_FIXUPS.items():
        if old not in text:
            die(f"{cli}: expected {old}")
        text = text.replace(old, new)
    cli.write_text(text)
    tidy()
    print("restructure_conformance: done; now run the checks of docs/architecture.md")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
