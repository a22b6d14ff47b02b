"""Broken ports of profile bm25-okapi in the search pipeline and over a real index
(spec/profiles/bm25-okapi.md OKAPI-13..17), registered on import."""

from __future__ import annotations

from types import ModuleType
from typing import Any

from conformance.selftest.broken_ports.patching import _mod, mutant, replace_hooks, set_attr


def _pipeline() -> ModuleType:
    return _mod("reference.profiles.bm25_okapi.pipeline")


def _replace_hooks(**changes: Any) -> None:
    replace_hooks("reference.profiles.bm25_okapi", "reference.profiles.bm25_okapi.pipeline",
                  **changes)


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

    def filter_leg(call: Any, leg: str, hits: list[Any]) -> list[Any]:
        # Marked on the call's own state: an id() of a finished call can be reused by the next
        # search in the same process, which made this port's kills vary from run to run.
        if call.state.get("okapi-answered"):
            return hits
        out: list[Any] = original(call, leg, hits)
        if leg == p.LEG:
            call.state["okapi-answered"] = True
        return out

    _replace_hooks(filter_leg=filter_leg)




@mutant("okapi-default-size-eight", "OKAPI-16", "the profile cuts the results to the seed's 8")
def _okapi_default_eight() -> None:
    def after_rerank(call: Any, query: str, entries: Any, outcome: str) -> Any:
        return [item_id for item_id, _ in entries[:8]]

    _replace_hooks(after_rerank=after_rerank)


@mutant("okapi-hyde-ignored", "OKAPI-17", "the document is accepted but the query is embedded")
def _okapi_hyde_ignored() -> None:
    _replace_hooks(vector_query=None)


@mutant(
    "okapi-hyde-replaces-the-query",
    "OKAPI-17",
    "the hypothetical document replaces the query for every leg, BM25 included",
)
def _okapi_hyde_everywhere() -> None:
    def rewrite_query(call: Any, query: str) -> str:
        hypothetical = call.options.hypothetical
        return query if hypothetical is None else str(hypothetical)

    _replace_hooks(rewrite_query=rewrite_query)


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

    _replace_hooks(parse_request=parse_request)


@mutant(
    "okapi-pipeline-zero-scores-dropped",
    "OKAPI-13",
    "the BM25 leg keeps only the hits with an Okapi score, dropping matches that score 0",
)
def _okapi_zero_dropped() -> None:
    p = _pipeline()
    original = p.filter_leg

    def filter_leg(call: Any, leg: str, hits: list[Any]) -> list[Any]:
        out: list[Any] = original(call, leg, hits)
        if leg != p.LEG:
            return out
        options = p._options(call)
        scores = call.backend.score_ids(options.query, [h.id for h in out], options.params)
        return [h for h in out if scores[h.id] > 0.0]

    _replace_hooks(filter_leg=filter_leg)


@mutant(
    "okapi-pipeline-null-option-rejected",
    "OKAPI-3",
    "a profile option present with null (k1, b, hypotheticalDocument) is invalid_input",
)
def _okapi_null_rejected() -> None:
    p = _pipeline()
    original = p.parse_request

    def parse_request(obj: Any) -> Any:
        nulls = sorted(k for k, v in obj.items() if v is None)
        if nulls:
            raise _mod("reference.types").InvalidInput(f"options {nulls} must not be null")
        return original(obj)

    _replace_hooks(parse_request=parse_request)


@mutant(
    "okapi-index-statistics-over-hits",
    "OKAPI-15",
    "over a real index, N, avgdl and df are counted over the leg's hits, not every chunk",
)
def _okapi_statistics_over_hits() -> None:
    index = _mod("reference.profiles.bm25_okapi.sqlite_index")
    s = _mod("reference.profiles.bm25_okapi.scoring")

    def score_ids(self: Any, query: str, ids: Any, params: Any) -> dict[str, float]:
        unique = list(dict.fromkeys(ids))
        rows: dict[int, tuple[str, int]] = {}
        for start in range(0, len(unique), 500):
            part = unique[start : start + 500]
            marks = ", ".join("?" * len(part))
            for rowid, cid, dl in self._query(
                f"SELECT chunk_rowid, id, dl FROM okapi_chunks WHERE id IN ({marks})", part
            ):
                rows[int(rowid)] = (str(cid), int(dl))
        terms = s.query_terms(query)
        tfs: dict[str, dict[int, int]] = {}
        for term in terms:
            found = self._query(
                "SELECT chunk_rowid, tf FROM okapi_postings WHERE term = ?", (term,)
            )
            tfs[term] = {int(r): int(tf) for r, tf in found if int(r) in rows}
        count = len(rows)
        avgdl = s.average_length(sum(dl for _, dl in rows.values()), count)
        stats = s.term_stats(terms, {t: len(tfs[t]) for t in terms}, count)
        weights: dict[str, list[float]] = {}
        for stat in stats:
            if stat.idf is None or avgdl is None:
                continue
            for rowid, tf in tfs[stat.term].items():
                cid, dl = rows[rowid]
                weights.setdefault(cid, []).append(s.term_weight(stat.idf, tf, dl, avgdl, params))
        return {cid: s.document_score(weights[cid]) if cid in weights else 0.0 for cid in ids}

    set_attr(index.OkapiIndex, "score_ids", score_ids)


@mutant(
    "okapi-pipeline-dsl-operators-dropped",
    "OKAPI-14",
    "the Okapi query terms are the parsed DSL's terms, so the words AND, OR and NOT are dropped",
)
def _okapi_operators_dropped() -> None:
    p = _pipeline()
    original = p.adjust_weights

    def adjust_weights(call: Any, query: str, weights: dict[str, float]) -> dict[str, float]:
        out: dict[str, float] = original(call, query, weights)
        options = p._options(call)
        options.query = " ".join(w for w in query.split() if w not in {"AND", "OR", "NOT"})
        return out

    _replace_hooks(adjust_weights=adjust_weights)


@mutant(
    "okapi-pipeline-utf16-path-order",
    "OKAPI-14",
    "the re-ranked hits compare path and id by UTF-16 code units (JavaScript's default sort)",
)
def _okapi_pipeline_utf16() -> None:
    p = _pipeline()

    def key(text: str) -> bytes:
        return text.encode("utf-16-be")

    def filter_leg(call: Any, leg: str, hits: list[Any]) -> list[Any]:
        if leg != p.LEG:
            return hits
        options = p._options(call)
        scores = call.backend.score_ids(options.query, [h.id for h in hits], options.params)
        call.trace["rescored"] = int(call.trace.get("rescored", 0)) + len(hits)
        return sorted(hits, key=lambda h: (-scores[h.id], key(h.path), key(h.id)))

    _replace_hooks(filter_leg=filter_leg)


@mutant(
    "okapi-hyde-empty-string-absent",
    "OKAPI-17",
    "a hypotheticalDocument of \"\" is taken for no document (a truthiness test), not rejected",
)
def _okapi_hyde_empty_absent() -> None:
    p = _pipeline()
    original = p.parse_request

    def parse_request(obj: Any) -> Any:
        if obj.get("hypotheticalDocument") == "":
            return original({**obj, "hypotheticalDocument": None})
        return original(obj)

    _replace_hooks(parse_request=parse_request)


@mutant(
    "okapi-pipeline-statistics-over-hits",
    "OKAPI-14",
    "N, avgdl and df are counted over the leg's hits, not over the whole scripted collection",
)
def _okapi_pipeline_statistics_over_hits() -> None:
    collection = _mod("reference.profiles.bm25_okapi.collection")
    original = collection.MemoryCollection.score_ids

    def score_ids(self: Any, query: str, ids: Any, params: Any) -> dict[str, float]:
        hits = collection.MemoryCollection([])
        hits._bags = {i: self._bags[i] for i in dict.fromkeys(ids) if i in self._bags}
        hits._lengths = {i: self._lengths[i] for i in hits._bags}
        out: dict[str, float] = original(hits, query, ids, params)
        return out

    set_attr(collection.MemoryCollection, "score_ids", score_ids)


@mutant(
    "okapi-index-default-params",
    "OKAPI-15",
    "over a real index the scores use the default k1 and b, not the request's",
)
def _okapi_index_default_params() -> None:
    index = _mod("reference.profiles.bm25_okapi.sqlite_index")
    s = _mod("reference.profiles.bm25_okapi.scoring")
    original = index.OkapiIndex.score_ids

    def score_ids(self: Any, query: str, ids: Any, params: Any) -> dict[str, float]:
        out: dict[str, float] = original(self, query, ids, s.Params())
        return out

    set_attr(index.OkapiIndex, "score_ids", score_ids)
