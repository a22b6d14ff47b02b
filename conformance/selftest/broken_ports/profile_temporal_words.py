"""Broken ports of profile temporal's data and rewrite (spec/profiles/temporal.md TEMPORAL-1,
TEMPORAL-3, TEMPORAL-4, TEMPORAL-16, TEMPORAL-19..21): the data file's words, the recognisers'
regex readings, the ordering note, the hints and the request option. Registered on import."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from conformance.selftest.broken_ports.patching import _mod, mutant, set_attr, set_hook, swap
from reference.types import InvalidInput

_REC = "reference.profiles.temporal.recognisers"
_EXP = "reference.profiles.temporal.expand"


def _patch_recognisers(transform: Callable[[Any], Any]) -> None:
    """Every reader of the data gets `transform(recognisers())` (a port's own copy of it)."""
    original = _mod(_REC).recognisers

    def recognisers() -> Any:
        return transform(original())

    for module in (_REC, _EXP):
        set_attr(_mod(module), "recognisers", recognisers)


def _recompile(name: str, edit: Callable[[str], str]) -> Callable[[Any], Any]:
    """A transform that rewrites recogniser `name`'s source with `edit` (same flags)."""

    def transform(r: Any) -> Any:
        patterns = tuple(
            (n, re.compile(edit(p.pattern), p.flags) if n == name or name == "*" else p)
            for n, p in r.patterns
        )
        return replace(r, patterns=patterns)

    return transform


@mutant(
    "temporal-always-enabled",
    "TEMPORAL-1",
    "the temporal rewrite runs on every search, so a request without the option traces "
    "profiles.temporal",
    seams=("reference.request._profiles",),
)
def _temporal_always_enabled() -> None:
    req = _mod("reference.request")
    options = _mod("reference.profiles.temporal.pipeline").Options
    original = req._profiles

    def profiles(raw: Any) -> dict[str, Any]:
        out = original(raw)
        out.setdefault("temporal", options(None))
        return out  # type: ignore[no-any-return]

    set_attr(req, "_profiles", profiles)


@mutant(
    "temporal-count-words-retyped",
    "TEMPORAL-3",
    "countWords retyped by hand, the last entry (twelve) missing",
    seams=(
        "reference.profiles.temporal.recognisers.recognisers",
        "reference.profiles.temporal.expand.recognisers",
    ),
)
def _temporal_count_words_retyped() -> None:
    def transform(r: Any) -> Any:
        words = {k: v for k, v in r.count_words.items() if k != "twelve"}
        return replace(r, count_words=words)

    _patch_recognisers(transform)


@mutant(
    "temporal-ordering-retyped",
    "TEMPORAL-3",
    "the ordering words retyped by hand, the last entry (last time) missing",
    seams=(
        "reference.profiles.temporal.recognisers.recognisers",
        "reference.profiles.temporal.expand.recognisers",
    ),
)
def _temporal_ordering_retyped() -> None:
    def transform(r: Any) -> Any:
        ordering = tuple(
            (tuple(w for w in words if w != "last time"), note) for words, note in r.ordering
        )
        return replace(r, ordering=ordering)

    _patch_recognisers(transform)


@mutant(
    "temporal-unicode-digits",
    "TEMPORAL-4",
    "relative_time keeps the anchor's \\d and \\b under Python's Unicode reading and int() reads "
    "the count: ٣ days ago is 3 days",
    seams=(
        "reference.profiles.temporal.recognisers.recognisers",
        "reference.profiles.temporal.expand.recognisers",
        "reference.profiles.temporal.expand._count",
    ),
)
def _temporal_unicode_digits() -> None:
    def edit(source: str) -> str:
        return source.replace("[0-9]", r"(?u:\d)").replace(r"\b", r"(?u:\b)")

    _patch_recognisers(_recompile("relative_time", edit))
    exp = _mod(_EXP)
    original = exp._count

    def count(word: str) -> int | None:
        return int(word) if word.isdigit() else original(word)

    set_attr(exp, "_count", count)


@mutant(
    "temporal-unicode-word-boundary",
    "TEMPORAL-4",
    "\\b read as Unicode (Python without re.ASCII, Java): no boundary between yesterday and の",
    seams=(
        "reference.profiles.temporal.recognisers.recognisers",
        "reference.profiles.temporal.expand.recognisers",
    ),
)
def _temporal_unicode_boundary() -> None:
    _patch_recognisers(_recompile("*", lambda s: s.replace(r"\b", r"(?u:\b)")))


@mutant(
    "temporal-last-weekday-bounded",
    "TEMPORAL-4",
    "last_weekday written with \\b at both ends (the anchor's literal has none): blast friday "
    "and last mondays stay",
    seams=(
        "reference.profiles.temporal.recognisers.recognisers",
        "reference.profiles.temporal.expand.recognisers",
    ),
)
def _temporal_weekday_bounded() -> None:
    _patch_recognisers(_recompile("last_weekday", lambda s: rf"\b{s}\b"))


@mutant(
    "temporal-nfkc",
    "TEMPORAL-14",
    "the query is normalised with NFKC, not NFC: ３ is 3, ﬁ is fi, full-width letters are ASCII",
    seams=("reference.profiles.temporal.expand._normalise",),
)
def _temporal_nfkc() -> None:
    import unicodedata

    text = _mod("reference.text")
    set_attr(
        _mod(_EXP), "_normalise", lambda s: text.normalise(unicodedata.normalize("NFKC", s))
    )


@mutant(
    "temporal-unresolved-normalised",
    "TEMPORAL-5",
    "the query is normalised before the anchor is read, so an unresolved output returns the "
    "normalised query",
    seams=("reference.profiles.temporal.expand.expand",),
)
def _temporal_unresolved_normalised() -> None:
    exp = _mod(_EXP)
    original = exp.expand

    def expand(query: str, question_date: str | None) -> Any:
        return original(exp._normalise(query), question_date)

    swap(exp, "expand", expand)


@mutant(
    "temporal-augmented-from-raw-query",
    "TEMPORAL-20",
    "augmentedQuery appends the date tokens to the raw query, not the normalised one",
    seams=("reference.profiles.temporal.expand.expand",),
)
def _temporal_augmented_raw() -> None:
    exp = _mod(_EXP)
    original = exp.expand

    def expand(query: str, question_date: str | None) -> Any:
        e = original(query, question_date)
        if not e.resolved:
            return e
        tokens = e.augmented_query[len(exp._normalise(query)) :]
        return replace(e, augmented_query=query + tokens)

    swap(exp, "expand", expand)


@mutant(
    "temporal-recognisers-by-name",
    "TEMPORAL-17",
    "the recognisers run in name order (kept in a map, then sorted), not the data file's "
    "order, so the hints come out in another order",
    seams=(
        "reference.profiles.temporal.recognisers.recognisers",
        "reference.profiles.temporal.expand.recognisers",
    ),
)
def _temporal_recognisers_by_name() -> None:
    _patch_recognisers(lambda r: replace(r, patterns=tuple(sorted(r.patterns))))


@mutant(
    "temporal-count-base-prefix",
    "TEMPORAL-16",
    "the count is parsed with base prefixes (Go strconv.ParseInt(s, 0, 64)): 010 is octal 8, "
    "09 an error",
    seams=("reference.profiles.temporal.expand._count",),
)
def _temporal_count_base_prefix() -> None:
    exp = _mod(_EXP)
    original = exp._count

    def count(word: str) -> int | None:
        if word.isascii() and word.isdigit() and len(word) > 1 and word.startswith("0"):
            try:
                return int(word, 8)
            except ValueError:
                return None
        return original(word)  # type: ignore[no-any-return]

    set_attr(exp, "_count", count)


@mutant(
    "temporal-ordering-whole-word",
    "TEMPORAL-19",
    "ordering words matched as whole words (\\bfirst\\b), not substrings: beforehand, firstly "
    "give no note",
    seams=("reference.profiles.temporal.expand._ordering_note",),
)
def _temporal_ordering_whole_word() -> None:
    exp = _mod(_EXP)

    def ordering_note(s: str) -> str | None:
        lowered = exp.ascii_lower(s)
        for words, note in exp.recognisers().ordering:
            if any(re.search(rf"\b{re.escape(w)}\b", lowered, re.ASCII) for w in words):
                return str(note)
        return None

    set_attr(exp, "_ordering_note", ordering_note)


@mutant(
    "temporal-ordering-on-raw-query",
    "TEMPORAL-19",
    "the ordering words are looked for in the raw query, not the normalised rewritten one",
    seams=("reference.profiles.temporal.expand.expand",),
)
def _temporal_ordering_raw() -> None:
    exp = _mod(_EXP)
    original_note = exp._ordering_note
    original = exp.expand

    def expand(query: str, question_date: str | None) -> Any:
        e = original(query, question_date)
        if not e.resolved:
            return e
        base = e.expanded_query
        note = original_note(base)
        if note is not None:
            base = base[: -len(note) - 1]
        raw = original_note(query)
        return replace(e, expanded_query=base if raw is None else f"{base} {raw}")

    swap(exp, "expand", expand)


@mutant(
    "temporal-hints-sorted",
    "TEMPORAL-20",
    "the hints are deduplicated and then sorted by date (Go map keys + sort), not kept in "
    "first-occurrence order",
    seams=("reference.profiles.temporal.expand._dedupe",),
)
def _temporal_hints_sorted() -> None:
    def dedupe(items: list[str]) -> list[str]:
        firsts = list(dict.fromkeys(items))
        return sorted(firsts, key=lambda t: t.strip('"').replace("-", "/"))

    set_attr(_mod(_EXP), "_dedupe", dedupe)


@mutant(
    "temporal-request-null-rejected",
    "TEMPORAL-21",
    "request.profiles.temporal.questionDate null is invalid_input (a strict string check), "
    "not absent",
    seams=("reference.profiles.temporal.pipeline.PIPELINE.parse_request",),
)
def _temporal_request_null() -> None:
    pipe = _mod("reference.profiles.temporal.pipeline")
    original = pipe.parse_request

    def parse_request(obj: Any) -> Any:
        if "questionDate" in obj and obj["questionDate"] is None:
            raise InvalidInput("request.profiles.temporal.questionDate must be a string")
        return original(obj)

    set_hook(pipe, "parse_request", parse_request)


@mutant(
    "temporal-vector-leg-unrewritten",
    "TEMPORAL-21",
    "only the BM25 leg searches the augmented query; the vector leg embeds the query as typed",
    seams=(
        "reference.profiles.temporal.pipeline.PIPELINE.rewrite_query",
        "reference.profiles.temporal.pipeline.PIPELINE.vector_query",
    ),
)
def _temporal_vector_unrewritten() -> None:
    pipe = _mod("reference.profiles.temporal.pipeline")
    text = _mod("reference.text")
    original = pipe.PIPELINE.rewrite_query
    typed: list[tuple[Any, str]] = []  # (call, query), the call held: compared by identity

    def rewrite(call: Any, query: str) -> str:
        typed[:] = [(call, query)]
        return str(original(call, query))

    def vector_query(call: Any, query: str) -> str:
        held = [q for c, q in typed if c is call]
        return str(text.normalise(held[0] if held else query))

    set_hook(pipe, "rewrite_query", rewrite)
    set_hook(pipe, "vector_query", vector_query)
