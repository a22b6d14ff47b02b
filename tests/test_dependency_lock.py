"""The locked dependency set CI installs (requirements/README.md, issue 22): complete, exact
and hashed, and within what pyproject.toml allows."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
LOCK = ROOT / "requirements" / "ci.lock"
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^ \\;]+)")
SELF = canonicalize_name("hybrid-retrieval-conformance")


def _pins() -> dict[str, tuple[str, list[str]]]:
    """name -> (version, hashes) for every entry of the lock."""
    pins: dict[str, tuple[str, list[str]]] = {}
    current: str | None = None
    for line in LOCK.read_text(encoding="utf-8").splitlines():
        match = PIN.match(line)
        if match:
            current = canonicalize_name(match.group(1))
            assert current not in pins, f"ci.lock pins {current} twice"
            pins[current] = (match.group(2), [])
        elif "--hash=" in line and current is not None:
            pins[current][1].append(line.strip().removeprefix("--hash=").rstrip(" \\"))
        elif line.strip() and not line.lstrip().startswith("#"):
            raise AssertionError(f"ci.lock: unexpected line {line!r}")
    return pins


def _declared() -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    raw = list(project["dependencies"])
    for extra in ("test", "dev"):
        raw += project["optional-dependencies"][extra]
    return [r for r in map(Requirement, raw) if canonicalize_name(r.name) != SELF]


def test_every_lock_entry_is_an_exact_pin_with_sha256_hashes() -> None:
    """`pip install --require-hashes` refuses anything else; a hashless entry would only fail
    on the CI machine."""
    pins = _pins()
    assert pins
    for name, (_, hashes) in pins.items():
        assert hashes, f"ci.lock: {name} has no hash"
        assert all(h.startswith("sha256:") and len(h) == 71 for h in hashes), name


def test_every_declared_dependency_is_locked_within_its_range() -> None:
    """A dependency added to pyproject.toml without refreshing the lock fails here, not in CI."""
    pins = _pins()
    for requirement in _declared():
        name = canonicalize_name(requirement.name)
        assert name in pins, f"{name} is in pyproject.toml but not in requirements/ci.lock"
        version = pins[name][0]
        assert requirement.specifier.contains(version, prereleases=True), (
            f"ci.lock pins {name}=={version}, outside pyproject.toml's {requirement.specifier}"
        )


def test_ci_installs_only_from_the_lock() -> None:
    """.ci/run installs the lock with hashes and resolves nothing else."""
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    installs = [ln.strip() for ln in script.splitlines() if "pip install" in ln]
    assert installs, script
    for line in installs:
        assert "--no-deps" in line, line
        assert "--require-hashes" in line or line.endswith("-e ."), line
    assert "requirements/ci.lock" in script
