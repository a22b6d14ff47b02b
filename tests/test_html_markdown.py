"""Clause texts in `hrc report --html` are rendered Markdown, not raw (issue 38, item 8), and
the stage headers of the matrix are vertical so 20+ stages fit a 1400 px window (measured in
Chromium by tests/test_html_report.py where a browser is installed)."""

from __future__ import annotations

from conformance.reports import html_report
from conformance.reports.markdown_inline import to_html


def test_inline_markdown_is_rendered_and_everything_else_escaped() -> None:
    html = to_html("**MUST** use `a < b` *once*; [paper](https://ex.org/p?a=1&b=2), "
                   "[RRF-8](rrf.md#rrf-8), <script>x</script> 2*3*4")
    assert html == ('<b>MUST</b> use <code>a &lt; b</code> <i>once</i>; '
                    '<a href="https://ex.org/p?a=1&amp;b=2">paper</a>, RRF-8, '
                    "&lt;script&gt;x&lt;/script&gt; 2*3*4")


def test_code_spans_are_not_read_as_markdown() -> None:
    assert to_html("`**x**` and `[a](b)`") == "<code>**x**</code> and <code>[a](b)</code>"


def test_every_clause_text_of_the_spec_renders_without_raw_markdown() -> None:
    for cid, entry in html_report.clause_texts().items():
        html = to_html(entry.text)
        outside_code = html
        while "<code>" in outside_code:
            start = outside_code.index("<code>")
            outside_code = outside_code[:start] + outside_code[outside_code.index("</code>") + 7:]
        assert "**" not in outside_code and "`" not in outside_code, cid
        assert "](" not in outside_code, cid


def test_the_matrix_stage_headers_are_vertical() -> None:
    assert ".matrix thead th.stage{writing-mode:vertical-rl" in html_report.CSS
