"""Broken ports of profile bm25-okapi's scoring and its operation (spec/profiles/bm25-okapi.md
OKAPI-1..12), registered on import. A slip in a scoring step is swapped in wherever the reference
bound that step (the two operations, the SQLite helper), as a port has one."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from types import ModuleType
from typing import Any

from conformance.selftest.broken_ports.patching import (
    _mod,
    mutant,
    set_attr,
    swap,
)


def _scoring() -> ModuleType:
    return _mod("reference.profiles.bm25_okapi.scoring")


def _fma(x: float, y: float, z: float) -> float:
    """x × y + z rounded once, as a fused multiply-add does."""
    return float(Fraction(x) * Fraction(y) + Fraction(z))


@mutant(
    "okapi-k1-fts5-default",
    "OKAPI-3",
    "k1 defaults to 1.2, FTS5's value, not seed 002's 1.5",
    seams=(
        "reference.profiles.bm25_okapi.scoring.check_params",
        "reference.profiles.bm25_okapi.operation.check_params",
    ),
)
def _okapi_k1_fts5() -> None:
    s = _scoring()
    original = s.check_params

    def check_params(k1: object, b: object) -> Any:
        return original(1.2 if k1 is None else k1, b)

    set_attr(s, "check_params", check_params)
    set_attr(_mod("reference.profiles.bm25_okapi.operation"), "check_params", check_params)


@mutant(
    "okapi-k1-unchecked",
    "OKAPI-3",
    "any finite k1 and b are accepted, negative included",
    seams=(
        "reference.profiles.bm25_okapi.scoring.check_params",
        "reference.profiles.bm25_okapi.operation.check_params",
    ),
)
def _okapi_k1_unchecked() -> None:
    s = _scoring()

    def check_params(k1: object, b: object) -> Any:
        return s.Params(
            s.DEFAULT_K1 if k1 is None else float(k1),  # type: ignore[arg-type]
            s.DEFAULT_B if b is None else float(b),  # type: ignore[arg-type]
        )

    set_attr(s, "check_params", check_params)
    set_attr(_mod("reference.profiles.bm25_okapi.operation"), "check_params", check_params)


@mutant(
    "okapi-robertson-idf",
    "OKAPI-4",
    "IDF is ln((N − n + 0.5) / (n + 0.5)), negative for a term in more than half the documents",
    seams=("reference.profiles.bm25_okapi.scoring.idf",),
)
def _okapi_robertson() -> None:
    def idf(document_count: int, df: int) -> float:
        return math.log((float(document_count - df) + 0.5) / (float(df) + 0.5))

    set_attr(_scoring(), "idf", idf)


@mutant(
    "okapi-runtime-log",
    "OKAPI-5",
    "IDF uses the runtime's log instead of the pinned ln",
    seams=("reference.profiles.bm25_okapi.scoring.okapi_ln",),
)
def _okapi_runtime_log() -> None:
    set_attr(_scoring(), "okapi_ln", math.log)


def _ln(*, fused: bool = False, terms: int = 12, halve_above_sqrt2: bool = True) -> Any:
    """OKAPI-5's ln with one porter's slip: fused steps, a shorter series or no √2 step."""
    ln = _mod("reference.profiles.bm25_okapi.okapi_ln")

    def okapi_ln(x: float) -> float:
        m, e = x, 0
        while m >= 2.0:
            m, e = m / 2.0, e + 1
        if halve_above_sqrt2 and m > ln.SQRT2:
            m, e = m / 2.0, e + 1
        u = (m - 1.0) / (m + 1.0)
        v = u * u
        p = ln.COEFFICIENTS[terms - 1]
        for k in range(terms - 2, -1, -1):
            p = _fma(p, v, ln.COEFFICIENTS[k]) if fused else (p * v) + ln.COEFFICIENTS[k]
        t = u * p
        return _fma(float(e), ln.LN2, t + t) if fused else (float(e) * ln.LN2) + (t + t)

    return okapi_ln


@mutant(
    "okapi-fma-ln",
    "OKAPI-10",
    "the pinned ln fuses p × v + C[j] and e × ln2 + 2t into fused multiply-adds",
    seams=("reference.profiles.bm25_okapi.scoring.okapi_ln",),
)
def _okapi_fma_ln() -> None:
    set_attr(_scoring(), "okapi_ln", _ln(fused=True))


@mutant(
    "okapi-ln-eleven-coefficients",
    "OKAPI-5",
    "the series starts from C[10] (j from 9 down to 0), one coefficient short of C[11]",
    seams=("reference.profiles.bm25_okapi.scoring.okapi_ln",),
)
def _okapi_ln_eleven() -> None:
    set_attr(_scoring(), "okapi_ln", _ln(terms=11))


@mutant(
    "okapi-ln-no-sqrt2-step",
    "OKAPI-5",
    "step 2 is skipped: m stays in [1, 2) instead of being halved above √2",
    seams=("reference.profiles.bm25_okapi.scoring.okapi_ln",),
)
def _okapi_ln_no_sqrt2() -> None:
    set_attr(_scoring(), "okapi_ln", _ln(halve_above_sqrt2=False))


@mutant(
    "okapi-idf-one-fraction",
    "OKAPI-4",
    "IDF is ln((N + 1) / (n + 0.5)), the same value on paper as ln(1 + (N − n + 0.5) / (n + 0.5))",
    seams=("reference.profiles.bm25_okapi.scoring.idf",),
)
def _okapi_idf_one_fraction() -> None:
    s = _scoring()

    def idf(document_count: int, df: int) -> float:
        return float(s.okapi_ln((float(document_count) + 1.0) / (float(df) + 0.5)))

    set_attr(s, "idf", idf)


def _weight(
    term_idf: float, tf: int, dl: int, avgdl: float, params: Any, *, fused: bool = False,
    grouped: bool = False, quotient_first: bool = False,
) -> float:
    ftf = float(tf)
    scaled = params.b * (dl / avgdl) if grouped else (params.b * dl) / avgdl
    base = (1.0 - params.b) + scaled
    den = _fma(params.k1, base, ftf) if fused else ftf + params.k1 * base
    num = ftf * (params.k1 + 1.0)
    out: float = term_idf * (num / den) if quotient_first else (term_idf * num) / den
    return out


@mutant(
    "okapi-fma-denominator",
    "OKAPI-10",
    "tf + k1 × base is one fused multiply-add",
    seams=("reference.profiles.bm25_okapi.scoring.term_weight",),
)
def _okapi_fma_den() -> None:
    swap(_scoring(), "term_weight", lambda *a: _weight(*a, fused=True))


@mutant(
    "okapi-b-times-ratio",
    "OKAPI-7",
    "b × (dl / avgdl) instead of (b × dl) / avgdl",
    seams=("reference.profiles.bm25_okapi.scoring.term_weight",),
)
def _okapi_grouped() -> None:
    swap(_scoring(), "term_weight", lambda *a: _weight(*a, grouped=True))


@mutant(
    "okapi-idf-times-quotient",
    "OKAPI-7",
    "IDF × (num / den) instead of (IDF × num) / den",
    seams=("reference.profiles.bm25_okapi.scoring.term_weight",),
)
def _okapi_quotient_first() -> None:
    swap(_scoring(), "term_weight", lambda *a: _weight(*a, quotient_first=True))


@mutant(
    "okapi-k1-zero-shortcut",
    "OKAPI-7",
    "with k1 = 0 the weight is taken to be the IDF, skipping (IDF × tf) / tf",
    seams=("reference.profiles.bm25_okapi.scoring.term_weight",),
)
def _okapi_k1_zero() -> None:
    s = _scoring()
    original = s.term_weight

    def term_weight(term_idf: float, tf: int, dl: int, avgdl: float, params: Any) -> float:
        return term_idf if params.k1 == 0 else float(original(term_idf, tf, dl, avgdl, params))

    swap(s, "term_weight", term_weight)


@mutant(
    "okapi-sum-reversed",
    "OKAPI-8",
    "term weights are summed last term first",
    seams=("reference.profiles.bm25_okapi.scoring.document_score",),
)
def _okapi_sum_reversed() -> None:
    def document_score(weights: Sequence[float]) -> float:
        total = 0.0
        for w in reversed(weights):
            total = total + w
        return total

    swap(_scoring(), "document_score", document_score)


@mutant(
    "okapi-sum-largest-first",
    "OKAPI-8",
    "term weights are summed largest first (for accuracy), not in the terms' code point order",
    seams=("reference.profiles.bm25_okapi.scoring.document_score",),
)
def _okapi_sum_largest_first() -> None:
    def document_score(weights: Sequence[float]) -> float:
        total = 0.0
        for w in sorted(weights, reverse=True):
            total = total + w
        return total

    swap(_scoring(), "document_score", document_score)


@mutant(
    "okapi-whitespace-tokens",
    "OKAPI-2",
    "tokens are the lowercased whitespace pieces",
    seams=("reference.profiles.bm25_okapi.scoring.words",),
)
def _okapi_whitespace_tokens() -> None:
    set_attr(_scoring(), "words", lambda text: text.lower().split())


@mutant(
    "okapi-query-repeats-count",
    "OKAPI-2",
    "a word repeated in the query counts each time",
    seams=("reference.profiles.bm25_okapi.scoring.query_terms",),
)
def _okapi_query_repeats() -> None:
    s = _scoring()
    swap(s, "query_terms", lambda query: sorted(s.words(query)))


@mutant(
    "okapi-dl-distinct-words",
    "OKAPI-2",
    "dl counts distinct words, not tokens",
    seams=("reference.profiles.bm25_okapi.scoring.Counter",),
)
def _okapi_dl_distinct() -> None:
    s = _scoring()

    class DistinctCounter(Counter):  # type: ignore[type-arg]
        def values(self) -> Any:
            return [1 for _ in self]

    set_attr(s, "Counter", DistinctCounter)


@mutant(
    "okapi-diacritics-removed",
    "OKAPI-2",
    "words lose their diacritics (as FTS5's remove_diacritics), so cafe and café are one term",
    seams=(
        "reference.profiles.bm25_okapi.scoring.words",
        "reference.profiles.bm25_okapi.collection.words",
        "reference.profiles.bm25_okapi.sqlite_index.words",
    ),
)
def _okapi_diacritics_removed() -> None:
    import unicodedata

    text = _mod("reference.text")

    def words(value: str) -> list[str]:
        decomposed = unicodedata.normalize("NFD", value)
        bare = "".join(c for c in decomposed if unicodedata.category(c) != "Mn")
        return list(text.words(unicodedata.normalize("NFC", bare)))

    for name in ("scoring", "collection", "sqlite_index"):
        set_attr(_mod(f"reference.profiles.bm25_okapi.{name}"), "words", words)


@mutant(
    "okapi-avgdl-integer-division",
    "OKAPI-6",
    "avgdl is the integer quotient T / N (as Go or C divide two ints) converted afterwards",
    seams=("reference.profiles.bm25_okapi.scoring.average_length",),
)
def _okapi_avgdl_integer() -> None:
    def average_length(total_length: int, document_count: int) -> float | None:
        return None if document_count == 0 else float(total_length // document_count)

    swap(_scoring(), "average_length", average_length)


@mutant(
    "okapi-empty-documents-ignored",
    "OKAPI-6",
    "N and avgdl leave out empty documents",
    seams=(
        "reference.profiles.bm25_okapi.scoring.score_documents",
        "reference.profiles.bm25_okapi.operation.score_documents",
    ),
)
def _okapi_empty_ignored() -> None:
    s = _scoring()
    original = s.score_documents

    def score_documents(documents: Sequence[Any], query: str, params: Any) -> Any:
        kept = [d for d in documents if s.words(d.content)]
        return original(kept, query, params)

    set_attr(s, "score_documents", score_documents)
    set_attr(_mod("reference.profiles.bm25_okapi.operation"), "score_documents", score_documents)


@mutant(
    "okapi-ties-by-id",
    "OKAPI-9",
    "equal scores go by id, not by path",
    seams=("reference.profiles.bm25_okapi.scoring.rank",),
)
def _okapi_ties_by_id() -> None:
    swap(_scoring(), "rank", lambda items: sorted(items, key=lambda s: (-s.score, s.id)))


@mutant(
    "okapi-utf16-path-order",
    "OKAPI-9",
    "paths compare by UTF-16 code units (JavaScript <)",
    seams=("reference.profiles.bm25_okapi.scoring.rank",),
)
def _okapi_utf16() -> None:
    def key(text: str) -> bytes:
        return text.encode("utf-16-be")

    set_attr(
        _scoring(),
        "rank",
        lambda items: sorted(items, key=lambda s: (-s.score, key(s.path), key(s.id))),
    )


@mutant(
    "okapi-zero-scores-listed",
    "OKAPI-9",
    "documents without a query term are listed with 0",
    seams=(
        "reference.profiles.bm25_okapi.scoring.score_documents",
        "reference.profiles.bm25_okapi.operation.score_documents",
    ),
)
def _okapi_zero_listed() -> None:
    s = _scoring()
    original = s.score_documents

    def score_documents(documents: Sequence[Any], query: str, params: Any) -> Any:
        out = original(documents, query, params)
        listed = {r.id for r in out.results}
        extra = [s.Scored(d.id, d.path, 0.0) for d in documents if d.id not in listed]
        return s.Outcome(
            out.document_count, out.average_length, out.terms, s.rank([*out.results, *extra])
        )

    set_attr(s, "score_documents", score_documents)
    set_attr(_mod("reference.profiles.bm25_okapi.operation"), "score_documents", score_documents)


@mutant(
    "okapi-title-scored",
    "OKAPI-1",
    "title and summary are scored with the content",
    seams=("reference.profiles.bm25_okapi.operation.documents_from_json",),
)
def _okapi_title_scored() -> None:
    op = _mod("reference.profiles.bm25_okapi.operation")
    s = _scoring()
    types = _mod("reference.types")

    def documents_from_json(value: object, where: str) -> list[Any]:
        docs = types.candidates_from_json(value, where, chunk=True)
        return [s.Document(d.id, d.path, f"{d.title} {d.summary} {d.content}") for d in docs]

    set_attr(op, "documents_from_json", documents_from_json)


@mutant(
    "okapi-terms-in-query-order",
    "OKAPI-11",
    "the query terms keep the order of their first occurrence in the query, not code point order",
    seams=("reference.profiles.bm25_okapi.scoring.query_terms",),
)
def _okapi_terms_query_order() -> None:
    s = _scoring()
    swap(s, "query_terms", lambda query: list(dict.fromkeys(s.words(query))))


@mutant(
    "okapi-absent-terms-omitted",
    "OKAPI-11",
    "terms lists only the query terms found in some document (no df 0, idf null entries)",
    seams=("reference.profiles.bm25_okapi.operation.outcome_json",),
)
def _okapi_absent_terms_omitted() -> None:
    op = _mod("reference.profiles.bm25_okapi.operation")
    original = op.outcome_json

    def outcome_json(outcome: Any) -> dict[str, Any]:
        out: dict[str, Any] = original(outcome)
        out["terms"] = [t for t in out["terms"] if t["df"] > 0]
        return out

    set_attr(op, "outcome_json", outcome_json)


@mutant(
    "okapi-average-length-zero-when-empty",
    "OKAPI-11",
    "an empty collection answers averageLength 0.0 instead of null",
    seams=("reference.profiles.bm25_okapi.operation.outcome_json",),
)
def _okapi_average_zero() -> None:
    op = _mod("reference.profiles.bm25_okapi.operation")
    original = op.outcome_json

    def outcome_json(outcome: Any) -> dict[str, Any]:
        out: dict[str, Any] = original(outcome)
        if out["averageLength"] is None:
            out["averageLength"] = 0.0
        return out

    set_attr(op, "outcome_json", outcome_json)


@mutant(
    "okapi-upper-bounds-exclusive",
    "OKAPI-3",
    "k1 must be below 1000 and b below 1: the upper bounds are rejected",
    seams=(
        "reference.profiles.bm25_okapi.scoring.check_params",
        "reference.profiles.bm25_okapi.operation.check_params",
        "reference.profiles.bm25_okapi.search.check_params",
    ),
)
def _okapi_bounds_exclusive() -> None:
    s = _scoring()
    original = s.check_params

    def check_params(k1: object, b: object) -> Any:
        if k1 == s.MAX_K1 or b == 1:
            raise _mod("reference.types").InvalidInput("k1 < 1000 and b < 1")
        return original(k1, b)

    set_attr(s, "check_params", check_params)
    set_attr(_mod("reference.profiles.bm25_okapi.operation"), "check_params", check_params)
    set_attr(_mod("reference.profiles.bm25_okapi.search"), "check_params", check_params)


@mutant(
    "okapi-duplicate-ids-accepted",
    "OKAPI-12",
    "two documents with one id are both scored",
    seams=(
        "reference.profiles.bm25_okapi.operation.documents_from_json",
        "reference.profiles.bm25_okapi.search.documents_from_json",
    ),
)
def _okapi_duplicates() -> None:
    op = _mod("reference.profiles.bm25_okapi.operation")
    s = _scoring()
    types = _mod("reference.types")

    def documents_from_json(value: object, where: str) -> list[Any]:
        docs = types.candidates_from_json(value, where, chunk=True)
        return [s.Document(d.id, d.path, d.content) for d in docs]

    set_attr(op, "documents_from_json", documents_from_json)
    pipeline = _mod("reference.profiles.bm25_okapi.search")
    set_attr(pipeline, "documents_from_json", documents_from_json)


def _lenient_documents(*, empty_id: bool = False, extra_fields: bool = True) -> None:
    """The operation's and the scripted collection's document parser with one slip."""
    op = _mod("reference.profiles.bm25_okapi.operation")
    s = _scoring()
    types = _mod("reference.types")
    original = op.documents_from_json

    def documents_from_json(value: object, where: str) -> list[Any]:
        if not isinstance(value, list):
            return list(original(value, where))
        for item in value:
            if isinstance(item, dict) and not extra_fields:
                extra = sorted(set(item) - {"id", "path", "content"})
                if extra:
                    raise types.InvalidInput(f"{where}: unknown member(s) {extra}")
            if empty_id and isinstance(item, dict) and item.get("id") == "":
                rest = [d for d in value if d is not item]
                blank = s.Document("", str(item.get("path")), str(item.get("content")))
                return [blank, *original(rest, where)]
        return list(original(value, where))

    set_attr(op, "documents_from_json", documents_from_json)
    pipeline = _mod("reference.profiles.bm25_okapi.search")
    set_attr(pipeline, "documents_from_json", documents_from_json)


@mutant(
    "okapi-empty-id-accepted",
    "OKAPI-12",
    "a document with the empty string as id is accepted",
    seams=(
        "reference.profiles.bm25_okapi.operation.documents_from_json",
        "reference.profiles.bm25_okapi.search.documents_from_json",
    ),
)
def _okapi_empty_id() -> None:
    _lenient_documents(empty_id=True)


@mutant(
    "okapi-extra-fields-rejected",
    "OKAPI-12",
    "a document with title, summary or metadata is invalid_input (a closed {id, path, content})",
    seams=(
        "reference.profiles.bm25_okapi.operation.documents_from_json",
        "reference.profiles.bm25_okapi.search.documents_from_json",
    ),
)
def _okapi_extra_fields() -> None:
    _lenient_documents(extra_fields=False)


@mutant(
    "okapi-scores-tie-within-epsilon",
    "OKAPI-9",
    "scores within 12 significant digits count as equal, so one ulp apart goes by path",
    seams=("reference.profiles.bm25_okapi.scoring.rank",),
)
def _okapi_epsilon_ties() -> None:
    def near(score: float) -> float:
        return float(f"{score:.12g}")

    def rank(items: Any) -> list[Any]:
        return sorted(items, key=lambda s: (-near(s.score), s.path, s.id))

    swap(_scoring(), "rank", rank)
