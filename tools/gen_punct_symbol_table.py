"""Generate spec/data/punct_symbol.json: the P∪S code point ranges every port loads.

Spec: spec/portability.md#text-6. Runtimes ship different Unicode versions, so the table is
generated once (from this interpreter's unicodedata) and frozen as data.
"""

from __future__ import annotations

import hashlib
import json
import sys
import unicodedata
from pathlib import Path


def ranges() -> list[list[int]]:
    """Inclusive [first, last] ranges of code points whose general category starts with P or S."""
    out: list[list[int]] = []
    for cp in range(0x110000):
        if unicodedata.category(chr(cp))[0] in "PS":
            if out and out[-1][1] == cp - 1:
                out[-1][1] = cp
            else:
                out.append([cp, cp])
    return out


def main() -> int:
    table = ranges()
    body = {
        "description": "Code points of Unicode general categories P* and S*, as inclusive ranges.",
        "unicodeVersion": unicodedata.unidata_version,
        "rangeCount": len(table),
        "codePointCount": sum(b - a + 1 for a, b in table),
        "ranges": table,
    }
    text = json.dumps(body, indent=None, separators=(",", ":")) + "\n"
    dest = Path(__file__).resolve().parent.parent / "spec" / "data" / "punct_symbol.json"
    dest.write_text(text, encoding="utf-8")
    digest = hashlib.sha256(text.encode()).hexdigest()
    print(dest, body["rangeCount"], body["codePointCount"], digest)
    return 0


if __name__ == "__main__":
    sys.exit(main())
