"""Broken ports of the BM25 leg's first pass (spec/fanout.md), registered on import."""

from __future__ import annotations

import builtins
from dataclasses import replace
from typing import Any

from conformance.selftest.broken_ports.patching import (
    _mod,
    mutant,
    set_attr,
    swap,
)
from reference.types import Candidate

# -- the BM25 fanout (spec/fanout.md) ------------------------------------------------------


def _fanout() -> Any:
    return _mod("reference.fanout")


@mutant(
    "fanout-raw-always-first",
    "FANOUT-13",
    "the raw query always opens the plan (as the Go SDK)",
    seams=("reference.fanout.plan_texts",),
)
def _fanout_raw_first() -> None:
    f = _fanout()
    original = f.plan_texts

    def plan_texts(raw: str, base: str) -> list[str]:
        texts: list[str] = original(raw, base)
        first = f.text.normalise(raw)
        return ([first] + [t for t in texts if t != first])[: f.vocabulary().max_queries]

    swap(f, "plan_texts", plan_texts)


@mutant(
    "fanout-cap-eight",
    "FANOUT-13",
    "the plan keeps up to eight texts (the Go SDK's cap)",
    seams=("reference.fanout.vocabulary",),
)
def _fanout_cap_eight() -> None:
    f = _fanout()
    v = f.vocabulary()
    set_attr(f, "vocabulary", lambda: replace(v, max_queries=8))


@mutant(
    "fanout-no-priority-plan",
    "FANOUT-13",
    "every plan is the general fanout",
    seams=("reference.fanout.priority_only",),
)
def _fanout_no_priority() -> None:
    set_attr(_fanout(), "priority_only", lambda query: False)


@mutant(
    "fanout-utf16-lengths",
    "FANOUT-4",
    "text lengths count UTF-16 units",
    seams=("reference.fanout.len",),
)
def _fanout_utf16() -> None:
    def utf16_len(value: Any) -> int:
        if isinstance(value, str):
            return builtins.len(value.encode("utf-16-le")) // 2
        return builtins.len(value)

    set_attr(_fanout(), "len", utf16_len)  # a module global shadows the builtin there


@mutant(
    "fanout-no-gate",
    "FANOUT-16",
    "every non-empty later answer joins the merge",
    seams=("reference.fanout.kept",),
)
def _fanout_no_gate() -> None:
    set_attr(_fanout(), "kept", lambda primary, expression, hits: True)


@mutant(
    "fanout-no-merge-cut",
    "FANOUT-20",
    "the merged list is not cut to candidateK",
    seams=("reference.fanout.merge",),
)
def _fanout_no_cut() -> None:
    f = _fanout()
    original = f.merge
    set_attr(f, "merge", lambda lists, candidate_k: original(lists, 1 << 30))


@mutant(
    "fanout-no-compiled-dedupe",
    "FANOUT-14",
    "a compiled expression already in the plan is searched again",
    seams=("reference.fanout.plan_expressions",),
)
def _fanout_no_dedupe() -> None:
    f = _fanout()

    def plan_expressions(
        raw: str, base: str, aliases: Any, stopword_list: str = "anchor"
    ) -> list[str]:
        probes = f.phrase_probes(raw)
        out: list[str] = []
        for item in f.plan_texts(raw, base):
            if item in probes and " " in item and '"' not in item:
                item = f'"{item}"'
            expression = f.compile_query(f.parse(item, aliases, stopword_list))
            if expression:
                out.append(expression)
        return out[:4]

    swap(f, "plan_expressions", plan_expressions)


@mutant(
    "fanout-phrase-not-quoted",
    "FANOUT-14",
    "a text equal to a phrase probe is compiled as bare words",
    seams=("reference.fanout.plan_expressions",),
)
def _fanout_not_quoted() -> None:
    f = _fanout()
    original = f.plan_expressions

    def plan_expressions(
        raw: str, base: str, aliases: Any, stopword_list: str = "anchor"
    ) -> list[str]:
        saved = f.phrase_probes
        set_attr(f, "phrase_probes", lambda query: [])
        try:
            result: list[str] = original(raw, base, aliases, stopword_list)
        finally:
            set_attr(f, "phrase_probes", saved)
        return result

    swap(f, "plan_expressions", plan_expressions)


@mutant(
    "fanout-temporal-rewrites",
    "FANOUT-15",
    "with the fanout the temporal profile still rewrites the query",
    seams=("reference.pipeline._Profiles.rewrite_query",),
)
def _fanout_temporal_rewrites() -> None:
    pipeline = _mod("reference.pipeline")
    original = pipeline._Profiles.rewrite_query

    def rewrite_query(self: Any, query: str, fanout: bool = False) -> str:
        result: str = original(self, query, False)
        return result

    set_attr(pipeline._Profiles, "rewrite_query", rewrite_query)


@mutant(
    "fanout-ladder-on-empty-primary",
    "FANOUT-18",
    "the ladder runs when the first query found nothing",
    seams=("reference.ladder._Walk.first_pass",),
)
def _fanout_ladder_on_primary() -> None:
    ladder = _mod("reference.ladder")
    original = ladder._Walk.first_pass

    def first_pass(self: Any, expressions: Any, search: Any) -> bool:
        stopped: bool = original(self, expressions, search)
        if stopped and self.error is None and self.passes and self.passes[0]["hits"] == 0:
            self.hits = []
            return False
        return stopped

    set_attr(ladder._Walk, "first_pass", first_pass)


@mutant(
    "fanout-rows-only-kept",
    "FANOUT-19",
    "firstPass counts 0 hits for an answer left out of the merge",
    seams=("reference.ladder._Walk.first_pass",),
)
def _fanout_rows_only_kept() -> None:
    f = _fanout()
    ladder = _mod("reference.ladder")
    original = ladder._Walk.first_pass

    def first_pass(self: Any, expressions: Any, search: Any) -> bool:
        answers: dict[str, list[Candidate]] = {}

        def recording(expression: str, limit: int) -> list[Candidate]:
            found: list[Candidate] = search(expression, limit)
            answers[expression] = list(found)[:limit]
            return found

        stopped: bool = original(self, expressions, recording)
        primary = answers.get(expressions[0], []) if expressions else []
        for row in self.passes or []:
            hits = answers.get(row["expression"], [])
            if row["expression"] != expressions[0] and not f.kept(primary, row["expression"], hits):
                row["hits"] = 0
        return stopped

    set_attr(ladder._Walk, "first_pass", first_pass)
