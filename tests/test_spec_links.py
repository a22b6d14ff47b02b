"""Every file the documentation points at exists (spec/trace.md TRACE-1 names its schema).

Checks relative Markdown links and backticked repository paths (`reference/x.py`,
`golden/...`, `schemas/...`, `spec/data/...`) in the spec and the top-level guides, against the
tree as it is. A path with a placeholder (`<stage>`) is skipped; a glob must match something.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = sorted(
    [
        *(ROOT / "spec").glob("*.md"),
        ROOT / "README.md",
        ROOT / "CONTRIBUTING.md",
        ROOT / "golden" / "README.md",
        ROOT / "ports" / "README.md",
        ROOT / "ports" / "wild" / "README.md",
        *(ROOT / "ports" / "wild").glob("*/FINDINGS.md"),
    ]
)
#: Top-level folders whose backticked paths are checked.
REPO_DIRS = (
    "reference", "golden", "schemas", "spec", "conformance", "tests", "ports", "corpus",
    "benchmarks", "tools", "changes",
)
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
CODE = re.compile(r"`([^`\s]+)`")
PLACEHOLDER = re.compile(r"[<>{}…]|\.\.\.|PREFIX|NAME")


def _exists(base: Path, target: str) -> bool:
    if any(ch in target for ch in "*?["):
        return any(base.glob(target))
    return (base / target).exists()


def links(doc: Path) -> list[tuple[int, str]]:
    """(line, target) of every relative Markdown link, anchors dropped."""
    out = []
    for n, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), 1):
        for target in LINK.findall(line):
            if re.match(r"^[a-z]+:", target) or target.startswith("#"):
                continue
            out.append((n, target.split("#", 1)[0]))
    return out


def code_paths(doc: Path) -> list[tuple[int, str]]:
    """(line, path) of every backticked path that starts with a repository folder."""
    out = []
    for n, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), 1):
        for span in CODE.findall(line):
            path = span.rstrip(".,;:")
            if "/" not in path or not path.startswith(tuple(f"{d}/" for d in REPO_DIRS)):
                continue
            if PLACEHOLDER.search(path):
                continue
            out.append((n, path.split("#", 1)[0].split(":", 1)[0]))
    return out


def _build_output(root: Path, path: str) -> bool:
    """A path git ignores (`ports/go/bin/adapter`) is made by a build, not kept in the tree."""
    done = subprocess.run(
        ["git", "-C", str(root), "check-ignore", "-q", "--no-index", path],
        capture_output=True, check=False,
    )
    return done.returncode == 0


def broken(doc: Path, root: Path = ROOT) -> list[str]:
    rel = doc.relative_to(root)
    bad = [f"{rel}:{n}: link {t}" for n, t in links(doc) if not _exists(doc.parent, t)]
    bad += [
        f"{rel}:{n}: path `{p}`"
        for n, p in code_paths(doc)
        if not _exists(root, p) and not _build_output(root, p)
    ]
    return bad


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_link_and_repository_path_exists(doc: Path) -> None:
    """Relative links resolve from the document; backticked paths from the repository root."""
    assert broken(doc) == []


def test_the_checker_sees_a_missing_file(tmp_path: Path) -> None:
    """The check can fail: a made-up path and a made-up link are both reported."""
    (tmp_path / "reference").mkdir()
    (tmp_path / "reference" / "real.py").write_text("")
    doc = tmp_path / "doc.md"
    doc.write_text(
        "See `reference/no_such_module.py`, `reference/real.py` and [x](no-such-page.md).\n"
    )
    assert broken(doc, tmp_path) == [
        "doc.md:1: link no-such-page.md",
        "doc.md:1: path `reference/no_such_module.py`",
    ]


def test_the_guides_are_all_checked() -> None:
    """The documents the brief names are all present, so none is skipped silently."""
    assert all(d.exists() for d in DOCS) and len(DOCS) >= 16


def test_a_build_output_git_ignores_is_not_a_dead_path() -> None:
    """`ports/go/bin/adapter` exists only after `go build`; a missing source file still counts."""
    assert _build_output(ROOT, "ports/go/bin/adapter")
    assert not _build_output(ROOT, "reference/no_such_module.py")
