"""JSON Pointer lookup, shared by the comparison and the FTS5 meaning check."""

from __future__ import annotations

from typing import Any


def resolve_pointer(document: Any, pointer: str) -> tuple[bool, Any]:
    """RFC 6901: (True, value) when `pointer` names a value of `document`, else (False, None).

    `""` names the whole document; `~1` stands for `/` and `~0` for `~`; an array step is a
    decimal index without leading zeros.
    """
    if pointer == "":
        return True, document
    current = document
    for raw in pointer.split("/")[1:]:
        step = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(current, dict):
            if step not in current:
                return False, None
            current = current[step]
        elif isinstance(current, list):
            if not step.isdigit() or (step != "0" and step.startswith("0")):
                return False, None
            index = int(step)
            if index >= len(current):
                return False, None
            current = current[index]
        else:
            return False, None
    return True, current
