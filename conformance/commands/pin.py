"""`hrc pin`: the pip command that installs this exact kit elsewhere (a port's CI).

The kit is on no package index, so `pip install hybrid-retrieval-conformance==X` cannot work.
What can: the clone or file this kit was installed from (pip records it, PEP 610
`direct_url.json`), a git tag `vX.Y.Z` (= spec X.Y.Z, the kit's version), or a wheel built
from a clone (`hrc pin --wheel DIR`). The first line printed is the command; `#` lines explain.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import shlex
import subprocess
import sys
import urllib.parse
import urllib.request
from importlib import metadata
from pathlib import Path
from typing import Any

from conformance.common import errors

DISTRIBUTION = "hybrid-retrieval-conformance"


def tag(version: str) -> str:
    """The release tag of a kit version (CONTRIBUTING.md: tag vX.Y.Z is spec X.Y.Z)."""
    return f"v{version}"


def _path_of(url: str) -> str:
    parsed = urllib.parse.urlparse(url)
    if parsed.scheme != "file":
        return url
    return urllib.request.url2pathname(parsed.path)


def install_command(direct_url: dict[str, Any] | None, source_root: Path | None) -> str | None:
    """`pip install …` for what pip recorded (`direct_url`), else for a source checkout at
    `source_root`; None when neither says where the kit came from."""
    if direct_url is not None and isinstance(direct_url.get("url"), str):
        url = direct_url["url"]
        vcs = direct_url.get("vcs_info")
        if isinstance(vcs, dict) and isinstance(vcs.get("vcs"), str):
            at = vcs.get("requested_revision") or vcs.get("commit_id")
            spec = f"{vcs['vcs']}+{url}" + (f"@{at}" if at else "")
            return f"pip install {shlex.quote(spec)}"
        return f"pip install {shlex.quote(_path_of(url))}"
    if source_root is not None:
        return f"pip install {shlex.quote(str(source_root))}"
    return None


def recorded_direct_url() -> dict[str, Any] | None:
    """pip's record of where the installed kit came from (PEP 610), if any."""
    try:
        text = metadata.distribution(DISTRIBUTION).read_text("direct_url.json")
    except metadata.PackageNotFoundError:
        return None
    if not text:
        return None
    try:
        value = json.loads(text)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def source_root() -> Path | None:
    """The clone this code runs from (a folder with pyproject.toml beside the packages)."""
    root = Path(__file__).resolve().parent.parent.parent
    return root if (root / "pyproject.toml").is_file() and (root / "spec").is_dir() else None


def recorded_clone(direct_url: dict[str, Any] | None) -> Path | None:
    """The local clone pip installed this kit from (`pip install /path/to/clone`), if any."""
    if direct_url is None or "dir_info" not in direct_url:
        return None
    url = direct_url.get("url")
    if not isinstance(url, str) or not url.startswith("file:"):
        return None
    root = Path(_path_of(url))
    return root if (root / "pyproject.toml").is_file() else None


def build_wheel(root: Path, out: Path) -> Path:
    """Build the kit's wheel from a clone into `out` (offline when hatchling is installed)."""
    out.mkdir(parents=True, exist_ok=True)
    before = set(out.glob("*.whl"))
    # With hatchling installed the build needs nothing else; without it pip fetches it from
    # its configured index or find-links, as `pip install .` did.
    isolation = [] if importlib.util.find_spec("hatchling") is None else ["--no-build-isolation"]
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", *isolation,
         "--disable-pip-version-check", "-q", "-w", str(out), str(root)],
        capture_output=True, text=True, check=False, timeout=600,
    )
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["pip wheel failed"])[-1]
        raise errors.HrcError(f"cannot build the wheel from {root}: {last} (offline, install "
                              "hatchling first: pip install hatchling)")
    from conformance import __version__

    made = sorted(set(out.glob(f"*-{__version__}-*.whl")) - before) or sorted(
        out.glob(f"*-{__version__}-*.whl"))
    if not made:
        raise errors.HrcError(f"pip wheel wrote no {__version__} wheel into {out}")
    return made[-1].resolve()


def register(subparsers: Any) -> None:
    p: argparse.ArgumentParser = subparsers.add_parser(
        "pin",
        help="print the pip command that installs this exact kit (for a port's CI)",
        description="Print the command that installs this kit elsewhere: the clone, wheel or "
        "git revision it was installed from. The kit is on no package index; its version is "
        "the spec version and release tag vX.Y.Z is spec X.Y.Z. With --wheel DIR, build the "
        "kit's wheel from this clone into DIR and print the command that installs it.",
    )
    p.add_argument("--wheel", type=Path, metavar="DIR", help="build a wheel into DIR")
    p.set_defaults(func=cmd_pin)


def cmd_pin(args: argparse.Namespace) -> int:
    from conformance import __version__

    root = source_root()
    recorded = recorded_direct_url()
    if args.wheel is not None:
        root = root or recorded_clone(recorded)
        if root is None:
            return errors.emit("pin", "--wheel needs a clone of the kit (this one was not "
                               "installed from one: copy the wheel it came from instead)")
        wheel = build_wheel(root, args.wheel)
        print(f"pip install {shlex.quote(str(wheel))}")
        print(f"# hrc {__version__} (spec {__version__}), a wheel built from {root}")
        return 0
    command = install_command(recorded, root)
    if command is None:
        return errors.emit("pin", "cannot tell where this kit was installed from; install it "
                           f"from a clone at tag {tag(__version__)} (pip install /path/to/clone)")
    print(command)
    print(f"# hrc {__version__} (spec {__version__}); the release tag is {tag(__version__)}: "
          f"in a clone, `git checkout {tag(__version__)}` then `pip install .`")
    print("# a wheel to copy into an offline CI: hrc pin --wheel dist/")
    return 0
