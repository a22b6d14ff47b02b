"""Broken ports that use a runtime's own primitive where the spec pins another (issue 37):
rerank text's trim and split sets (RERANK-13, RERANK-14), RRF-10's notion of an empty field,
and the 2.x core's mode validation, rerank outcome precedence and unanimity inputs.
Registered on import."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from conformance.selftest.broken_ports.patching import _mod, mutant, set_attr, swap

#: JavaScript's String.prototype.trim and `\s`: WhiteSpace and LineTerminator (U+FEFF in,
#: U+0085 out).
JS_SPACE = (
    "\t\n\x0b\x0c\r \xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009"
    "\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
)
#: Python's str.strip() and str.split() with no argument: str.isspace (U+001C..U+001F in).
PY_SPACE = "".join(chr(c) for c in range(0x110000) if chr(c).isspace())
#: Java's Character.isWhitespace: no-break spaces out, U+001C..U+001F in.
JAVA_SPACE = "".join(
    ch for ch in PY_SPACE if ch not in "\xa0\u2007\u202f\x85"
)
#: Go's regexp `\s` (RE2): ASCII [\t\n\f\r ], no vertical tab.
GO_RE_SPACE = "\t\n\x0c\r "


def _rerank_text() -> Any:
    return _mod("reference.rerank_text")


def _split(value: str, spaces: str) -> list[str]:
    out: list[str] = []
    cur = ""
    for ch in value:
        if ch in spaces:
            if cur:
                out.append(cur)
            cur = ""
        else:
            cur += ch
    if cur:
        out.append(cur)
    return out


def _with_spaces(trim_set: str, split_set: str | None) -> None:
    m = _rerank_text()

    def snippet(content: str) -> str:
        spaces = split_set if split_set is not None else "".join(sorted(m.WHITESPACE))
        return " ".join(_split(content, spaces))[: m.SNIPPET_MAX]

    def rerank_text(title: str, summary: str, content: str) -> str:
        t, s = title.strip(trim_set), summary.strip(trim_set)
        if t and s:
            return f"{t}\n{s}"
        return t or s or snippet(content)

    swap(m, "snippet", snippet)
    swap(m, "rerank_text", rerank_text)


@mutant(
    "rerank-text-js-trim",
    "RERANK-13",
    "title and summary trimmed with JavaScript's trim() (U+FEFF trimmed, U+0085 kept)",
    seams=("reference.rerank_text.snippet", "reference.rerank_text.rerank_text"),
)
def _rerank_text_js_trim() -> None:
    _with_spaces(JS_SPACE, None)


@mutant(
    "rerank-text-python-strip",
    "RERANK-13",
    "title and summary trimmed with Python's str.strip() (U+001C..U+001F trimmed too)",
    seams=("reference.rerank_text.snippet", "reference.rerank_text.rerank_text"),
)
def _rerank_text_python_strip() -> None:
    _with_spaces(PY_SPACE, None)


@mutant(
    "rerank-text-java-strip",
    "RERANK-13",
    "title and summary trimmed with Java's strip() (no-break spaces kept, U+001C..U+001F trimmed)",
    seams=("reference.rerank_text.snippet", "reference.rerank_text.rerank_text"),
)
def _rerank_text_java_strip() -> None:
    _with_spaces(JAVA_SPACE, None)


@mutant(
    "rerank-text-blank-title-counts",
    "RERANK-13",
    "emptiness is tested before trimming, so a white-space-only title still pairs with the summary",
    seams=("reference.rerank_text.rerank_text",),
)
def _rerank_text_blank_title() -> None:
    m = _rerank_text()
    ws = "".join(sorted(m.WHITESPACE))

    def rerank_text(title: str, summary: str, content: str) -> str:
        if title and summary:
            return f"{title.strip(ws)}\n{summary.strip(ws)}"
        t, s = title.strip(ws), summary.strip(ws)
        return t or s or m.snippet(content)

    swap(m, "rerank_text", rerank_text)


@mutant(
    "rerank-snippet-js-split",
    "RERANK-14",
    "the content snippet collapses JavaScript's \\s runs (U+FEFF collapsed, U+0085 kept)",
    seams=("reference.rerank_text.snippet", "reference.rerank_text.rerank_text"),
)
def _rerank_snippet_js() -> None:
    _with_spaces("".join(sorted(_rerank_text().WHITESPACE)), JS_SPACE)


@mutant(
    "rerank-snippet-python-split",
    "RERANK-14",
    "the content snippet is ' '.join(content.split()) (U+001C..U+001F collapsed too)",
    seams=("reference.rerank_text.snippet", "reference.rerank_text.rerank_text"),
)
def _rerank_snippet_python() -> None:
    _with_spaces("".join(sorted(_rerank_text().WHITESPACE)), PY_SPACE)


@mutant(
    "rerank-snippet-go-regexp-space",
    "RERANK-14",
    "the content snippet collapses Go's regexp \\s (ASCII only, no vertical tab)",
    seams=("reference.rerank_text.snippet", "reference.rerank_text.rerank_text"),
)
def _rerank_snippet_go() -> None:
    _with_spaces("".join(sorted(_rerank_text().WHITESPACE)), GO_RE_SPACE)


# -- RRF-10: what "empty" means --------------------------------------------------------------


def _rrf() -> Any:
    return _mod("reference.rrf")


@mutant(
    "rrf-fill-blank-is-empty",
    "RRF-10",
    "a text field of white space only counts as empty and is filled by a later sighting",
    seams=("reference.rrf._filled",),
)
def _rrf_fill_blank() -> None:
    r = _rrf()
    original = r._filled

    def filled(occurrences: Sequence[tuple[int, Any]]) -> Any:
        first = occurrences[0][1]
        blanked = {n: "" for n in r.FILLED_FIELDS if getattr(first, n).strip() == ""}
        merged = original([(occurrences[0][0], replace(first, **blanked)), *occurrences[1:]])
        restore = {n: getattr(first, n) for n in blanked if getattr(merged, n) == ""}
        return replace(merged, **restore)

    swap(r, "_filled", filled)


@mutant(
    "rrf-fill-nullish",
    "RRF-10",
    "fields fill with `??` (only a missing value is filled, never an empty string)",
    seams=("reference.rrf._filled",),
)
def _rrf_fill_nullish() -> None:
    r = _rrf()
    original = r._filled

    def filled(occurrences: Sequence[tuple[int, Any]]) -> Any:
        merged = original(occurrences)
        first = occurrences[0][1]
        return replace(merged, **{n: getattr(first, n) for n in r.FILLED_FIELDS})

    swap(r, "_filled", filled)


@mutant(
    "rrf-fill-from-zero-weight",
    "RRF-10",
    "a list of weight 0 is read for the fill (it seeds a field the later lists leave empty)",
    seams=("reference.rrf.fuse",),
)
def _rrf_fill_zero_weight() -> None:
    r = _rrf()
    original = r.fuse

    def fuse(lists: Sequence[Any], k: int = r.DEFAULT_K) -> list[Any]:
        fused: list[Any] = original(lists, k)
        zero = [lst for lst in lists if lst.weight == 0]
        if not zero:
            return fused
        seen: dict[str, Any] = {}
        for lst in zero:
            for cand in lst.items:
                seen.setdefault(cand.id, cand)
        out = []
        for f in fused:
            z = seen.get(f.id)
            if z is not None:
                texts = {n: getattr(z, n) for n in r.FILLED_FIELDS if getattr(z, n)}
                f = _refill(f, texts)
            out.append(f)
        return out

    swap(r, "fuse", fuse)


def _refill(f: Any, texts: Mapping[str, str]) -> Any:
    """A fused item whose candidate takes `texts` (the zero-weight list's, seen first)."""
    cand = replace(f.candidate, **texts)
    try:
        return replace(f, candidate=cand)
    except TypeError:
        object.__setattr__(f, "candidate", cand)
        return f


# -- the 2.x core: mode validation, rerank outcome precedence, unanimity inputs -------------


def _request() -> Any:
    return _mod("reference.request")


def _wrap_request(fix: Any) -> None:
    req = _request()
    original = req.parse_request

    def parse_request(obj: Any) -> Any:
        if isinstance(obj, Mapping):
            obj = fix(dict(obj))
        return original(obj)

    swap(req, "parse_request", parse_request)


@mutant(
    "mode-case-insensitive",
    "PIPE-1",
    "the request's mode is matched case-insensitively (HYBRID is hybrid)",
    seams=("reference.request.parse_request",),
)
def _mode_case_insensitive() -> None:
    def fix(obj: dict[str, Any]) -> dict[str, Any]:
        if isinstance(obj.get("mode"), str):
            obj["mode"] = obj["mode"].strip().lower()
        return obj

    _wrap_request(fix)


@mutant(
    "mode-empty-is-default",
    "PIPE-1",
    "an empty mode string is the default (JavaScript's `mode || 'auto'`)",
    seams=("reference.request.parse_request",),
)
def _mode_empty_default() -> None:
    def fix(obj: dict[str, Any]) -> dict[str, Any]:
        if obj.get("mode") == "" or obj.get("mode") is False or obj.get("mode") == 0:
            del obj["mode"]
        return obj

    _wrap_request(fix)


def _pipeline() -> Any:
    return _mod("reference.pipeline")


@mutant(
    "rerank-no-reranker-before-disabled",
    "RERANK-10",
    "the outcome tests for a configured reranker before rerank: false",
    seams=("reference.rerank.skip_before_unanimity",),
)
def _rerank_no_reranker_first() -> None:
    rr = _mod("reference.rerank")

    def skip(enabled: bool, has_reranker: bool, fused_count: int) -> str | None:
        if not has_reranker:
            return str(rr.NO_RERANKER)
        if not enabled:
            return str(rr.DISABLED)
        return str(rr.EMPTY) if fused_count == 0 else None

    swap(rr, "skip_before_unanimity", skip)


def _unanimity_before_disabled() -> None:
    """The unanimity vote is taken before the `disabled` step; unfired, the outcome is
    still `disabled`."""
    rr = _mod("reference.rerank")
    state: dict[str, bool] = {"disabled": False}
    original_skip = rr.skip_before_unanimity
    original_head = rr.rerank_head
    original_skipped = rr.skipped

    def skip(enabled: bool, has_reranker: bool, fused_count: int) -> str | None:
        state["disabled"] = False
        result: str | None = original_skip(True, has_reranker, fused_count)
        if enabled:
            return result
        if result is not None:
            return str(rr.DISABLED)
        state["disabled"] = True
        return None

    def rerank_head(fused: Any, top_n: int, entries: Any, error: Any, provider: str) -> Any:
        if state["disabled"]:
            return original_skipped(fused, rr.DISABLED, provider)
        return original_head(fused, top_n, entries, error, provider)

    swap(rr, "skip_before_unanimity", skip)
    swap(rr, "rerank_head", rerank_head)


@mutant(
    "unan-evaluated-when-disabled",
    "UNAN-6",
    "the unanimity vote is taken even with rerank: false, and its firing wins over disabled",
    seams=("reference.rerank.skip_before_unanimity", "reference.rerank.rerank_head"),
)
def _unan_when_disabled() -> None:
    _unanimity_before_disabled()


@mutant(
    "unan-votes-with-paths",
    "UNAN-2",
    "the legs vote with their hits' paths (documents), not their ids",
    seams=("reference.pipeline.unanimity_voters",),
)
def _unan_paths() -> None:
    pipe = _pipeline()

    def voters(bm25: Any, vleg: Any) -> tuple[list[str], list[str]] | None:
        if bm25 is None or not vleg.ran or not vleg.fused:
            return None
        return [c.path for c in bm25.hits], [c.path for c in vleg.hits]

    set_attr(pipe, "unanimity_voters", voters)


@mutant(
    "unan-ids-case-folded",
    "UNAN-2",
    "ids are compared case-insensitively",
    seams=("reference.unanimity.check",),
)
def _unan_case_folded() -> None:
    u = _mod("reference.unanimity")
    original = u.check

    def check(bm25_ids: Sequence[str], vector_ids: Sequence[str]) -> Any:
        return original([i.lower() for i in bm25_ids], [i.lower() for i in vector_ids])

    swap(u, "check", check)


def _unanimity_ids(check_leg: Any) -> None:
    ops = _mod("conformance.adapters.ops.fusion")

    def ids(inp: Any, name: str) -> list[str]:
        got = ops._list(inp, name)
        checked = check_leg(name, got)
        if not all(isinstance(i, str) and i != "" for i in checked):
            raise ops.InvalidInput(f"{name} must be a list of non-empty strings")
        return [i if isinstance(i, str) else str(i) for i in got]

    set_attr(ops, "_ids", ids)


@mutant(
    "unan-vector-ids-unchecked",
    "UNAN-7",
    "only the BM25 leg's ids are validated; the vector leg is taken as it comes",
    seams=("conformance.adapters.ops.fusion._ids",),
)
def _unan_vector_unchecked() -> None:
    _unanimity_ids(lambda name, ids: ids if name == "bm25" else [])


@mutant(
    "unan-ids-checked-in-top-three",
    "UNAN-7",
    "only the three compared positions are validated; a bad id further down passes",
    seams=("conformance.adapters.ops.fusion._ids",),
)
def _unan_top_three() -> None:
    _unanimity_ids(lambda name, ids: ids[:3])
