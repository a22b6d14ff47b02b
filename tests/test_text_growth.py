"""TEXT-3: NFC stays near-linear in a run of combining marks of alternating classes (issue 39,
item 7: canonical reordering was quadratic there). A ratio of two sizes, never a time."""

from __future__ import annotations

import unicodedata

from growth import assert_linear

from reference.text import nfc, normalise


def _marks(n: int) -> str:
    return "a" + "\u0301\u0316" * (n // 2)


def test_nfc_of_a_long_mark_run_is_linear() -> None:
    assert_linear(lambda n: (lambda: nfc(_marks(n))), 2000, "NFC of alternating marks")


def test_the_long_run_path_gives_unicodedata_s_nfc() -> None:
    for text in (_marks(100), "\u1100\u1161" + "\u0316\u0301" * 40 + "\u00e9\u0344" * 20,
                 "x" + "\u0f73\u0f71" * 30 + "\uac00" + "\u0301" * 33):
        assert nfc(text) == unicodedata.normalize("NFC", text)
        assert normalise(text) == normalise(unicodedata.normalize("NFD", text))
