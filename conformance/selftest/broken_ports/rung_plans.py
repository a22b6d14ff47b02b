"""Broken ports of what a rung issues (LADDER-16), of rung 1's comparison with the query
(LADDER-9) and of the first pass's cap (FANOUT-21), registered on import."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from conformance.selftest.broken_ports.patching import _mod, mutant, set_attr, swap

# -- LADDER-16: one query per rung ---------------------------------------------------------------


def _edit_rows(edit: Callable[[list[dict[str, Any]]], None]) -> None:
    """Every search trace's attempt rows go through `edit(rows)` before it is returned."""
    pipe = _mod("reference.pipeline")
    original = pipe.search

    def search(request: Any, backends: Any) -> Any:
        results, trace = original(request, backends)
        edit(trace["bm25"]["attempts"])
        return results, trace

    swap(pipe, "search", search)


@mutant(
    "ladder-rung-plan-with-raw-query",
    "LADDER-16",
    "rungs 1, 3 and 4 run a plan, their own query and then the compiled query (two anchor SDKs)",
    seams=("reference.pipeline.search",),
)
def _ladder_rung_plan() -> None:
    planned = ("strongest_term", "refreshed_sanitised", "refreshed_strongest")

    def edit(rows: list[dict[str, Any]]) -> None:
        first = rows[0]["expression"] if rows else ""
        for row in rows:
            if row["searched"]:
                plan = [row["expression"]]
                if row["rung"] in planned and first:
                    plan.append(first)
                row["expressions"] = plan

    _edit_rows(edit)


@mutant(
    "ladder-skipped-row-lists-expression",
    "LADDER-16",
    "a row that did not search still lists its expression as issued",
    seams=("reference.pipeline.search",),
)
def _ladder_skipped_lists() -> None:
    def edit(rows: list[dict[str, Any]]) -> None:
        for row in rows:
            row["expressions"] = [row["expression"]]

    _edit_rows(edit)


# -- LADDER-9: rung 1 against the query ----------------------------------------------------------


def _rung_one_against(other: Callable[[str], str]) -> None:
    """Rung 1 is left out when its term equals `other(query)` instead of the folded query."""
    lad = _mod("reference.ladder")
    original = lad.plan_ladder

    def plan_ladder(
        query: str, aliases: Mapping[str, Sequence[str]] | None, sw: str = "anchor"
    ) -> Any:
        plan = original(query, aliases, sw)
        strongest = lad.query_strongest_term(query, sw)
        first = "" if strongest == other(query) else strongest
        return replace(plan, strongest_expression=lad._quoted(first))

    swap(lad, "plan_ladder", plan_ladder)


@mutant(
    "ladder-rung1-compared-with-raw-text",
    "LADDER-9",
    "rung 1 is compared with the raw query lowered and trimmed, before normalisation",
    seams=("reference.ladder.plan_ladder",),
)
def _ladder_rung1_raw() -> None:
    _rung_one_against(lambda query: query.lower().strip())


@mutant(
    "ladder-rung1-compared-with-sanitised",
    "LADDER-9",
    "rung 1 is compared with the sanitised query (punctuation and quotes gone)",
    seams=("reference.ladder.plan_ladder",),
)
def _ladder_rung1_sanitised() -> None:
    text = _mod("reference.text")
    _rung_one_against(lambda query: " ".join(text.words(query)))


@mutant(
    "ladder-rung1-compared-unlowered",
    "LADDER-9",
    "rung 1 is compared with the normalised query without lowercasing it",
    seams=("reference.ladder.plan_ladder",),
)
def _ladder_rung1_unlowered() -> None:
    text = _mod("reference.text")
    _rung_one_against(text.normalise)


# -- FANOUT-21: the first pass's cap -------------------------------------------------------------


@mutant(
    "fanout-first-pass-cap-five",
    "FANOUT-21",
    "the plan is cut after five texts, an off-by-one in the cut (`>` for `>=`)",
    seams=("reference.fanout.vocabulary",),
)
def _fanout_cap_five() -> None:
    f = _mod("reference.fanout")
    v = f.vocabulary()
    set_attr(f, "vocabulary", lambda: replace(v, max_queries=5))
