"""One-line `path:line: invalid YAML: …` messages from PyYAML/libyaml errors (PROTO-38).

The parser's own words change between PyYAML and libyaml releases; the kit's contract is the
`path:line` prefix and a single printable line, so the words are folded, never asserted on.
"""

from __future__ import annotations

import yaml


def invalid_yaml_message(where: str, exc: yaml.YAMLError, text: str | None = None) -> str:
    """`where:line: invalid YAML: <parser's words on one line> (column N)`; line 1 when the
    parser gives no position. A character the reader refuses (a NUL, a control) carries only
    its position in the text: given `text`, it is reported at its own line (issue 29)."""
    if isinstance(exc, yaml.reader.ReaderError) and text is not None:
        line = text.count("\n", 0, exc.position) + 1
        char = exc.character
        what = f"character U+{char:04X}" if isinstance(char, int) else "a character"
        return f"{where}:{line}: invalid YAML: {what} is not allowed"
    mark = getattr(exc, "problem_mark", None)
    line = mark.line + 1 if mark is not None else 1
    parts = [getattr(exc, "context", None), getattr(exc, "problem", None)]
    words = " ".join(str(part) for part in parts if part) or str(exc)
    folded = " ".join("".join(ch if ch.isprintable() else " " for ch in words).split())
    column = f" (column {mark.column + 1})" if mark is not None else ""
    return f"{where}:{line}: invalid YAML: {folded or 'unreadable'}{column}"
