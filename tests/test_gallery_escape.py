"""`tools/gallery.py render` writes a report's hello text as inert Markdown (issue 39, item 7:
the hello name went raw into ports/wild/README.md)."""

from __future__ import annotations

import json
from pathlib import Path

from test_gallery import GALLERY, LIBS, _report

HOSTILE = "evil <img src=x onerror=alert(1)> | [click](http://x) \x1b[2J\n# heading"


def test_a_hostile_hello_name_is_inert_in_the_gallery(tmp_path: Path) -> None:
    for lib in LIBS:
        document = _report(lib)
        if lib == LIBS[0]:
            document["adapter"]["name"] = HOSTILE
            document["adapter"]["operations"] = [*document["adapter"]["operations"], "x|<b>y</b>"]
        (tmp_path / f"{lib}.json").write_text(json.dumps(document), "utf-8")
    page = GALLERY.rendered(tmp_path)
    assert "<img" not in page and "<b>" not in page and "\x1b" not in page
    assert "\n# heading" not in page
    row = next(line for line in page.splitlines() if line.startswith(f"| [`{LIBS[0]}`]"))
    assert row.count(" | ") == 5  # no forged column: every | of the name is escaped
