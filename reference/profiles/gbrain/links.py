"""Zero-LLM link extraction and link-type inference (spec/profiles/gbrain.md GBRAIN-2..9)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from reference.text import nfc

from .table import LinkTable, link_table

_EXTERNAL = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:")
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
_WORD = re.compile(r"[a-z0-9]+")
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


def link_spans(line: str, table: LinkTable) -> list[_Span]:
    """GBRAIN-5: wikilinks first, then markdown links on the line with wikilinks blanked."""
    spans: list[_Span] = []
    masked = list(line)
    for m in table.wikilink.finditer(line):
        spans.append(_Span(m.start(), m.end(), m.group(table.wikilink_group)))
        masked[m.start() : m.end()] = " " * (m.end() - m.start())
    rest = "".join(masked)
    for m in table.markdown.finditer(rest):
        if m.start() > 0 and rest[m.start() - 1] == "!":
            continue
        spans.append(_Span(m.start(), m.end(), m.group(table.markdown_group)))
    return sorted(spans, key=lambda s: s.start)


def _words(text: str) -> list[str]:
    """GBRAIN-8: maximal runs of [a-z0-9] after ASCII-only lowercasing."""
    return _WORD.findall(text.translate(_ASCII_LOWER))


def _sentence_ends(line: str, spans: list[_Span]) -> list[int]:
    """GBRAIN-8: `.`, `!`, `?` outside link spans, followed by space, tab or the line's end."""
    inside = [False] * len(line)
    for span in spans:
        inside[span.start : span.end] = [True] * (span.end - span.start)
    return [
        p
        for p, ch in enumerate(line)
        if ch in ".!?" and not inside[p] and (p + 1 == len(line) or line[p + 1] in " \t")
    ]


def link_windows(
    line: str, spans: list[_Span], ends: list[int], window: int
) -> list[tuple[list[str], list[str]]]:
    """GBRAIN-8: per span, the last `window` words before it and the first after it.

    Words come from the span's sentence with every link span a separator. The line is
    tokenised once, left to right, so the cost is linear in its length; re-tokenising the
    sentence for each link was quadratic in links per line (issue 29).
    """
    bounds = sorted(
        [(s.start, s.end, k) for k, s in enumerate(spans)] + [(p, p + 1, -1) for p in ends]
    )
    words: list[str] = []
    first = 0
    marks: list[tuple[int, int, int]] = [(0, 0, 0)] * len(spans)
    stops: list[int] = []
    pos = 0
    for lo, hi, k in bounds:
        words += _words(line[pos:lo])
        pos = hi
        if k < 0:
            stops.append(len(words))
            first = len(words)
        else:
            marks[k] = (first, len(words), len(stops))
    words += _words(line[pos:])
    stops.append(len(words))
    return [
        (words[max(first, at - window) : at], words[at : min(stops[sentence], at + window)])
        for first, at, sentence in marks
    ]


def _occurrences(words: list[str], trigger: tuple[str, ...]) -> Iterator[int]:
    size = len(trigger)
    for i in range(len(words) - size + 1):
        if tuple(words[i : i + size]) == trigger:
            yield i


def infer_type(before: list[str], after: list[str], table: LinkTable) -> str:
    """GBRAIN-8: the type of the nearest trigger among a link's window words."""
    best: tuple[int, int] | None = None
    for rank, (_, triggers) in enumerate(table.triggers):
        for trigger in triggers:
            words = tuple(trigger.split(" "))
            for i in _occurrences(before, words):
                cand = (len(before) - (i + len(words) - 1), rank)
                best = cand if best is None or cand < best else best
            for j in _occurrences(after, words):
                cand = (j + 1, rank)
                best = cand if best is None or cand < best else best
    return table.default_type if best is None else table.triggers[best[1]][0]


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
    for blanked in text.split("\n"):
        if "[" not in blanked:
            continue
        spans = link_spans(blanked, table)
        if not spans:
            continue
        label = typed_label(blanked, table)
        windows = (
            link_windows(blanked, spans, _sentence_ends(blanked, spans), table.window)
            if label is None
            else []
        )
        for k, span in enumerate(spans):
            to = target_page(span.target, base)
            if to is None or to == page:
                continue
            kind = label if label is not None else infer_type(*windows[k], table)
            found.add((to, kind))
    return page, [Edge(page, to, kind) for to, kind in sorted(found)]
