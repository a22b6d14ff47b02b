"""Broken ports of the reranker (spec/rerank.md), registered on import."""

from __future__ import annotations

import builtins
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from types import SimpleNamespace
from typing import Any

from conformance.selftest.broken_ports.patching import (
    _mod,
    mutant,
    set_attr,
    swap,
)

# -- rerank (RERANK) ---------------------------------------------------------------------------


@mutant(
    "rerank-tail-resorted",
    "RERANK-3",
    "the tail is re-sorted by score before it is appended",
    seams=("reference.rerank.split",),
)
def _rerank_tail_sorted() -> None:
    rr = _mod("reference.rerank")
    original = rr.split

    def split(fused: Sequence[Any], top_n: int) -> tuple[list[Any], list[Any]]:
        head, tail = original(fused, top_n)
        return head, sorted(tail, key=lambda item: -item.score)

    swap(rr, "split", split)


@mutant(
    "rerank-omissions-dropped",
    "RERANK-7",
    "head ids the reranker omitted are dropped instead of backfilled",
    seams=("reference.rerank.rerank_head",),
)
def _rerank_drop_missing() -> None:
    rr = _mod("reference.rerank")
    original = rr.rerank_head

    def rerank_head(*args: Any) -> Any:
        out = original(*args)
        gone = set(out.missing)
        return replace(out, items=[item for item in out.items if item.id not in gone])

    swap(rr, "rerank_head", rerank_head)


@mutant(
    "rerank-ties-in-returned-order",
    "RERANK-6",
    "equal reranker scores keep the reranker's order (stable sort), not head order",
    seams=("reference.rerank.sorted",),
)
def _rerank_returned_order() -> None:
    def by_score_only(items: Iterable[Any], key: Callable[[Any], tuple[Any, ...]]) -> list[Any]:
        return builtins.sorted(items, key=lambda x: key(x)[0])

    set_attr(_mod("reference.rerank"), "sorted", by_score_only)


@mutant(
    "rerank-duplicates-last-wins",
    "RERANK-5",
    "reranker entries go through a dict: a repeated id keeps its last score, none reported",
    seams=("reference.rerank.rerank_head",),
)
def _rerank_dict() -> None:
    rr = _mod("reference.rerank")
    original = rr.rerank_head

    def rerank_head(fused: Any, top_n: int, entries: Any, error: Any, provider: str) -> Any:
        if entries is not None:
            last = {e.id: e for e in entries}
            entries = [last[i] for i in dict.fromkeys(e.id for e in entries)]
        return original(fused, top_n, entries, error, provider)

    swap(rr, "rerank_head", rerank_head)


@mutant(
    "rerank-non-finite-accepted",
    "RERANK-9",
    "NaN and infinite reranker scores are not treated as a failure",
    seams=("reference.rerank.math",),
)
def _rerank_nan() -> None:
    set_attr(_mod("reference.rerank"), "math", SimpleNamespace(isfinite=lambda x: True))


@mutant(
    "rerank-head-off-by-one",
    "RERANK-1",
    "the head holds rerankTopN − 1 items",
    seams=("reference.rerank.split",),
)
def _rerank_off_by_one() -> None:
    rr = _mod("reference.rerank")
    original = rr.split
    swap(rr, "split", lambda fused, top_n: original(fused, max(top_n - 1, 0)))


@mutant(
    "rerank-top-n-zero-rejected",
    "RERANK-1",
    "the rerank operation rejects rerankTopN <= 0 (the 2.x reading) instead of using 20",
    seams=("reference.rerank.check_top_n",),
)
def _rerank_top_n_zero_rejected() -> None:
    types = _mod("reference.types")
    swap(
        _mod("reference.rerank"),
        "check_top_n",
        lambda value: int(types.whole_number(value, "rerankTopN")),
    )


@mutant(
    "rerank-failure-sends-nothing",
    "RERANK-8",
    "a failed rerank reports sent: [] instead of the head it sent",
    seams=("reference.rerank.rerank_head",),
)
def _rerank_failed_sent() -> None:
    rr = _mod("reference.rerank")
    original = rr.rerank_head

    def rerank_head(*args: Any) -> Any:
        out = original(*args)
        return replace(out, sent=()) if out.outcome == rr.FAILED else out

    swap(rr, "rerank_head", rerank_head)


@mutant(
    "rerank-empty-before-no-reranker",
    "RERANK-10",
    "an empty fused list reports `empty` before checking that a reranker is configured",
    seams=("reference.pipeline.skip_before_unanimity",),
)
def _rerank_precedence() -> None:
    pipe = _mod("reference.pipeline")
    original = pipe.skip_before_unanimity

    def skip(enabled: bool, has_reranker: bool, fused_count: int) -> str | None:
        if enabled and fused_count == 0:
            return "empty"
        result: str | None = original(enabled, has_reranker, fused_count)
        return result

    set_attr(pipe, "skip_before_unanimity", skip)


# -- what the reranker is shown (spec/rerank.md RERANK-13, RERANK-14) ------------------------


def _rerank_text() -> Any:
    return _mod("reference.rerank_text")


@mutant(
    "rerank-text-utf16-cut",
    "RERANK-14",
    "the snippet is cut at 280 UTF-16 units",
    seams=("reference.rerank_text.snippet",),
)
def _rerank_text_utf16() -> None:
    m = _rerank_text()

    def snippet(content: str) -> str:
        units = " ".join(m.split_whitespace(content)).encode("utf-16-le", "surrogatepass")
        return units[: 2 * m.SNIPPET_MAX].decode("utf-16-le", "ignore")

    set_attr(m, "snippet", snippet)


@mutant(
    "rerank-text-bytes-ellipsis",
    "RERANK-14",
    "the snippet is cut at 280 bytes plus ... (Go SDK)",
    seams=("reference.rerank_text.snippet",),
)
def _rerank_text_bytes() -> None:
    m = _rerank_text()

    def snippet(content: str) -> str:
        body = " ".join(m.split_whitespace(content)).encode("utf-8")
        if len(body) <= m.SNIPPET_MAX:
            return body.decode("utf-8")
        return body[: m.SNIPPET_MAX].decode("utf-8", "ignore") + "..."

    set_attr(m, "snippet", snippet)


@mutant(
    "rerank-text-uncollapsed",
    "RERANK-14",
    "the content snippet is trimmed but not collapsed",
    seams=("reference.rerank_text.snippet",),
)
def _rerank_text_uncollapsed() -> None:
    m = _rerank_text()
    set_attr(m, "snippet", lambda content: content.strip(m._WS)[: m.SNIPPET_MAX])


@mutant(
    "rerank-text-untrimmed",
    "RERANK-13",
    "title and summary are used as given, untrimmed",
    seams=("reference.rerank_text.rerank_text",),
)
def _rerank_text_untrimmed() -> None:
    m = _rerank_text()

    def rerank_text(title: str, summary: str, content: str) -> str:
        if title and summary:
            return f"{title}\n{summary}"
        result: str = title or summary or m.snippet(content)
        return result

    swap(m, "rerank_text", rerank_text)


@mutant(
    "rerank-text-summary-first",
    "RERANK-13",
    "both present: summary, line feed, title",
    seams=("reference.rerank_text.rerank_text",),
)
def _rerank_text_summary_first() -> None:
    m = _rerank_text()
    original = m.rerank_text

    def rerank_text(title: str, summary: str, content: str) -> str:
        result: str = original(summary, title, content)
        return result

    swap(m, "rerank_text", rerank_text)


def _rewrap_outcome(change: Callable[[Sequence[Any], int, Any], Any]) -> None:
    """Patch rerank_head so that `change(fused, top_n, outcome)` rewrites each outcome."""
    rr = _mod("reference.rerank")
    original = rr.rerank_head

    def rerank_head(fused: Sequence[Any], top_n: int, *rest: Any) -> Any:
        return change(fused, top_n, original(fused, top_n, *rest))

    swap(rr, "rerank_head", rerank_head)


@mutant(
    "rerank-sent-lists-whole-list",
    "RERANK-2",
    "`sent` lists every fused id (the whole list goes to the reranker), not only the head",
    seams=("reference.rerank.rerank_head",),
)
def _rerank_sent_all() -> None:
    _rewrap_outcome(
        lambda fused, top_n, out: replace(out, sent=tuple(f.id for f in fused)) if out.sent else out
    )


@mutant(
    "rerank-tail-ids-not-invented",
    "RERANK-4",
    "only ids absent from the whole fused list are invented; a returned tail id is dropped "
    "silently",
    seams=("reference.rerank.rerank_head",),
)
def _rerank_tail_not_invented() -> None:
    rr = _mod("reference.rerank")

    def change(fused: Sequence[Any], top_n: int, out: Any) -> Any:
        tail = {f.id for f in fused[rr.check_top_n(top_n) :]}
        return replace(out, invented=tuple(i for i in out.invented if i not in tail))

    _rewrap_outcome(change)


@mutant(
    "rerank-missing-after-tail",
    "RERANK-11",
    "head ids the reranker omitted are appended after the tail, so tail ids take head positions",
    seams=("reference.rerank.rerank_head",),
)
def _rerank_missing_after_tail() -> None:
    def change(fused: Sequence[Any], top_n: int, out: Any) -> Any:
        if not out.missing:
            return out
        missing = [f for f in out.items if f.id in set(out.missing)]
        return replace(out, items=[f for f in out.items if f.id not in set(out.missing)] + missing)

    _rewrap_outcome(change)


@mutant(
    "rerank-op-name-defaults-to-scripted",
    "RERANK-12",
    "the `rerank` operation's reranker name defaults to `scripted` as in `search` (BACKEND-39)",
    seams=("conformance.adapters.ops.fusion._str",),
)
def _rerank_op_name_default() -> None:
    ops = _mod("conformance.adapters.ops.fusion")
    original = ops._str

    def read_str(inp: Any, name: str) -> Any:
        if name == "name" and inp.get("name") is None:
            return "scripted"
        return original(inp, name)

    set_attr(ops, "_str", read_str)


@mutant(
    "rerank-text-null-rejected",
    "RERANK-15",
    '`rerank_text` reads a field with get(name, ""), so a present null is not a string and '
    "is rejected",
    seams=("conformance.adapters.ops.fusion.optional",),
)
def _rerank_text_null_rejected() -> None:
    ops = _mod("conformance.adapters.ops.fusion")
    original = ops.optional

    def optional(inp: Any, name: str, default: Any) -> Any:
        if name in ("title", "summary", "content"):
            return inp.get(name, default)
        return original(inp, name, default)

    set_attr(ops, "optional", optional)
