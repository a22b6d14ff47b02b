"""Test helpers over the profile chapters: every chapter's version, and its agreement with the
reference's profiles (PROFILE-2). Only the tests use them."""

from __future__ import annotations

from pathlib import Path

from conformance.judging.profiles import PROFILES_DIR, version


def chapter_versions(spec_dir: Path) -> dict[str, str]:
    """Name -> version of every chapter `spec/profiles/NAME.md` (PROFILE-2)."""
    folder = spec_dir / PROFILES_DIR
    names = sorted(p.stem for p in folder.glob("*.md")) if folder.is_dir() else []
    return {name: version(spec_dir, name) for name in names}


def consistency_problems(chapters: dict[str, str], implemented: dict[str, str]) -> list[str]:
    """Chapters without a reference profile, and the reverse, or with another version."""
    problems = [f"profile {n!r} has a chapter but no reference/profiles/ package"
                for n in sorted(set(chapters) - set(implemented))]
    problems += [f"reference profile {n!r} has no chapter spec/profiles/{n}.md"
                 for n in sorted(set(implemented) - set(chapters))]
    problems += [f"reference profile {n!r} is version {implemented[n]}, its chapter {chapters[n]}"
                 for n in sorted(set(chapters) & set(implemented))
                 if chapters[n] != implemented[n]]
    return problems
