"""Reference handlers of the ladder and trigram operations (spec/operations.md; LADDER, TRI)."""

from __future__ import annotations

from typing import Any

from conformance.adapters.ops import JSON, operation
from reference import text, trigram
from reference.types import Candidate, InvalidInput, candidate_from_json, optional, whole_number

DEFAULT_CANDIDATE_K = 60


def _string(inp: JSON, name: str) -> str:
    value: Any = inp.get(name)
    if not isinstance(value, str):
        raise InvalidInput(f"{name} must be a string")
    return value


def _strings(inp: JSON, name: str) -> list[str]:
    value: Any = inp.get(name)
    if not isinstance(value, list) or not all(isinstance(s, str) for s in value):
        raise InvalidInput(f"{name} must be a list of strings")
    return list(value)


def _chunks(inp: JSON) -> list[Candidate]:
    value: Any = inp.get("chunks")
    if not isinstance(value, list):
        raise InvalidInput("chunks must be a list of chunk objects")
    return [candidate_from_json(item) for item in value]


def _candidate_k(inp: JSON) -> int:
    """TRI-7, OP-4, OP-5: a number <= 0 means 60 (PIPE-13); otherwise a whole number in
    [1, 2^31 - 1] (60.0 is 60; null is absent)."""
    value = optional(inp, "candidateK", DEFAULT_CANDIDATE_K)
    if not isinstance(value, bool) and isinstance(value, int | float) and value <= 0:
        return DEFAULT_CANDIDATE_K
    return whole_number(value, "candidateK")


@operation("trigrams")
def op_trigrams(inp: JSON) -> JSON:
    """TRI-2: the trigram set of one word, sorted by code point (TEXT-9)."""
    return {"trigrams": text.sort_codepoint(list(trigram.trigrams(_string(inp, "word"))))}


@operation("jaccard")
def op_jaccard(inp: JSON) -> JSON:
    """TRI-3, TRI-5: the exact Jaccard pair of two words and the threshold verdict."""
    a = trigram.trigrams(_string(inp, "a"))
    b = trigram.trigrams(_string(inp, "b"))
    inter, union = trigram.jaccard(a, b)
    return {"intersection": inter, "union": union, "similar": trigram.is_similar(inter, union)}


@operation("trigram_search")
def op_trigram_search(inp: JSON) -> JSON:
    """TRI-1..7: fuzzy hits over the chunks' content, best first, at most candidateK."""
    tokens = _strings(inp, "tokens")
    chunks = _chunks(inp)
    limit = _candidate_k(inp)
    return {"hits": [h.to_json() for h in trigram.trigram_search(tokens, chunks, limit)]}


@operation("strongest_term")
def op_strongest_term(inp: JSON) -> JSON:
    """LADDER-9: the strongest term of the query's sanitised words ("" when none)."""
    from reference.ladder import query_strongest_term  # lazy: needs reference.query
    from reference.query.stopwords import check_list

    sw = check_list(inp.get("stopwordList"))  # DSL-22
    return {"term": query_strongest_term(_string(inp, "query"), sw)}


@operation("fanout_texts")
def op_fanout_texts(inp: JSON) -> JSON:
    """FANOUT-13: the first-pass query texts of `query` with its base (default: the query)."""
    from reference.fanout import plan_texts
    from reference.request import check_query_bound

    query = check_query_bound(_string(inp, "query"), "query", "FANOUT-25")
    base = optional(inp, "base", query)
    if not isinstance(base, str):
        raise InvalidInput("base must be a string")
    check_query_bound(base, "base", "FANOUT-25")
    return {"texts": plan_texts(query, base)}
