"""`hrc pin`: the pip command that installs this exact kit elsewhere (a port's CI).

The kit is on no package index, so `pip install hybrid-retrieval-conformance==X` cannot work.
What can, without any release tag (issue 38: the repository had none): a wheel built from a
clone (`hrc pin --wheel DIR`, the path that works offline and from any repository), a git
revision pinned by its commit (`git+URL@COMMIT`, when the clone has a remote), or the clone or
file this kit was installed from (pip records it, PEP 610 `direct_url.json`). The first line
printed is the command; `#` lines explain. ports/ci/ holds a CI recipe that takes that line.
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
from dataclasses import dataclass
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


@dataclass(frozen=True)
class Revision:
    """Where a git clone of the kit stands: its commit, remote, tag at HEAD, local edits."""

    commit: str
    remote: str | None  # the `origin` URL (or the first remote), None without one
    tag: str | None  # a tag pointing at HEAD, None without one (the usual case)
    dirty: bool  # tracked files differ from the commit


def _git(root: Path, *args: str) -> str | None:
    try:
        done = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True,
                              check=False, timeout=20)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() if done.returncode == 0 else None


def revision(root: Path) -> Revision | None:
    """The git state of a clone at `root`; None when it is not a git work tree."""
    commit = _git(root, "rev-parse", "--verify", "HEAD")
    if not commit:
        return None
    remotes = (_git(root, "remote") or "").split()
    name = "origin" if "origin" in remotes else (remotes[0] if remotes else None)
    remote = _git(root, "remote", "get-url", name) if name else None
    tags = (_git(root, "tag", "--points-at", "HEAD") or "").split()
    status = _git(root, "status", "--porcelain", "--untracked-files=no")
    return Revision(commit, remote or None, tags[0] if tags else None, bool(status))


def git_spec(remote: str, at: str) -> str:
    """The pip requirement for `remote` at commit or tag `at` (a local path becomes file://)."""
    if "://" not in remote and not remote.startswith("git@") and Path(remote).is_absolute():
        remote = Path(remote).as_uri()
    elif remote.startswith("git@") and ":" in remote:  # scp-like syntax, which pip cannot read
        host, path = remote.removeprefix("git@").split(":", 1)
        remote = f"ssh://git@{host}/{path}"
    return f"git+{remote}@{at}"


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
        description="Print the command that installs this kit elsewhere. The kit is on no "
        "package index and needs no release tag: with --wheel DIR, build the kit's wheel from "
        "this clone into DIR and print the command that installs that file (works offline, "
        "from any repository: commit or cache the wheel); without it, pin the clone's commit "
        "(git+URL@COMMIT when it has a remote), or name the clone, wheel or git revision pip "
        "installed this kit from. Its version is the spec version. ports/ci/ holds a CI "
        "recipe that installs the pinned kit and runs the suite.",
    )
    p.add_argument("--wheel", type=Path, metavar="DIR", help="build a wheel into DIR")
    p.add_argument("--ci", type=Path, metavar="DIR", help="copy the CI recipe (ports/ci: a "
                   "shell script and a GitHub Actions workflow) into DIR, then exit")
    p.set_defaults(func=cmd_pin)


#: The CI recipe a port copies (ports/ci/, shipped in the wheel as conformance/_kit/ports/ci).
CI_FILES = ("hrc-conformance.sh", "github-actions.yml")


def copy_ci_recipe(target: Path) -> list[Path]:
    """Write the CI recipe into `target` (the script executable); returns the files written."""
    from reference.data import kit_root

    source = kit_root() / "ports" / "ci"
    target.mkdir(parents=True, exist_ok=True)
    written = []
    for name in CI_FILES:
        out = target / name
        out.write_bytes((source / name).read_bytes())
        if name.endswith(".sh"):
            out.chmod(0o755)
        written.append(out)
    return written


def cmd_pin(args: argparse.Namespace) -> int:
    from conformance import __version__

    if args.ci is not None:
        try:
            for path in copy_ci_recipe(args.ci):
                print(path)
        except OSError as exc:
            return errors.emit("pin", f"--ci {args.ci}: {exc.strerror or exc}")
        print("# copy github-actions.yml to .github/workflows/ and the script to ci/; set "
              "HRC_PIN to the wheel `hrc pin --wheel vendor/` builds")
        return 0
    root = source_root()
    recorded = recorded_direct_url()
    wheel_note = ("# offline, or a CI that cannot reach this clone: `hrc pin --wheel dist/` "
                  "builds a wheel; commit or cache it and pip install that file")
    if args.wheel is not None:
        root = root or recorded_clone(recorded)
        if root is None:
            return errors.emit("pin", "--wheel needs a clone of the kit (this one was not "
                               "installed from one: copy the wheel it came from instead)")
        wheel = build_wheel(root, args.wheel)
        at = revision(root)
        print(f"pip install {shlex.quote(str(wheel))}")
        where = f" at commit {at.commit}" + (" with local edits" if at.dirty else "") if at else ""
        print(f"# hrc {__version__} (spec {__version__}), a wheel built from {root}{where}")
        print("# copy the file into your repository or CI cache; ports/ci/ has a recipe")
        return 0
    vcs = recorded.get("vcs_info") if recorded else None
    clone = root or recorded_clone(recorded)
    at = revision(clone) if clone is not None and not isinstance(vcs, dict) else None
    if at is not None and at.remote is not None:
        command: str | None = f"pip install {shlex.quote(git_spec(at.remote, at.commit))}"
    else:
        command = install_command(recorded, root)
    if command is None:
        return errors.emit("pin", "cannot tell where this kit was installed from; install it "
                           "from a clone (pip install /path/to/clone) or a wheel built from one "
                           "(hrc pin --wheel dist/ in that clone)")
    print(command)
    print(f"# hrc {__version__} (spec {__version__}); the kit is on no package index")
    if at is not None:
        tagged = f" (tag {at.tag})" if at.tag else ""
        print(f"# clone {clone} at commit {at.commit}{tagged}: `git checkout {at.commit}` in "
              "any clone gives the same kit")
        if at.dirty:
            print("# the clone has uncommitted changes the commit does not hold: use --wheel")
        if at.remote is None:
            print("# the clone has no remote, so the command names this machine's folder")
    print(wheel_note)
    return 0
