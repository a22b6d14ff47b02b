"""Zero-LLM link extraction and link-type inference (spec/profiles/gbrain.md GBRAIN-2..9)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from reference.text import nfc

from .table import LinkTable, link_table

ASCII_PUNCT = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
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


def _fence_run(line: str) -> tuple[str, int, str] | None:
    """GBRAIN-3: (fence char, run length, rest of line) when 0-3 spaces precede a run."""
    indent = len(line) - len(line.lstrip(" "))
    if indent > 3 or indent == len(line) or line[indent] not in "`~":
        return None
    ch = line[indent]
    end = indent
    while end < len(line) and line[end] == ch:
        end += 1
    return ch, end - indent, line[end:]


def code_lines(lines: list[str]) -> list[bool]:
    """GBRAIN-3: which lines are fenced code (opening and closing lines included)."""
    out: list[bool] = []
    fence: tuple[str, int] | None = None
    for line in lines:
        run = _fence_run(line)
        if fence is None:
            if run is not None and run[1] >= 3:
                fence = (run[0], run[1])
                out.append(True)
            else:
                out.append(False)
            continue
        out.append(True)
        closes = run is not None and run[0] == fence[0] and run[1] >= fence[1]
        if closes and run is not None and not run[2].strip(" \t"):
            fence = None
    return out


def blank_line(line: str) -> str:
    """GBRAIN-4: escaped punctuation and code spans (same line) become spaces, per code point."""
    if "\\" not in line and "`" not in line:
        return line
    out: list[str] = []
    i, n = 0, len(line)
    while i < n:
        ch = line[i]
        if ch == "\\" and i + 1 < n and line[i + 1] in ASCII_PUNCT:
            out.append("  ")
            i += 2
            continue
        if ch == "`":
            j = i
            while j < n and line[j] == "`":
                j += 1
            close = _closing_run(line, j, j - i)
            if close is None:
                out.append(line[i:j])
                i = j
            else:
                out.append(" " * (close - i))
                i = close
            continue
        out.append(ch)
        i += 1
    return "".join(out)


def _closing_run(line: str, start: int, size: int) -> int | None:
    """End of the next maximal backtick run of exactly `size` at or after `start`, if any."""
    k, n = start, len(line)
    while k < n:
        if line[k] != "`":
            k += 1
            continue
        m = k
        while m < n and line[m] == "`":
            m += 1
        if m - k == size:
            return m
        k = m
    return None


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


def _words_outside(line: str, lo: int, hi: int, spans: list[_Span]) -> list[str]:
    """Words of line[lo:hi] with every link span in it acting as a separator."""
    out: list[str] = []
    pos = lo
    for span in spans:
        if span.end <= lo or span.start >= hi:
            continue
        out += _words(line[pos : max(pos, span.start)])
        pos = max(pos, span.end)
    out += _words(line[pos:hi])
    return out


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


def _occurrences(words: list[str], trigger: tuple[str, ...]) -> Iterator[int]:
    size = len(trigger)
    for i in range(len(words) - size + 1):
        if tuple(words[i : i + size]) == trigger:
            yield i


def infer_type(
    line: str, span: _Span, spans: list[_Span], ends: list[int], table: LinkTable
) -> str:
    """GBRAIN-8: the type of the nearest trigger in the link's sentence window.

    `ends` are the line's sentence ends (`_sentence_ends`), computed once per line.
    """
    start = max((p + 1 for p in ends if p < span.start), default=0)
    stop = min((p for p in ends if p >= span.end), default=len(line))
    others = [s for s in spans if s is not span]
    before = _words_outside(line, start, span.start, others)[-table.window :]
    after = _words_outside(line, span.end, stop, others)[: table.window]
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
    lines = markdown.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    found: set[tuple[str, str]] = set()
    for line, is_code in zip(lines, code_lines(lines), strict=True):
        if is_code:
            continue
        if "[" not in line:
            continue
        blanked = blank_line(line)
        spans = link_spans(blanked, table)
        if not spans:
            continue
        label = typed_label(blanked, table)
        ends = _sentence_ends(blanked, spans) if label is None else []
        for span in spans:
            to = target_page(span.target, base)
            if to is None or to == page:
                continue
            kind = label if label is not None else infer_type(blanked, span, spans, ends, table)
            found.add((to, kind))
    return page, [Edge(page, to, kind) for to, kind in sorted(found)]
