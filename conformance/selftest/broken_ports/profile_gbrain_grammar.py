"""Broken ports of profile gbrain: the code's link grammar (spec/profiles/gbrain.md GBRAIN-2,
GBRAIN-5, GBRAIN-6, GBRAIN-7, GBRAIN-9: passes 1, 1b, 2a-2c), registered on import."""

from __future__ import annotations

import re
from dataclasses import replace
from types import ModuleType
from typing import Any
from urllib.parse import unquote

from conformance.selftest.broken_ports.patching import (
    _mod,
    mutant,
    set_attr,
    swap,
)

#: the kit's 2.x markdown pattern (any target, a title, one level of nested brackets)
_KIT_MARKDOWN = r"\[((?:[^\[\]]|\[[^\[\]]*\])*)\]\(([^()\t ]+)(?: +\"[^\"]*\")?\)"


def _gbrain(name: str) -> ModuleType:
    return _mod(f"reference.profiles.gbrain.{name}")


@mutant(
    "gbrain-no-percent-decoding",
    "GBRAIN-6",
    "targets are not percent-decoded (the kit's 2.x reading): people/alice%20chen stays as written",
    seams=("reference.profiles.gbrain.links.percent_decoded",),
)
def _no_percent() -> None:
    swap(_gbrain("links"), "percent_decoded", lambda target: target)


@mutant(
    "gbrain-percent-decode-lenient",
    "GBRAIN-6",
    "a malformed escape is decoded leniently (Python's unquote) instead of keeping the target raw",
    seams=("reference.profiles.gbrain.links.percent_decoded",),
)
def _lenient_percent() -> None:
    swap(_gbrain("links"), "percent_decoded", unquote)


@mutant(
    "gbrain-up-levels-from-root",
    "GBRAIN-6",
    "a leading ../ run is dropped and the rest read from the root, not the page's folder",
    seams=("reference.profiles.gbrain.links._up_levels",),
)
def _up_from_root() -> None:
    swap(_gbrain("links"), "_up_levels", lambda page, target, up: target)


@mutant(
    "gbrain-markdown-kit-grammar",
    "GBRAIN-5",
    "the markdown pattern is the kit's 2.x one: any target, a title, nested brackets",
    seams=("reference.profiles.gbrain.table.link_table",),
)
def _kit_markdown() -> None:
    table = _gbrain("table")
    original = table.link_table

    def link_table() -> Any:
        loaded = original()
        return replace(loaded, markdown=replace(loaded.markdown, regex=re.compile(_KIT_MARKDOWN)))

    swap(table, "link_table", link_table)


@mutant(
    "gbrain-images-skipped",
    "GBRAIN-5",
    "a match right after ! is an image and gives no edge (CommonMark); the code has no such rule",
    seams=("reference.profiles.gbrain.links.entity_refs",),
)
def _images_skipped() -> None:
    links = _gbrain("links")
    original = links.entity_refs

    def entity_refs(stripped: str, page: str, table: Any) -> list[Any]:
        return [
            r
            for r in original(stripped, page, table)
            if not (r.start > 0 and stripped[r.start - 1] == "!" and stripped[r.start + 1] != "[")
        ]

    swap(links, "entity_refs", entity_refs)


@mutant(
    "gbrain-no-masking",
    "GBRAIN-5",
    "passes 2b and 2c run on the stripped text with nothing blanked",
    seams=("reference.profiles.gbrain.links._Masked",),
)
def _no_masking() -> None:
    links = _gbrain("links")
    original = links._Masked

    class Unmasked(original):  # type: ignore[misc, valid-type]
        def __init__(self, text: str, ranges: list[tuple[int, int]]) -> None:
            super().__init__(text, [])

    swap(links, "_Masked", Unmasked)


@mutant(
    "gbrain-blank-per-code-point",
    "GBRAIN-5",
    "a blanked range is one space per code point, not per UTF-16 code unit",
    seams=("reference.profiles.gbrain.links._blank_width",),
)
def _blank_per_code_point() -> None:
    set_attr(_gbrain("links"), "_blank_width", len)


@mutant(
    "gbrain-no-slugify",
    "GBRAIN-6",
    "same-folder targets and bare wikilinks are kept as written, not slugified",
    seams=("reference.profiles.gbrain.links.slugify_path",),
)
def _no_slugify() -> None:
    swap(_gbrain("links"), "slugify_path", lambda path: path[:-3] if path.endswith(".md") else path)


@mutant(
    "gbrain-slug-simple-lower",
    "GBRAIN-6",
    "slugs lowercase code point by code point (Go's ToLower): no final sigma",
    seams=("reference.profiles.gbrain.slug._js_lower",),
)
def _simple_lower() -> None:
    swap(
        _gbrain("slug"),
        "_js_lower",
        lambda text: "".join(c.lower() if len(c.lower()) == 1 else c for c in text),
    )


@mutant(
    "gbrain-link-regex-python-space",
    "GBRAIN-1",
    "the link patterns' \\s is read as Python's str \\s, not JavaScript's",
    seams=("reference.profiles.gbrain.table.js_link_regex",),
)
def _python_space() -> None:
    table = _gbrain("table")
    swap(table, "js_link_regex", lambda source: source)
    table.link_table.cache_clear()


@mutant(
    "gbrain-self-links-dropped-everywhere",
    "GBRAIN-9",
    "a link to the page itself is dropped in every pass (2.x), not only in passes 1b and 2c",
    seams=("reference.profiles.gbrain.links.extract_links",),
)
def _self_everywhere() -> None:
    links = _gbrain("links")
    original = links.extract_links

    def extract_links(path: str, markdown: str) -> Any:
        page, edges = original(path, markdown)
        return page, [e for e in edges if e.target != page]

    swap(links, "extract_links", extract_links)


@mutant(
    "gbrain-typed-lines-lf-only",
    "GBRAIN-7",
    "typed lines are split at LF only, so a lone CR does not end one",
    seams=("reference.profiles.gbrain.links._LINE_END",),
)
def _lf_only() -> None:
    set_attr(_gbrain("links"), "_LINE_END", re.compile(r"\n"))


@mutant(
    "gbrain-line-ends-normalised",
    "GBRAIN-2",
    "CR LF and a lone CR become LF before anything else (the kit's 2.x reading)",
    seams=("reference.profiles.gbrain.links.strip_code",),
)
def _normalised() -> None:
    links = _gbrain("links")
    original = links.strip_code

    def strip_code(text: str) -> str:
        return str(original(text.replace("\r\n", "\n").replace("\r", "\n")))

    swap(links, "strip_code", strip_code)


@mutant(
    "gbrain-escaped-pipe-kept",
    "GBRAIN-6",
    "the backslashes an escaped pipe leaves at the end of a wikilink target are kept",
    seams=("reference.profiles.gbrain.links._ESCAPED_PIPE_TAIL",),
)
def _pipe_kept() -> None:
    set_attr(_gbrain("links"), "_ESCAPED_PIPE_TAIL", re.compile(r"(?!)"))


@mutant(
    "gbrain-passes-per-line",
    "GBRAIN-5",
    "the passes run line by line (the kit's 2.x reading), so no link spans a line end",
    seams=("reference.profiles.gbrain.links.entity_refs",),
)
def _per_line() -> None:
    links = _gbrain("links")
    original = links.entity_refs

    def entity_refs(stripped: str, page: str, table: Any) -> list[Any]:
        refs: list[Any] = []
        at = 0
        for line in re.split(r"(?<=\n)", stripped):
            found = original(line.rstrip("\n"), page, table)
            refs += [replace(r, start=r.start + at) for r in found]
            at += len(line)
        return refs

    swap(links, "entity_refs", entity_refs)
