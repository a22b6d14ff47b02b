"""Move the spec to a new version everywhere the version is written by hand, then say what is
generated from it (goldens, snapshots, README matrix, gallery).

    python tools/bump_spec_version.py 5.0.0           # rewrite, then list the follow-ups
    python tools/bump_spec_version.py --check         # exit 1 if a place lags behind SPEC_VERSION

The places are listed once, below; `--check` (tests/test_pin.py) keeps them in step, so a bump
that forgets one fails there instead of in a porter's hello.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VERSION = r"\d+\.\d+\.\d+"

#: (file glob, pattern whose group 1 is the version). Each must match at least once per file.
PLACES: tuple[tuple[str, str], ...] = (
    ("reference/__init__.py", rf'(?m)^SPEC_VERSION = "({VERSION})"$'),
    ("ports/go/hrc/jsonio.go", rf'(?m)^const SpecVersion = "({VERSION})"$'),
    ("ports/js/src/pipeline.mjs", rf"(?m)^export const SPEC_VERSION = '({VERSION})';$"),
    ("ports/python-wrapper/adapter.py", rf'"specVersion": "({VERSION})"'),
    ("spec/README.md", rf"(?m)^Spec version \*\*({VERSION})\*\*"),
    ("spec/*.md", rf"(?m)\A(?:.*\n){{2}}Spec version ({VERSION})\."),
    ("spec/adapter-protocol.md", rf'"specVersion":"({VERSION})"'),
    ("ports/README.md", rf'"specVersion":"({VERSION})"'),
)

FOLLOW_UPS = """then regenerate what is derived from it:
  hrc regen                                        # golden traces carry specVersion
  pytest tests/test_trace_snapshots.py --snapshot-update
  python tools/readme_ports_matrix.py --write
  python tools/gallery.py all                      # ports/wild reports name the version
  re-measure ports/systems/ (ports/systems/README.md)
and add the CHANGELOG section."""


def current() -> str:
    text = (ROOT / "reference" / "__init__.py").read_text("utf-8")
    found = re.search(PLACES[0][1], text)
    assert found, "reference/__init__.py has no SPEC_VERSION"
    return found.group(1)


def files(glob: str) -> list[Path]:
    found = sorted(ROOT.glob(glob))
    if glob == "spec/*.md":  # chapters with the version line under their title
        found = [p for p in found if re.search(PLACES[5][1], p.read_text("utf-8"))]
    return found


def lagging(version: str) -> list[str]:
    """Every place whose version is not `version`, as `file: found`."""
    problems = []
    for glob, pattern in PLACES:
        paths = files(glob)
        if not paths:
            problems.append(f"{glob}: no such file")
        for path in paths:
            values = re.findall(pattern, path.read_text("utf-8"))
            if not values:
                problems.append(f"{path.relative_to(ROOT)}: no version found")
            problems += [f"{path.relative_to(ROOT)}: {v}" for v in values if v != version]
    return problems


def bump(version: str) -> list[Path]:
    changed = []
    for glob, pattern in PLACES:
        for path in files(glob):
            text = path.read_text("utf-8")
            new = re.sub(pattern, lambda m: m.group(0).replace(m.group(1), version), text)
            if new != text:
                path.write_text(new, "utf-8")
                changed.append(path)
    return changed


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("version", nargs="?", help="the new version, X.Y.Z")
    parser.add_argument("--check", action="store_true", help="only check every place agrees")
    args = parser.parse_args(argv)
    if args.check:
        problems = lagging(current())
        for line in problems:
            print(f"bump_spec_version: {line} (SPEC_VERSION is {current()})", file=sys.stderr)
        return 1 if problems else 0
    if not args.version or not re.fullmatch(VERSION, args.version):
        parser.error("give the new version as X.Y.Z, or --check")
    changed = bump(args.version)
    for path in changed:
        print(f"rewrote {path.relative_to(ROOT)}")
    print(FOLLOW_UPS)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
