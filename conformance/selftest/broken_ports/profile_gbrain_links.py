"""Broken ports of profile gbrain: link extraction (spec/profiles/gbrain.md GBRAIN-1..9),
registered on import."""

from __future__ import annotations

import re
from dataclasses import replace
from types import ModuleType
from typing import Any

from conformance.selftest.broken_ports.patching import (
    _mod,
    mutant,
    swap,
)


def _gbrain(name: str) -> ModuleType:
    return _mod(f"reference.profiles.gbrain.{name}")


@mutant(
    "gbrain-edges-utf16-order",
    "GBRAIN-9",
    "edges sorted by UTF-16 code units (JS sort)",
    seams=("reference.profiles.gbrain.links.extract_links",),
)
def _gbrain_utf16() -> None:
    links = _gbrain("links")
    original = links.extract_links

    def utf16(text: str) -> bytes:
        return text.encode("utf-16-be")

    def extract_links(path: str, markdown: str) -> Any:
        page, edges = original(path, markdown)
        return page, sorted(edges, key=lambda e: (utf16(e.target), utf16(e.type)))

    swap(links, "extract_links", extract_links)


@mutant(
    "gbrain-code-spans-kept",
    "GBRAIN-4",
    "single backticks open no code span, only ``` fences are removed",
    seams=("reference.profiles.gbrain.links.strip_code",),
)
def _gbrain_code_spans() -> None:
    links = _gbrain("links")
    original = links.strip_code

    def strip_code(text: str) -> str:
        # Hide every lone backtick from the scan, then put them back.
        masked = re.sub(r"(?<!`)`(?!`)", "\x00", text)
        return str(original(masked)).replace("\x00", "`")

    swap(links, "strip_code", strip_code)


@mutant(
    "gbrain-tilde-fences",
    "GBRAIN-3",
    "~~~ opens and closes a fence like ``` (CommonMark), which the code does not",
    seams=("reference.profiles.gbrain.links.strip_code",),
)
def _gbrain_tilde() -> None:
    links = _gbrain("links")
    original = links.strip_code

    def strip_code(text: str) -> str:
        return str(original(text.replace("~~~", "```")))

    swap(links, "strip_code", strip_code)


@mutant(
    "gbrain-fences-by-line",
    "GBRAIN-3",
    "a fence opens and closes only at the start of a line (0-3 spaces), not anywhere",
    seams=("reference.profiles.gbrain.links.strip_code",),
)
def _gbrain_fences_by_line() -> None:
    links = _gbrain("links")
    original = links.strip_code

    def strip_code(text: str) -> str:
        # ``` not at a line start (after 0-3 spaces) is hidden from the fence scan.
        out: list[str] = []
        for line in text.split("\n"):
            head = len(line) - len(line.lstrip(" "))
            if head <= 3 and line[head:].startswith("```"):
                out.append(line[: head + 3] + line[head + 3 :].replace("```", "\x01"))
            else:
                out.append(line.replace("```", "\x01"))
        return str(original("\n".join(out))).replace("\x01", "```")

    swap(links, "strip_code", strip_code)


@mutant(
    "gbrain-fence-keeps-line-ends",
    "GBRAIN-3",
    "a fence's line ends stay line ends, so the lines around a fence stay apart",
    seams=("reference.profiles.gbrain.links.strip_code",),
)
def _gbrain_fence_keeps_line_ends() -> None:
    links = _gbrain("links")
    original = links.strip_code

    def strip_code(text: str) -> str:
        stripped = str(original(text))
        return (
            "".join(
                "\n" if ch == "\n" and s == " " else s
                for ch, s in zip(text, stripped, strict=False)
            )
            if len(stripped) == len(text)
            else stripped
        )

    swap(links, "strip_code", strip_code)


@mutant(
    "gbrain-code-per-code-point",
    "GBRAIN-4",
    "code becomes one space per code point, not per UTF-16 code unit",
    seams=("reference.profiles.gbrain.links.utf16_len",),
)
def _gbrain_code_per_code_point() -> None:
    swap(_gbrain("links"), "utf16_len", len)


@mutant(
    "gbrain-escapes-read",
    "GBRAIN-4",
    "a backslash before ASCII punctuation escapes it (CommonMark), which the code does not",
    seams=("reference.profiles.gbrain.links.strip_code",),
)
def _gbrain_escapes_read() -> None:
    links = _gbrain("links")
    original = links.strip_code

    def strip_code(text: str) -> str:
        return str(original(re.sub(r"\\[!-/:-@\[-`{-~]", "  ", text)))

    swap(links, "strip_code", strip_code)


@mutant(
    "gbrain-window-80",
    "GBRAIN-8",
    "the context window is 80 units (the code's old width), not 240",
    seams=("reference.profiles.gbrain.table.link_table",),
)
def _gbrain_window_80() -> None:
    table = _gbrain("table")
    original = table.link_table

    def link_table() -> Any:
        return replace(original(), window=80)

    swap(table, "link_table", link_table)


@mutant(
    "gbrain-window-in-code-points",
    "GBRAIN-8",
    "the window is counted in code points, not UTF-16 code units",
    seams=("reference.profiles.gbrain.links.context_of",),
)
def _gbrain_window_code_points() -> None:
    links = _gbrain("links")

    def context_of(markdown: str, name: str, fallback: str, window: int) -> str:
        at = markdown.find(name)
        if at < 0:
            return fallback
        cut = markdown[max(0, at - window // 2) : at + window // 2]
        return str(links.js_trim(links.js_space_collapse(cut)))

    swap(links, "context_of", context_of)


@mutant(
    "gbrain-context-from-stripped-text",
    "GBRAIN-8",
    "the window is cut from the text with code removed, not from the markdown as given",
    seams=("reference.profiles.gbrain.links.context_of",),
)
def _gbrain_context_stripped() -> None:
    links = _gbrain("links")
    original = links.context_of

    def context_of(markdown: str, name: str, fallback: str, window: int) -> Any:
        return original(links.strip_code(markdown), name, fallback, window)

    swap(links, "context_of", context_of)


@mutant(
    "gbrain-wikilink-looked-up-by-text",
    "GBRAIN-8",
    "every wikilink is looked up by its text, pass 2c's by its text too instead of its target",
    seams=("reference.profiles.gbrain.links.entity_refs",),
)
def _gbrain_wikilink_by_text() -> None:
    links = _gbrain("links")
    original = links.entity_refs

    def entity_refs(stripped: str, page: str, table: Any) -> list[Any]:
        return [replace(r, lookup=r.fallback) for r in original(stripped, page, table)]

    swap(links, "entity_refs", entity_refs)

@mutant(
    "gbrain-types-unicode-fold",
    "GBRAIN-8",
    "the type regexes are compiled with Unicode \\b and case folding (Python's default)",
    seams=("reference.profiles.gbrain.table._compile",),
)
def _gbrain_unicode_fold() -> None:
    table = _gbrain("table")

    def compile_(entry: dict[str, str]) -> re.Pattern[str]:
        return re.compile(entry["source"], re.IGNORECASE if "i" in entry["flags"] else 0)

    swap(table, "_compile", compile_)
    table.link_table.cache_clear()


@mutant(
    "gbrain-python-white-space",
    "GBRAIN-8",
    "the window's white space is Python's str \\s, not JavaScript's",
    seams=("reference.profiles.gbrain.links.js_space_collapse",),
)
def _gbrain_python_space() -> None:
    swap(_gbrain("links"), "js_space_collapse", lambda text: re.sub(r"\s+", " ", text))


@mutant(
    "gbrain-typed-label-verbatim",
    "GBRAIN-7",
    "the typed label is only lowercased",
    seams=("reference.profiles.gbrain.links.typed_label",),
)
def _gbrain_label() -> None:
    links = _gbrain("links")

    def typed_label(line: str, table: Any) -> Any:
        m = table.typed.search(line)
        return None if m is None else m.group(table.typed_group).lower()

    swap(links, "typed_label", typed_label)


@mutant(
    "gbrain-dedup-by-target",
    "GBRAIN-9",
    "edges are unique by target, the first type kept",
    seams=("reference.profiles.gbrain.links.extract_links",),
)
def _gbrain_dedup() -> None:
    links = _gbrain("links")
    original = links.extract_links

    def extract_links(path: str, markdown: str) -> Any:
        page, edges = original(path, markdown)
        seen: set[str] = set()
        kept = []
        for edge in edges:
            if edge.target not in seen:
                seen.add(edge.target)
                kept.append(edge)
        return page, kept

    swap(links, "extract_links", extract_links)


@mutant(
    "gbrain-links-copy-lacks-chinese",
    "GBRAIN-1",
    "a retyped links table without the code's Chinese regexes",
    seams=("reference.profiles.gbrain.table.link_table",),
)
def _gbrain_links_no_zh() -> None:
    table = _gbrain("table")
    original = table.link_table

    def link_table() -> Any:
        loaded = original()
        kept = tuple(t for t in loaded.types if t[1].pattern.startswith("\\b"))
        return replace(loaded, types=kept)

    swap(table, "link_table", link_table)


@mutant(
    "gbrain-link-types-sorted-by-name",
    "GBRAIN-1",
    "the types are read into a map and iterated by name, losing the file's precedence order",
    seams=("reference.profiles.gbrain.table.link_table",),
)
def _gbrain_types_sorted() -> None:
    table = _gbrain("table")
    original = table.link_table

    def link_table() -> Any:
        loaded = original()
        return replace(loaded, types=tuple(sorted(loaded.types, key=lambda t: t[0])))

    swap(table, "link_table", link_table)


