"""Profiles: named, versioned parts of the spec that a port opts into (spec/profiles.md).

A profile NAME lives by its name alone: chapter `spec/profiles/NAME.md` (with the line
`Profile version **X.Y.Z**.`), data `spec/data/profiles/NAME/`, cases `golden/profiles/NAME/`,
reference `reference/profiles/NAME/`. Every case under `golden/profiles/NAME/` requires the
capability `profile:NAME` (PROFILE-3); profile operations are named `NAME.op` (PROFILE-4).
"""

from __future__ import annotations

import re
from pathlib import Path

#: The folder under golden/, spec/, spec/data/ and reference/ that holds profiles.
PROFILES_DIR = "profiles"
CAPABILITY_PREFIX = "profile:"
NAME = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")
VERSION_LINE = re.compile(r"^Profile version \*\*([0-9]+\.[0-9]+\.[0-9]+)\*\*", re.MULTILINE)
#: PROFILE-8: an extension profile says so in its chapter; a profile without the line is standalone.
KIND_LINE = re.compile(r"^Profile kind: \*\*(standalone|extension)\*\*", re.MULTILINE)
STANDALONE = "standalone"
EXTENSION = "extension"


class ProfileError(ValueError):
    """A profile is malformed: bad name, no chapter, or no version line."""


def capability(name: str) -> str:
    """The capability a port declares for profile `name` (PROFILE-2)."""
    return CAPABILITY_PREFIX + name


def name_of_capability(cap: str) -> str | None:
    """`temporal` for `profile:temporal`; None for any other capability."""
    return cap[len(CAPABILITY_PREFIX) :] if cap.startswith(CAPABILITY_PREFIX) else None


def op_profile(op: str) -> str | None:
    """The profile an operation belongs to: `temporal` for `temporal.expand`; None for core."""
    return op.split(".", 1)[0] if "." in op else None


def chapter(spec_dir: Path, name: str) -> Path:
    return spec_dir / PROFILES_DIR / f"{name}.md"


def version(spec_dir: Path, name: str) -> str:
    """The profile's version from its chapter (PROFILE-2); raises ProfileError."""
    if not NAME.fullmatch(name):
        raise ProfileError(f"profile name {name!r} is not lowercase ASCII words joined by '-'")
    path = chapter(spec_dir, name)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ProfileError(f"profile {name!r} has no chapter {path}: {exc}") from exc
    found = VERSION_LINE.search(text)
    if found is None:
        raise ProfileError(f"{path}: no line `Profile version **X.Y.Z**.`")
    return found.group(1)


def kind(spec_dir: Path, name: str) -> str:
    """`standalone` or `extension` (PROFILE-8), from the chapter's `Profile kind` line.

    A standalone profile's cases call only its own operations; an extension's may call the
    core's. A chapter without the line is standalone, the stricter reading. Raises
    ProfileError as `version` does, so a missing chapter is reported as such.
    """
    version(spec_dir, name)
    found = KIND_LINE.search(chapter(spec_dir, name).read_text(encoding="utf-8"))
    return found.group(1) if found else STANDALONE


def major(semver: str) -> str:
    return semver.split(".", 1)[0]


