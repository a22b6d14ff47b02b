"""How `hrc diff` reads two lists and two long values (issue 38, item 5): one moved item was 25
position-by-position differences, and a large output was two SHA-256 values.

Lists whose items are identifiable (every item an object with a unique string `id`, or every
item a unique scalar) are aligned by identity: an item only in A is `removed`, only in B
`inserted`, and one whose place changed beyond what the insertions and removals explain is
`moved` (the longest common subsequence of the shared ids stays in place); then each shared
item is compared field by field at its B position. Other lists compare position by position.
Values too long to print whole are shown around their first difference, and two outputs the
runner kept only as a digest (PROTO-39, `hrc:truncated`) as their sizes and kept prefixes.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Callable
from typing import Any

Leaf = Callable[[Any, Any, str], list[tuple[str, str, Any, Any]]]

#: Characters shown on each side of the first difference of two long values.
CONTEXT = 80


def identity(items: list[Any]) -> list[str] | None:
    """The identities of the items of a list, or None when they are not all unique ids."""
    if all(isinstance(i, dict) and isinstance(i.get("id"), str) for i in items):
        keys = [f"id {i['id']}" for i in items]
    elif all(isinstance(i, str | int) and not isinstance(i, bool) for i in items):
        keys = [json.dumps(i) for i in items]
    else:
        return None
    return keys if len(set(keys)) == len(keys) else None


def walk(a: Any, b: Any, path: str, leaf: Leaf) -> list[tuple[str, str, Any, Any]]:
    """(path, reason, a, b) for every difference; `leaf` compares what is not walked here."""
    if isinstance(a, dict) and isinstance(b, dict):
        out: list[tuple[str, str, Any, Any]] = []
        for key, value in a.items():
            if key not in b:
                out.append((f"{path}/{key}", "only in A", value, None))
            else:
                out.extend(walk(value, b[key], f"{path}/{key}", leaf))
        out.extend((f"{path}/{key}", "only in B", None, b[key]) for key in sorted(set(b) - set(a)))
        return out
    if isinstance(a, list) and isinstance(b, list):
        keys_a, keys_b = identity(a), identity(b)
        if keys_a is not None and keys_b is not None and keys_a != keys_b:
            return _aligned(a, b, keys_a, keys_b, path, leaf)
        if len(a) == len(b):
            return [d for i, (x, y) in enumerate(zip(a, b, strict=True))
                    for d in walk(x, y, f"{path}/{i}", leaf)]
    return leaf(a, b, path)


def _aligned(a: list[Any], b: list[Any], keys_a: list[str], keys_b: list[str], path: str,
             leaf: Leaf) -> list[tuple[str, str, Any, Any]]:
    shared_b = set(keys_b)
    shared_a = set(keys_a)
    common_a = [k for k in keys_a if k in shared_b]
    common_b = [k for k in keys_b if k in shared_a]
    matcher = difflib.SequenceMatcher(None, common_a, common_b, autojunk=False)
    stayed = {k for block in matcher.get_matching_blocks()
              for k in common_a[block.a:block.a + block.size]}
    where_a = {k: i for i, k in enumerate(keys_a)}
    out: list[tuple[str, str, Any, Any]] = []
    for i, key in enumerate(keys_a):
        if key not in shared_b:
            out.append((f"{path}/{i}", f"removed ({key}, A position {i})", a[i], None))
    for j, key in enumerate(keys_b):
        if key not in shared_a:
            out.append((f"{path}/{j}", f"inserted ({key}, B position {j})", None, b[j]))
        elif key not in stayed:
            i = where_a[key]
            out.append((f"{path}/{j}", f"moved ({key}, from position {i} to {j})", i, j))
    for j, key in enumerate(keys_b):
        if key in shared_a:
            out.extend(walk(a[where_a[key]], b[j], f"{path}/{j}", leaf))
    return out


def truncated(value: Any) -> dict[str, Any] | None:
    """The runner's record of an output too long to keep (PROTO-39), if `value` is one."""
    if isinstance(value, dict) and set(value) == {"hrc:truncated"}:
        record = value["hrc:truncated"]
        return record if isinstance(record, dict) else None
    return None


def around_first_difference(a: str, b: str) -> tuple[str, str, int]:
    """Both texts cut to the window around their first differing character, and its index."""
    at = 0
    while at < min(len(a), len(b)) and a[at] == b[at]:
        at += 1
    start = max(0, at - CONTEXT)

    def cut(text: str) -> str:
        end = min(len(text), at + CONTEXT)
        return ("…" if start else "") + text[start:end] + ("…" if end < len(text) else "")

    return cut(a), cut(b), at
