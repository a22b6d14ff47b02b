"""Broken ports of the query DSL's scan, parse output and sanitised form (spec/query-dsl.md)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from conformance.selftest.broken_ports.patching import _mod, mutant, set_attr, swap


def _rescan(rewrite: Callable[[str], str]) -> None:
    """Patch parse so that it scans `rewrite(normalised)`; operators stay those of the query."""
    p = _mod("reference.query.parse")
    text = _mod("reference.text")
    original = p.parse
    original_has = p.has_operators
    forced: list[bool] = []

    def has_operators(normalised: str) -> bool:
        return forced[-1] if forced else bool(original_has(normalised))

    def parse(
        query: str, aliases: Mapping[str, Sequence[str]] | None = None, sw: str = "anchor"
    ) -> Any:
        normalised = text.normalise(query)
        rewritten = rewrite(normalised)
        if rewritten == normalised:
            return original(query, aliases, sw)
        forced.append(bool(original_has(normalised)))
        try:
            return replace(original(rewritten, aliases, sw), normalised=normalised)
        finally:
            forced.pop()

    set_attr(p, "has_operators", has_operators)
    swap(p, "parse", parse)


@mutant(
    "dsl-lowercase-before-operators",
    "DSL-1",
    "the query is lowercased with the normalisation, before operators are detected, so `AND` "
    "is the filler `and` and `normalised` comes out lowercased",
    seams=("reference.query.parse.parse",),
)
def _dsl_lowercase_first() -> None:
    p = _mod("reference.query.parse")
    text = _mod("reference.text")
    original = p.parse

    def parse(
        query: str, aliases: Mapping[str, Sequence[str]] | None = None, sw: str = "anchor"
    ) -> Any:
        return original(text.lowercase(text.normalise(query)), aliases, sw)

    swap(p, "parse", parse)


def _word_to_space(normalised: str) -> str:
    """A bare word runs to the next space only: its `"` are strip-set characters (`'`)."""
    out: list[str] = []
    i, n = 0, len(normalised)
    while i < n:
        if normalised[i] == '"':
            end = normalised.find('"', i + 1)
            end = n if end < 0 else end + 1
            out.append(normalised[i:end])
        else:
            end = normalised.find(" ", i)
            end = n if end < 0 else end + 1
            out.append(normalised[i:end].replace('"', "'"))
        i = end
    return "".join(out)


@mutant(
    "dsl-word-runs-to-space",
    "DSL-3",
    'a bare word runs to the next space only, so a `"` inside it is stripped instead of '
    'opening a phrase (`foo"bar"` is the word `foobar`)',
    seams=("reference.query.parse.has_operators", "reference.query.parse.parse"),
)
def _dsl_word_to_space() -> None:
    _rescan(_word_to_space)


def _unterminated_as_words(normalised: str) -> str:
    """A `"` without a closing one is read as part of a bare word (a `"[^"]*"` regex)."""
    if normalised.count('"') % 2 == 0:
        return normalised
    last = normalised.rfind('"')
    return normalised[:last] + "'" + normalised[last + 1 :]


@mutant(
    "dsl-unterminated-phrase-as-words",
    "DSL-4",
    'an unterminated phrase is not a phrase: its `"` is stripped and its words are bare words',
    seams=("reference.query.parse.has_operators", "reference.query.parse.parse"),
)
def _dsl_unterminated() -> None:
    _rescan(_unterminated_as_words)


@mutant(
    "dsl-prefix-text-keeps-star",
    "DSL-15",
    "a prefix token's `text` keeps its trailing `*` in the parse output and the trace",
    seams=("reference.query.parse.Token.to_json",),
)
def _dsl_prefix_star() -> None:
    p = _mod("reference.query.parse")

    def to_json(self: Any) -> dict[str, Any]:
        shown = self.text + "*" if self.kind == "prefix" else self.text
        return {"kind": self.kind, "text": shown, "operator": self.operator}

    set_attr(p.Token, "to_json", to_json)


@mutant(
    "dsl-sanitised-not-expanded",
    "DSL-21",
    "the sanitised expression joins the kept words as they are, without alias expansion",
    seams=("reference.query.sanitise.sanitise",),
)
def _dsl_sanitise_unexpanded() -> None:
    s = _mod("reference.query.sanitise")
    original = s.sanitise

    def sanitise(query: str, aliases: Any = None, sw: str = "anchor") -> Any:
        out = original(query, aliases, sw)
        return s.Sanitised(
            out.tokens, s.join_tokens(s.expand_term(w, None, {})[0] for w in out.tokens)
        )

    swap(s, "sanitise", sanitise)


@mutant(
    "dsl-empty-expression-searched",
    "DSL-19",
    "an empty compiled expression is sent to the index like any other, so the initial row is "
    "a search with 0 hits instead of the `empty` skip",
    seams=("reference.ladder._Walk.fts",),
)
def _dsl_empty_searched() -> None:
    ladder = _mod("reference.ladder")
    original = ladder._Walk.fts

    def fts(self: Any, rung: str, expression: str, search: Any) -> bool:
        if expression == "" and rung == ladder.INITIAL:
            return bool(self.run(rung, expression, lambda: search(expression, self.k)))
        return bool(original(self, rung, expression, search))

    set_attr(ladder._Walk, "fts", fts)
