"""A generated block of README.md between two HTML comment markers: read it, or rewrite it."""

from __future__ import annotations

from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def block(text: str, begin: str, end: str) -> str:
    """The text currently between `begin` and `end`, stripped."""
    start = text.index(begin) + len(begin)
    return text[start:text.index(end)].strip()


def write_block(current: str, begin: str, end: str, path: Path = README) -> None:
    """Replace what stands between the markers of `path` by `current`."""
    text = path.read_text(encoding="utf-8")
    start = text.index(begin) + len(begin)
    path.write_text(text[:start] + "\n" + current + "\n" + text[text.index(end):],
                    encoding="utf-8")
