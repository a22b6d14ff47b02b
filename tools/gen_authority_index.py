"""Write spec/authority.json from the authority tags of the spec text (spec/README.md
"Authority"): `- **ID** [AUTHORITY]` -> {"ID": "AUTHORITY"}, keys sorted.

The spec text is the source; the index is its machine-readable copy, and
tests/test_authority.py fails when the two differ. Run: `python tools/gen_authority_index.py`.
"""

from __future__ import annotations

import sys
from pathlib import Path

from conformance.judging.authority import INDEX_FILE, AuthorityError, index_text, spec_tags

SPEC = Path(__file__).resolve().parent.parent / "spec"


def main() -> int:
    try:
        text = index_text(spec_tags(SPEC))
    except AuthorityError as exc:
        print(f"spec/{exc}", file=sys.stderr)
        return 2
    (SPEC / INDEX_FILE).write_text(text, encoding="utf-8", newline="\n")
    print(f"wrote spec/{INDEX_FILE}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
