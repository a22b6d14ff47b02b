"""Zero-LLM link extraction and link-type inference (spec/profiles/gbrain.md GBRAIN-2..9)."""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass

from reference.text import nfc

from .slug import (
    JS_SPACE,
    js_space_collapse,
    js_trim,
    percent_decoded,
    slugify_path,
    utf16_len,
)
from .table import LinkTable, Pattern, link_table

_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
#: what JavaScript's `.` does not match beyond LF becomes LF, which Python's `.` skips
_JS_LINE_ENDS = str.maketrans({"\r": "\n", "\u2028": "\n", "\u2029": "\n"})
_LABEL_SEP = re.compile(r"[ _\-]+")
_LINE_END = re.compile(r"\r\n|\r|\n")
_UP = re.compile(r"(?:\.\./)+")
_ESCAPED_PIPE_TAIL = re.compile(r"\\+\Z")


def _blank_width(ch: str) -> int:
    """How many spaces a blanked code point becomes (GBRAIN-5: maskRanges, UTF-16 units)."""
    return 2 if ord(ch) > 0xFFFF else 1


__all__ = ["JS_SPACE", "Edge", "extract_links", "page_of_path", "strip_code"]


@dataclass(frozen=True)
class Edge:
    """One typed edge `from -> to` (GBRAIN-2)."""

    source: str
    target: str
    type: str

    def to_json(self) -> dict[str, str]:
        return {"from": self.source, "to": self.target, "type": self.type}


def strip_code(text: str) -> str:
    """GBRAIN-3, GBRAIN-4: gbrain's `stripCodeBlocks` on the whole text as given.

    From a ``` to the next ``` anywhere (to the end when none follows), and from one backtick to
    the next when no LF lies between, the span becomes one space per UTF-16 code unit, line
    ends inside a fence included. Any other backtick stays.
    """
    if "`" not in text:
        return text
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        tick = text.find("`", i)
        if tick < 0:
            out.append(text[i:])
            break
        out.append(text[i:tick])
        i = tick
        if text.startswith("```", i):
            end = text.find("```", i + 3)
            stop = n if end < 0 else end + 3
            out.append(" " * utf16_len(text[i:stop]))
            i = stop
            continue
        end = text.find("`", i + 1)
        if end < 0 or "\n" in text[i + 1 : end]:
            out.append("`")
            i += 1
            continue
        out.append(" " * utf16_len(text[i : end + 1]))
        i = end + 1
    return "".join(out)


def resolve(target: str, base: tuple[str, ...]) -> str | None:
    """GBRAIN-2: the page id of a `path`: NFC, `.md` cut, `.`/`..` segments (kit, G4)."""
    target = nfc(target)
    if target.endswith(".md"):
        target = target[:-3]
    segments = list(base) if target.startswith(("./", "../")) else []
    for seg in target.split("/"):
        if seg in ("", "."):
            continue
        if seg == "..":
            if not segments:
                return None
            segments.pop()
            continue
        segments.append(seg)
    return "/".join(segments) or None


@dataclass(frozen=True)
class Ref:
    """One link gbrain's passes find (GBRAIN-5, GBRAIN-6)."""

    #: where the match starts in the code-stripped text (its typed line, GBRAIN-7)
    start: int
    #: the page id it links to
    target: str
    #: the text gbrain's code looks the link up by on the page, and its fallback (GBRAIN-8)
    lookup: str
    fallback: str


class _Masked:
    """The stripped text with ranges blanked (the code's `maskRanges`), same offsets.

    A blanked code point is one space here; a group read back through `group` has one space
    per UTF-16 code unit of what it blanked, as the code's JavaScript string has."""

    def __init__(self, text: str, ranges: list[tuple[int, int]]) -> None:
        self.source = text
        self.blank = bytearray(len(text))
        for start, end in ranges:
            self.blank[start:end] = b"\x01" * (end - start)
        self.text = "".join(" " if self.blank[i] else ch for i, ch in enumerate(text))

    def group(self, m: re.Match[str], n: int) -> str | None:
        if m.group(n) is None:
            return None
        a, b = m.span(n)
        src = self.source
        return "".join(
            " " * _blank_width(src[i]) if self.blank[i] else src[i] for i in range(a, b)
        )


def _wikilink_slug(raw: str, *, generic: bool) -> str | None:
    """GBRAIN-6: a wikilink target as the code reads it: trimmed, a trailing run of `\\` cut
    (the escaped-pipe tail), nothing when empty, `://` (or, pass 2c, any `:`), `.md` cut."""
    slug = _ESCAPED_PIPE_TAIL.sub("", js_trim(raw))
    if not slug or "://" in slug or (generic and ":" in slug):
        return None
    return slug[:-3] if slug.endswith(".md") else slug


def _up_levels(page: str, target: str, up: int) -> str:
    """GBRAIN-6: the code's resolveRelativeSlug: `up` folders above the page's folder."""
    if up <= 0:
        return target
    folders = page.split("/")[:-1]
    return "/".join([*folders[: max(0, len(folders) - up)], target])


def _matches(pattern: Pattern, text: str) -> list[re.Match[str]]:
    return list(pattern.regex.finditer(text))


def entity_refs(stripped: str, page: str, table: LinkTable) -> list[Ref]:
    """GBRAIN-5, GBRAIN-6: gbrain's passes 1, 1b, 2a, 2b and 2c over the code-stripped text."""
    refs: list[Ref] = []
    folders = page.split("/")[:-1]
    markdown_ranges: list[tuple[int, int]] = []
    for m in _matches(table.markdown, stripped):  # pass 1
        name = m.group(table.markdown.text)
        raw_target = stripped[m.end(table.markdown.text) + 2 : m.end() - 1]
        up = _UP.match(raw_target)
        full = percent_decoded(m.group(table.markdown.target))
        target = _up_levels(page, full, len(up.group(0)) // 3 if up else 0)
        refs.append(Ref(m.start(), target, name, name))
        markdown_ranges.append(m.span())
    for m in _matches(table.same_dir, stripped):  # pass 1b
        name = m.group(table.same_dir.text)
        leaf = percent_decoded(m.group(table.same_dir.target))
        markdown_ranges.append(m.span())
        target = slugify_path("/".join([*folders, leaf]))
        if target and target != page:
            refs.append(Ref(m.start(), target, name, name))
    wiki_ranges: list[tuple[int, int]] = []
    for pattern, masked in (
        (table.qualified, _Masked(stripped, [])),  # pass 2a
        (table.wikilink, None),  # pass 2b, on the text with 2a's matches blanked
    ):
        view = masked if masked is not None else _Masked(stripped, list(wiki_ranges))
        for m in _matches(pattern, view.text):
            slug = _wikilink_slug(view.group(m, pattern.target) or "", generic=False)
            if slug is None:
                continue
            name = js_trim(view.group(m, pattern.text) or slug)
            refs.append(Ref(m.start(), slug, name, name))
            wiki_ranges.append(m.span())
    label_ranges = [m.span() for m in _matches(table.label_wikilink, stripped)]
    view = _Masked(stripped, markdown_ranges + wiki_ranges + label_ranges)
    for m in _matches(table.generic, view.text):  # pass 2c
        slug = _wikilink_slug(view.group(m, table.generic.target) or "", generic=True)
        if slug is None:
            continue
        name = js_trim(view.group(m, table.generic.text) or slug)
        target = slug if "/" in slug else slugify_path(slug)
        if target and target != page:
            refs.append(Ref(m.start(), target, slug, name))
    return refs


def context_of(markdown: str, name: str, fallback: str, window: int) -> str:
    """GBRAIN-8: the code's excerpt(content, content.indexOf(name), window), or the fallback.

    Offsets are UTF-16 code units; a lone surrogate half at a cut becomes U+FFFD; every run of
    JavaScript white space becomes one space and the ends are trimmed.
    """
    at = markdown.find(name)
    if at < 0:
        return fallback
    units = _utf16(markdown)
    idx = len(_utf16(markdown[:at])) // 2
    half = window // 2
    start, end = max(0, idx - half), min(len(units) // 2, idx + half)
    cut = units[2 * start : 2 * end].decode("utf-16-le", "replace")
    return js_trim(js_space_collapse(cut))


def _utf16(text: str) -> bytes:
    return text.encode("utf-16-le", "surrogatepass")


def infer_type(context: str, table: LinkTable) -> str:
    """GBRAIN-8: the type of the first regex of the table that matches the context."""
    text = context.translate(_JS_LINE_ENDS)
    for kind, pattern in table.types:
        if pattern.search(text):
            return kind
    return table.default_type


def typed_label(line: str, table: LinkTable) -> str | None:
    """GBRAIN-7: the type a typed-link blockquote line gives all its links, or None."""
    m = table.typed.search(line)
    if m is None:
        return None
    label = _LABEL_SEP.sub("_", m.group(table.typed_group).translate(_ASCII_LOWER))
    return label.strip("_") or None


def typed_lines(stripped: str, table: LinkTable) -> tuple[list[int], list[str | None]]:
    """GBRAIN-7: the start of each line of the stripped text (ends LF, CR LF, CR) and its label."""
    starts, labels, at = [], [], 0
    for m in [*_LINE_END.finditer(stripped), None]:
        end = len(stripped) if m is None else m.start()
        starts.append(at)
        labels.append(typed_label(stripped[at:end], table))
        at = 0 if m is None else m.end()
    return starts, labels


def page_of_path(path: str) -> str | None:
    """GBRAIN-2: a page's id, its path read with NFC, `.md` cut and segments (kit, G4)."""
    return resolve(path, ())


def extract_links(path: str, markdown: str) -> tuple[str, list[Edge]]:
    """GBRAIN-2..9: the page id of `path` and its edges, unique by (to, type), sorted."""
    table = link_table()
    page = page_of_path(path)
    if page is None:
        raise ValueError(f"path {path!r} names no page")
    stripped = strip_code(markdown)
    if "[" not in stripped:
        return page, []
    starts, labels = typed_lines(stripped, table)
    found: set[tuple[str, str]] = set()
    types: dict[tuple[str, str], str] = {}
    for ref in entity_refs(stripped, page, table):
        kind = labels[bisect_right(starts, ref.start) - 1]
        if kind is None:
            key = (ref.lookup, ref.fallback)
            if key not in types:
                ctx = context_of(markdown, ref.lookup, ref.fallback, table.window)
                types[key] = infer_type(ctx, table)
            kind = types[key]
        found.add((ref.target, kind))
    return page, [Edge(page, to, kind) for to, kind in sorted(found)]
