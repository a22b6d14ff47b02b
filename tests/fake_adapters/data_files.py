"""Reports `dataFiles` in its hello (PROTO-28) as argv[1] says; answers the tiny suite right.

Modes, over the kit's spec/data/**/*.json (names are read, never hard-coded):
`match` the kit's hashes; `stale` the first file's bytes plus one space; `empty` the first file
read as empty bytes; `unknown` the kit's hashes plus `retired-name.json`; `partial` only the
first file; `missing` no dataFiles at all.
"""

import hashlib
import sys
from pathlib import Path

from _base import Message, hello, serve

DATA = Path(__file__).resolve().parents[2] / "spec" / "data"
MODE = sys.argv[1]


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def reported() -> dict[str, str] | None:
    files = {
        p.relative_to(DATA).as_posix(): p.read_bytes() for p in sorted(DATA.rglob("*.json"))
    }
    hashes = {name: sha(data) for name, data in files.items()}
    first = sorted(files)[0]
    if MODE == "match":
        return hashes
    if MODE == "stale":
        return {**hashes, first: sha(files[first] + b" ")}
    if MODE == "empty":
        return {**hashes, first: sha(b"")}
    if MODE == "unknown":
        return {**hashes, "retired-name.json": sha(b"{}")}
    if MODE == "partial":
        return {first: hashes[first]}
    return None


def on_hello(request: Message) -> Message | None:
    files = reported()
    return hello() if files is None else hello(dataFiles=files)


serve(None, on_hello)
