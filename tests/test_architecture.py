"""The kit's house in layers (docs/architecture.md, issue 26): no import circle in conformance/
or reference/, no module over 600 lines, and the import-linter contract kept.

The circle check reads every import with `ast`, also the ones inside functions: a lazy import
only hides a circle from the interpreter, not from the reader.
"""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("conformance", "reference")
MAX_LINES = 600
#: Not modules of the kit: scaffold templates and the packaged copy of spec/ (built wheels).
SKIPPED_DIRS = {"scaffolds", "_kit", "__pycache__"}


def _modules() -> dict[str, Path]:
    out = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            rel = path.relative_to(ROOT)
            if SKIPPED_DIRS & set(rel.parts):
                continue
            parts = list(rel.with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join(parts)] = path
    return out


def _imports(path: Path, modules: Mapping[str, Path]) -> set[str]:
    """The kit's modules that `path` imports, anywhere in it (a name imported from a package
    counts as the sub-module when there is one, else as the package)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names = [f"{node.module}.{alias.name}" for alias in node.names]
        for name in names:
            while name and name not in modules:
                name = name.rpartition(".")[0]
            if name:
                found.add(name)
    return found


def import_graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: _imports(path, modules) - {name} for name, path in modules.items()}


def circles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10 * len(graph) + 100))
    try:
        for node in sorted(graph):
            if node not in index:
                visit(node)
    finally:
        sys.setrecursionlimit(limit)
    return sorted(found)


def test_circles_finds_a_circle_and_only_one() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert circles(graph) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_the_graph_sees_lazy_imports() -> None:
    graph = import_graph()
    # conformance/cli.py imports its sub-commands by name only; the plugin imports the runner
    assert "conformance.running.runner" in graph["conformance.pytest_plugin"]
    assert len(graph) > 100


def test_no_import_circle_in_conformance_or_reference() -> None:
    found = circles(import_graph())
    assert found == [], "import circles: " + "; ".join(" <-> ".join(c) for c in found)


def test_no_module_over_600_lines() -> None:
    long = {
        str(path.relative_to(ROOT)): n
        for path in _modules().values()
        if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert long == {}, f"modules over {MAX_LINES} lines (split them by role): {long}"


def test_every_tool_a_test_runs_is_in_the_test_extra() -> None:
    """The README's `pip install -e '.[test]' && pytest` passes as written (issue 38: the
    layers test needed import-linter from the `dev` extra the README never mentions)."""
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    test_extra = " ".join(project["optional-dependencies"]["test"])
    for distribution in ("import-linter", "pytest", "hypothesis", "syrupy", "hatchling"):
        assert distribution in test_extra, distribution
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "pip install -e '.[test]' && pytest" in readme


def test_import_layers_contract_is_kept() -> None:
    """pyproject.toml's [tool.importlinter] contracts (layers, independent commands)."""
    lint_imports = shutil.which("lint-imports")
    if lint_imports is None:
        pytest.fail("lint-imports is missing: install the test extra (pip install -e '.[test]')")
    done = subprocess.run([lint_imports], cwd=ROOT, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
