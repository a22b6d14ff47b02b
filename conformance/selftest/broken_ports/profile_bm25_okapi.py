"""Broken ports of profile bm25-okapi (spec/profiles/bm25-okapi.md), registered on import."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction
from types import ModuleType
from typing import Any

from conformance.selftest.broken_ports.patching import (
    _mod,
    mutant,
    set_attr,
)


def _scoring() -> ModuleType:
    return _mod("reference.profiles.bm25_okapi.scoring")


def _fma(x: float, y: float, z: float) -> float:
    """x × y + z rounded once, as a fused multiply-add does."""
    return float(Fraction(x) * Fraction(y) + Fraction(z))


@mutant("okapi-k1-fts5-default", "OKAPI-3", "k1 defaults to 1.2, FTS5's value, not seed 002's 1.5")
def _okapi_k1_fts5() -> None:
    s = _scoring()
    original = s.check_params

    def check_params(k1: object, b: object) -> Any:
        return original(1.2 if k1 is None else k1, b)

    set_attr(s, "check_params", check_params)
    set_attr(_mod("reference.profiles.bm25_okapi.operation"), "check_params", check_params)


@mutant("okapi-k1-unchecked", "OKAPI-3", "any finite k1 and b are accepted, negative included")
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
)
def _okapi_robertson() -> None:
    def idf(document_count: int, df: int) -> float:
        return math.log((float(document_count - df) + 0.5) / (float(df) + 0.5))

    set_attr(_scoring(), "idf", idf)


@mutant("okapi-runtime-log", "OKAPI-5", "IDF uses the runtime's log instead of the pinned ln")
def _okapi_runtime_log() -> None:
    set_attr(_scoring(), "okapi_ln", math.log)


@mutant(
    "okapi-fma-ln",
    "OKAPI-10",
    "the pinned ln fuses p × v + C[j] and e × ln2 + 2t into fused multiply-adds",
)
def _okapi_fma_ln() -> None:
    ln = _mod("reference.profiles.bm25_okapi.okapi_ln")

    def okapi_ln(x: float) -> float:
        m, e = x, 0
        while m >= 2.0:
            m, e = m / 2.0, e + 1
        if m > ln.SQRT2:
            m, e = m / 2.0, e + 1
        u = (m - 1.0) / (m + 1.0)
        v = u * u
        p = ln.COEFFICIENTS[ln.TERMS - 1]
        for k in range(ln.TERMS - 2, -1, -1):
            p = _fma(p, v, ln.COEFFICIENTS[k])
        t = u * p
        return _fma(float(e), ln.LN2, t + t)

    set_attr(_scoring(), "okapi_ln", okapi_ln)


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


@mutant("okapi-fma-denominator", "OKAPI-10", "tf + k1 × base is one fused multiply-add")
def _okapi_fma_den() -> None:
    set_attr(_scoring(), "term_weight", lambda *a: _weight(*a, fused=True))


@mutant("okapi-b-times-ratio", "OKAPI-7", "b × (dl / avgdl) instead of (b × dl) / avgdl")
def _okapi_grouped() -> None:
    set_attr(_scoring(), "term_weight", lambda *a: _weight(*a, grouped=True))


@mutant("okapi-idf-times-quotient", "OKAPI-7", "IDF × (num / den) instead of (IDF × num) / den")
def _okapi_quotient_first() -> None:
    set_attr(_scoring(), "term_weight", lambda *a: _weight(*a, quotient_first=True))


@mutant(
    "okapi-k1-zero-shortcut",
    "OKAPI-7",
    "with k1 = 0 the weight is taken to be the IDF, skipping (IDF × tf) / tf",
)
def _okapi_k1_zero() -> None:
    s = _scoring()
    original = s.term_weight

    def term_weight(term_idf: float, tf: int, dl: int, avgdl: float, params: Any) -> float:
        return term_idf if params.k1 == 0 else float(original(term_idf, tf, dl, avgdl, params))

    set_attr(s, "term_weight", term_weight)


@mutant("okapi-sum-reversed", "OKAPI-8", "term weights are summed last term first")
def _okapi_sum_reversed() -> None:
    def document_score(weights: Sequence[float]) -> float:
        total = 0.0
        for w in reversed(weights):
            total = total + w
        return total

    set_attr(_scoring(), "document_score", document_score)


@mutant("okapi-whitespace-tokens", "OKAPI-2", "tokens are the lowercased whitespace pieces")
def _okapi_whitespace_tokens() -> None:
    set_attr(_scoring(), "words", lambda text: text.lower().split())


@mutant("okapi-query-repeats-count", "OKAPI-2", "a word repeated in the query counts each time")
def _okapi_query_repeats() -> None:
    s = _scoring()
    set_attr(s, "query_terms", lambda query: sorted(s.words(query)))


@mutant("okapi-dl-distinct-words", "OKAPI-2", "dl counts distinct words, not tokens")
def _okapi_dl_distinct() -> None:
    s = _scoring()

    class DistinctCounter(Counter):  # type: ignore[type-arg]
        def values(self) -> Any:
            return [1 for _ in self]

    set_attr(s, "Counter", DistinctCounter)


@mutant(
    "okapi-empty-documents-ignored",
    "OKAPI-6",
    "N and avgdl leave out empty documents",
)
def _okapi_empty_ignored() -> None:
    s = _scoring()
    original = s.score_documents

    def score_documents(documents: Sequence[Any], query: str, params: Any) -> Any:
        kept = [d for d in documents if s.words(d.content)]
        return original(kept, query, params)

    set_attr(s, "score_documents", score_documents)
    set_attr(_mod("reference.profiles.bm25_okapi.operation"), "score_documents", score_documents)


@mutant("okapi-ties-by-id", "OKAPI-9", "equal scores go by id, not by path")
def _okapi_ties_by_id() -> None:
    set_attr(_scoring(), "rank", lambda items: sorted(items, key=lambda s: (-s.score, s.id)))


@mutant("okapi-utf16-path-order", "OKAPI-9", "paths compare by UTF-16 code units (JavaScript <)")
def _okapi_utf16() -> None:
    def key(text: str) -> bytes:
        return text.encode("utf-16-be")

    set_attr(
        _scoring(),
        "rank",
        lambda items: sorted(items, key=lambda s: (-s.score, key(s.path), key(s.id))),
    )


@mutant("okapi-zero-scores-listed", "OKAPI-9", "documents without a query term are listed with 0")
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


@mutant("okapi-title-scored", "OKAPI-1", "title and summary are scored with the content")
def _okapi_title_scored() -> None:
    op = _mod("reference.profiles.bm25_okapi.operation")
    s = _scoring()
    types = _mod("reference.types")

    def documents_from_json(value: object, where: str) -> list[Any]:
        docs = types.candidates_from_json(value, where, chunk=True)
        return [s.Document(d.id, d.path, f"{d.title} {d.summary} {d.content}") for d in docs]

    set_attr(op, "documents_from_json", documents_from_json)


@mutant("okapi-duplicate-ids-accepted", "OKAPI-12", "two documents with one id are both scored")
def _okapi_duplicates() -> None:
    op = _mod("reference.profiles.bm25_okapi.operation")
    s = _scoring()
    types = _mod("reference.types")

    def documents_from_json(value: object, where: str) -> list[Any]:
        docs = types.candidates_from_json(value, where, chunk=True)
        return [s.Document(d.id, d.path, d.content) for d in docs]

    set_attr(op, "documents_from_json", documents_from_json)


# -- the pipeline integration (OKAPI-14) --------------------------------------------------------


def _pipeline() -> ModuleType:
    return _mod("reference.profiles.bm25_okapi.pipeline")


def _replace_hooks(**changes: Any) -> None:
    from dataclasses import replace

    pkg = _mod("reference.profiles.bm25_okapi")
    hooks = replace(pkg.PIPELINE, **changes)
    set_attr(pkg, "PIPELINE", hooks)
    set_attr(_pipeline(), "PIPELINE", hooks)


@mutant(
    "okapi-pipeline-cut-before-rescoring",
    "OKAPI-14",
    "the BM25 leg asks for candidateK hits and re-ranks only those",
)
def _okapi_cut_first() -> None:
    _replace_hooks(leg_limit=None)


@mutant(
    "okapi-pipeline-zero-scores-keep-index-order",
    "OKAPI-14",
    "hits without an Okapi score keep the index's order instead of path, id",
)
def _okapi_zero_index_order() -> None:
    p = _pipeline()

    def filter_leg(call: Any, leg: str, hits: list[Any]) -> list[Any]:
        if leg != p.LEG:
            return hits
        options = p._options(call)
        scores = call.backend.score_ids(options.query, [h.id for h in hits], options.params)
        call.trace["rescored"] = int(call.trace.get("rescored", 0)) + len(hits)
        return sorted(hits, key=lambda h: -scores[h.id])

    _replace_hooks(filter_leg=filter_leg)


@mutant("okapi-pipeline-every-leg", "OKAPI-14", "the vector leg's hits are re-ranked by Okapi too")
def _okapi_every_leg() -> None:
    p = _pipeline()
    original = p.filter_leg
    _replace_hooks(filter_leg=lambda call, leg, hits: original(call, p.LEG, hits))


@mutant(
    "okapi-pipeline-first-answer-only",
    "OKAPI-14",
    "only the initial ladder attempt is re-ranked; later rungs keep the index's order",
)
def _okapi_first_answer_only() -> None:
    p = _pipeline()
    original = p.filter_leg

    # Keyed by id, holding the call itself: a bare id could be reused by a later call once the
    # first is collected, which made this port skip a later search's first answer at random.
    answered: dict[int, Any] = {}

    def filter_leg(call: Any, leg: str, hits: list[Any]) -> list[Any]:
        if answered.get(id(call)) is call:
            return hits
        out: list[Any] = original(call, leg, hits)
        if leg == p.LEG:
            answered[id(call)] = call
        return out

    _replace_hooks(filter_leg=filter_leg)


def _okapi_hooks(**changes: Any) -> None:
    package = _mod("reference.profiles.bm25_okapi")
    pipeline = _mod("reference.profiles.bm25_okapi.pipeline")
    hooks = replace(pipeline.PIPELINE, **changes)
    set_attr(package, "PIPELINE", hooks)
    set_attr(pipeline, "PIPELINE", hooks)


@mutant("okapi-default-size-eight", "OKAPI-16", "the profile cuts the results to the seed's 8")
def _okapi_default_eight() -> None:
    def after_rerank(call: Any, query: str, entries: Any, outcome: str) -> Any:
        return [item_id for item_id, _ in entries[:8]]

    _okapi_hooks(after_rerank=after_rerank)


@mutant("okapi-hyde-ignored", "OKAPI-17", "the document is accepted but the query is embedded")
def _okapi_hyde_ignored() -> None:
    _okapi_hooks(vector_query=None)


@mutant(
    "okapi-hyde-replaces-the-query",
    "OKAPI-17",
    "the hypothetical document replaces the query for every leg, BM25 included",
)
def _okapi_hyde_everywhere() -> None:
    def rewrite_query(call: Any, query: str) -> str:
        hypothetical = call.options.hypothetical
        return query if hypothetical is None else str(hypothetical)

    _okapi_hooks(rewrite_query=rewrite_query)


@mutant(
    "okapi-hyde-not-normalised",
    "OKAPI-17",
    "a document empty after normalisation (only spaces and format characters) is accepted",
)
def _okapi_hyde_not_normalised() -> None:
    pipeline = _mod("reference.profiles.bm25_okapi.pipeline")
    original = pipeline.parse_request

    def parse_request(obj: Any) -> Any:
        raw = obj.get("hypotheticalDocument")
        if isinstance(raw, str) and raw != "" and pipeline.normalise(raw) == "":
            return original({**obj, "hypotheticalDocument": None})
        return original(obj)

    _okapi_hooks(parse_request=parse_request)
