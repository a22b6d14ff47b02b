"""Zero-LLM link extraction and link-type inference (spec/profiles/gbrain.md GBRAIN-2..9)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from reference.text import nfc

from .table import LinkTable, link_table

_EXTERNAL = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:")
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
#: JavaScript's white space and line terminators (`\s`, `String.prototype.trim`).
JS_SPACE = (
    "\t\n\v\f\r \u00a0\u1680"
    + "".join(chr(c) for c in range(0x2000, 0x200B))
    + "\u2028\u2029\u202f\u205f\u3000\ufeff"
)
_JS_SPACE_RUN = re.compile("[" + JS_SPACE + "]+")
#: what JavaScript's `.` does not match beyond LF becomes LF, which Python's `.` skips
_JS_LINE_ENDS = str.maketrans({"\r": "\n", "\u2028": "\n", "\u2029": "\n"})
_LABEL_SEP = re.compile(r"[ _\-]+")


@dataclass(frozen=True)
class Edge:
    """One typed edge `from -> to` (GBRAIN-2)."""

    source: str
    target: str
    type: str

    def to_json(self) -> dict[str, str]:
        return {"from": self.source, "to": self.target, "type": self.type}


def _utf16_len(text: str) -> int:
    """Length of `text` in UTF-16 code units (a code point above U+FFFF counts two)."""
    return len(text) + sum(1 for ch in text if ord(ch) > 0xFFFF)


def strip_code(text: str) -> str:
    """GBRAIN-3, GBRAIN-4: gbrain's `stripCodeBlocks` on the whole (line-end normalised) text.

    From a ``` to the next ``` anywhere (to the end when none follows), and from one backtick to
    the next when no line end lies between, the span becomes one space per UTF-16 code unit,
    line ends inside a fence included. Any other backtick stays.
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
            out.append(" " * _utf16_len(text[i:stop]))
            i = stop
            continue
        end = text.find("`", i + 1)
        if end < 0 or "\n" in text[i + 1 : end]:
            out.append("`")
            i += 1
            continue
        out.append(" " * _utf16_len(text[i : end + 1]))
        i = end + 1
    return "".join(out)


def resolve(target: str, base: tuple[str, ...]) -> str | None:
    """GBRAIN-6 steps 3-6: NFC, `.md` cut, relative to `base` for ./ and ../, segments."""
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


def target_page(target: str, base: tuple[str, ...]) -> str | None:
    """GBRAIN-6: the page id a link target names, or None (external, in-page, outside root)."""
    if _EXTERNAL.match(target) or target.startswith("//"):
        return None
    hash_at = target.find("#")
    if hash_at >= 0:
        target = target[:hash_at]
    return resolve(target, base)


@dataclass(frozen=True)
class _Span:
    start: int
    end: int
    target: str
    #: the text gbrain's code looks the link up by on the page, and its fallback (GBRAIN-8)
    lookup: str
    fallback: str


def _js_trim(text: str) -> str:
    return text.strip(JS_SPACE)


def _wikilink_name(target: str, text: str | None, table: LinkTable) -> tuple[str, str]:
    """GBRAIN-8: (lookup, fallback) of a wikilink, as the code's passes 2b and 2c name it."""
    head = target.split("#", 1)[0]
    slug = _js_trim(head).rstrip("\\")
    if slug.endswith(".md"):
        slug = slug[:-3]
    name = _js_trim(text) if text else slug
    listed = "/" in head and head.split("/", 1)[0] in table.directories and head.split("/", 1)[1]
    return (name, name) if listed else (slug, name)


def link_spans(line: str, table: LinkTable) -> list[_Span]:
    """GBRAIN-5: wikilinks first, then markdown links on the line with wikilinks blanked."""
    spans: list[_Span] = []
    masked = list(line)
    for m in table.wikilink.finditer(line):
        target = m.group(table.wikilink_group)
        lookup, fallback = _wikilink_name(target, m.group(table.wikilink_text), table)
        spans.append(_Span(m.start(), m.end(), target, lookup, fallback))
        masked[m.start() : m.end()] = " " * (m.end() - m.start())
    rest = "".join(masked)
    for m in table.markdown.finditer(rest):
        if m.start() > 0 and rest[m.start() - 1] == "!":
            continue
        name = m.group(table.markdown_text)
        spans.append(_Span(m.start(), m.end(), m.group(table.markdown_group), name, name))
    return sorted(spans, key=lambda s: s.start)


def _utf16(text: str) -> bytes:
    return text.encode("utf-16-le", "surrogatepass")


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
    return _JS_SPACE_RUN.sub(" ", cut).strip(JS_SPACE)


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


def page_of_path(path: str) -> str | None:
    """GBRAIN-6: a page's id, its path read as a root target (steps 3 to 6)."""
    return resolve(path, ())


def extract_links(path: str, markdown: str) -> tuple[str, list[Edge]]:
    """GBRAIN-2..9: the page id of `path` and its edges, unique by (to, type), sorted."""
    table = link_table()
    page = page_of_path(path)
    if page is None:
        raise ValueError(f"path {path!r} names no page")
    base = tuple(page.split("/")[:-1])
    text = strip_code(markdown.replace("\r\n", "\n").replace("\r", "\n"))
    found: set[tuple[str, str]] = set()
    types: dict[tuple[str, str], str] = {}
    for blanked in text.split("\n"):
        if "[" not in blanked:
            continue
        spans = link_spans(blanked, table)
        if not spans:
            continue
        label = typed_label(blanked, table)
        for span in spans:
            to = target_page(span.target, base)
            if to is None or to == page:
                continue
            kind = label
            if kind is None:
                key = (span.lookup, span.fallback)
                if key not in types:
                    ctx = context_of(markdown, span.lookup, span.fallback, table.window)
                    types[key] = infer_type(ctx, table)
                kind = types[key]
            found.add((to, kind))
    return page, [Edge(page, to, kind) for to, kind in sorted(found)]
