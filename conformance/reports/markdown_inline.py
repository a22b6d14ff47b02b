"""The inline Markdown of a clause's text as HTML, for `hrc report --html` (issue 38: clause
texts showed raw Markdown). Only what spec clauses use: `code`, **bold**, *emphasis*, and
[links](url) (http(s) kept as links; a link into the spec becomes its text). Everything is
escaped first, so no HTML from a clause reaches the page."""

from __future__ import annotations

import re
from html import escape

#: A code span: a run of backticks closed by a run of the same length (CommonMark).
_CODE = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", re.S)
_BOLD = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*")
_EM = re.compile(r"(?<![\w*])\*(?=[^\s*])(.+?)(?<=[^\s*])\*(?![\w*])")
_LINK = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)")


def _prose(text: str) -> str:
    html = escape(text, quote=False)
    html = _BOLD.sub(r"<b>\1</b>", html)
    return _EM.sub(r"<i>\1</i>", html)


def _spans(text: str) -> str:
    """Code spans and prose (no links)."""
    out: list[str] = []
    last = 0
    for match in _CODE.finditer(text):
        out.append(_prose(text[last:match.start()]))
        code = match.group(2)
        if len(code) > 2 and code.startswith(" ") and code.endswith(" "):
            code = code[1:-1]
        out.append(f"<code>{escape(code, quote=False)}</code>")
        last = match.end()
    out.append(_prose(text[last:]))
    return "".join(out)


def to_html(text: str) -> str:
    """`text` with its inline Markdown rendered; code spans are left as written."""
    code = [m.span() for m in _CODE.finditer(text)]
    out: list[str] = []
    last = 0
    for match in _LINK.finditer(text):
        if any(a <= match.start() < b for a, b in code):  # inside a code span: not a link
            continue
        out.append(_spans(text[last:match.start()]))
        label, url = _spans(match.group(1)), match.group(2)
        out.append(f'<a href="{escape(url)}">{label}</a>'
                   if url.startswith(("https://", "http://")) else label)
        last = match.end()
    out.append(_spans(text[last:]))
    return "".join(out)
