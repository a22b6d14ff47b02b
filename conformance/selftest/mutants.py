"""Deliberately broken ports: realistic porting mistakes, each applied to the reference in-process.

A mutant is a name, the spec clause it violates, a one-line description of the mistake and a
function that monkeypatches the reference modules. `activate(name)` imports every reference
module first, so that a patched function can be rebound wherever another module imported it
by name (`from reference.rrf import fuse`). Mutants never restore what they patch: they run in
their own adapter process (`python -m conformance.selftest.mutant_adapter NAME`).

Each mutant should be killed by at least one golden case; `hrc selftest mutants` checks that.
Mistakes that no input can reveal (equivalent mutants) are not registered; they are listed in
benchmarks/mutation/README.md with the reason.
"""

from __future__ import annotations

import builtins
import copy
import importlib
import math
import pkgutil
import re
import struct
import sys
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from types import ModuleType, SimpleNamespace
from typing import Any

#: Modules whose names a mutant may rebind (the reference and the reference adapter's handlers).
_PATCHABLE = ("reference", "conformance.ops")


@dataclass(frozen=True)
class Mutant:
    """One broken port: what is wrong, which clause it breaks, and how to break the reference."""

    name: str
    clause: str
    description: str
    apply: Callable[[], None]


MUTANTS: dict[str, Mutant] = {}


Patch = Callable[[], None]


def mutant(name: str, clause: str, description: str) -> Callable[[Patch], Patch]:
    """Register the decorated function as the patch of mutant `name`."""

    def register(fn: Patch) -> Patch:
        if name in MUTANTS:
            raise RuntimeError(f"mutant {name!r} registered twice")
        MUTANTS[name] = Mutant(name, clause, description, fn)
        return fn

    return register


# -- patching helpers --------------------------------------------------------------------------


def load_reference() -> None:
    """Import every reference module and every reference handler, so all bindings exist."""
    import reference
    from conformance.ops import registry

    for info in pkgutil.walk_packages(reference.__path__, "reference."):
        importlib.import_module(info.name)
    registry()


def swap(module: ModuleType, name: str, new: object) -> Any:
    """Replace `module.name` by `new` everywhere the reference bound that same object.

    Returns the original, for wrappers. Only for functions and classes: identity is what finds
    the other bindings (`from reference.text import normalise` in another module).
    """
    old = getattr(module, name)
    for mod in list(sys.modules.values()):
        if not isinstance(mod, ModuleType) or not mod.__name__.startswith(_PATCHABLE):
            continue
        for attr, value in list(vars(mod).items()):
            if value is old:
                setattr(mod, attr, new)
    return old


def set_attr(owner: object, name: str, new: object) -> Any:
    """Set one attribute (a method, a module global) and nothing else; returns the old value."""
    old = getattr(owner, name, None)
    setattr(owner, name, new)
    return old


def _clear_caches() -> None:
    """Drop cached tables built before the patch (they may hold compiled patterns), and the
    discovered profiles, which hold each profile's hooks as they were before the patch."""
    from reference import intent, profiles
    from reference.query import stopwords

    for cached in (intent.table, stopwords.stopword_set, profiles._discover):
        clear = getattr(cached, "cache_clear", None)
        if clear is not None:
            clear()


def activate(name: str) -> Mutant:
    """Load the reference, apply mutant `name` and return it; KeyError for an unknown name."""
    chosen = MUTANTS[name]
    load_reference()
    chosen.apply()
    _clear_caches()
    return chosen


def _mod(name: str) -> ModuleType:
    return importlib.import_module(name)


# -- portability (TEXT) ------------------------------------------------------------------------


@mutant("text-zero-width-kept", "TEXT-1", "zero-width characters are not deleted")
def _text_zero_width_kept() -> None:
    swap(_mod("reference.text"), "strip_zero_width", lambda text: text)


@mutant(
    "text-zero-width-before-nfc",
    "TEXT-3",
    "zero-width deletion runs before NFC (kit 2.x), so e U+200B U+0301 composes to é",
)
def _text_zero_width_first() -> None:
    t = _mod("reference.text")

    def normalise(text: str) -> str:
        cleaned = t.nfc(t.controls_to_space(t.strip_zero_width(text)))
        return " ".join(t.split_whitespace(cleaned))

    swap(t, "normalise", normalise)


@mutant(
    "text-zero-width-deletes-word-joiner",
    "TEXT-1",
    "U+2060 WORD JOINER is deleted as zero-width (kit 2.x), which the anchor's set keeps",
)
def _text_zero_width_2060() -> None:
    t = _mod("reference.text")
    swap(t, "ZERO_WIDTH", t.ZERO_WIDTH | {"\u2060"})


@mutant("text-controls-kept", "TEXT-2", "control characters are kept instead of becoming spaces")
def _text_controls_kept() -> None:
    swap(_mod("reference.text"), "controls_to_space", lambda text: text)


@mutant("text-nfc-missing", "TEXT-3", "text is never put in NFC")
def _text_nfc_missing() -> None:
    swap(_mod("reference.text"), "nfc", lambda text: text)


@mutant(
    "text-whitespace-ascii",
    "TEXT-4",
    "whitespace is ASCII only (Java/Go \\s): NBSP and U+3000 do not split words",
)
def _text_whitespace_ascii() -> None:
    set_attr(_mod("reference.text"), "WHITESPACE", frozenset("\t\n\x0b\x0c\r "))


@mutant(
    "text-lowercase-go",
    "TEXT-5",
    "Go strings.ToLower: per-rune mapping, İ becomes i and no final sigma",
)
def _text_lowercase_go() -> None:
    def lowercase(text: str) -> str:
        return "".join("i" if ch == "\u0130" else ch.lower() for ch in text)

    swap(_mod("reference.text"), "lowercase", lowercase)


@mutant(
    "text-punct-runtime-tables",
    "TEXT-6",
    "P∪S comes from a newer runtime (Unicode 15/16), not the shipped 14.0 table",
)
def _text_punct_runtime() -> None:
    newer = frozenset("\U0001fae9\U0001faf7\U0001f6dc\U0001fa76")
    t = _mod("reference.text")
    original = t.is_punct_symbol
    swap(t, "is_punct_symbol", lambda ch: ch in newer or original(ch))


@mutant("text-length-utf16", "TEXT-8", "lengths count UTF-16 code units (JavaScript .length)")
def _text_length_utf16() -> None:
    swap(_mod("reference.text"), "length", lambda text: len(text.encode("utf-16-le")) // 2)


@mutant(
    "text-sort-utf16",
    "TEXT-9",
    "strings compare by UTF-16 code units (JavaScript sort, Java compareTo)",
)
def _text_sort_utf16() -> None:
    def key(text: str) -> tuple[int, ...]:
        data = text.encode("utf-16-be")
        return tuple(int.from_bytes(data[i : i + 2], "big") for i in range(0, len(data), 2))

    swap(_mod("reference.text"), "codepoint_key", key)


@mutant(
    "text-sort-collation",
    "TEXT-9",
    "strings compare with a collator (localeCompare): case and accents folded first",
)
def _text_sort_collation() -> None:
    def key(text: str) -> tuple[Any, ...]:
        base = unicodedata.normalize("NFD", text.casefold())
        stripped = "".join(ch for ch in base if not unicodedata.combining(ch))
        return (tuple(ord(c) for c in stripped), tuple(ord(c) for c in text))

    swap(_mod("reference.text"), "codepoint_key", key)


# -- query DSL (DSL) ---------------------------------------------------------------------------


@mutant("dsl-not-as-and-not", "DSL-17", "NOT compiles to `AND NOT`, which FTS5 rejects")
def _dsl_and_not() -> None:
    c = _mod("reference.query.compile")

    def join_tokens(tokens: Iterable[Any]) -> str:
        pieces: list[str] = []
        for token in tokens:
            if pieces:
                op = token.operator or c.DEFAULT_OPERATOR
                pieces.append("AND NOT" if op == "NOT" else op)
            pieces.append(c.render_token(token))
        return " ".join(pieces)

    swap(c, "join_tokens", join_tokens)


@mutant("dsl-unquoted-barewords", "DSL-16", "plain terms are emitted as FTS5 barewords, unquoted")
def _dsl_barewords() -> None:
    c = _mod("reference.query.compile")
    original = c.render_token

    def render_token(token: Any) -> str:
        if token.kind == "term":
            return str(token.text)
        return str(original(token))

    swap(c, "render_token", render_token)


@mutant(
    "dsl-phrases-unquoted",
    "DSL-16",
    "phrases are emitted as their bare words, so they lose word order and `:` or `^` inside "
    "one reaches FTS5 as syntax",
)
def _dsl_phrases_bare() -> None:
    c = _mod("reference.query.compile")
    original = c.render_token

    def render_token(token: Any) -> str:
        if token.kind == "phrase":
            return str(token.text)
        return str(original(token))

    swap(c, "render_token", render_token)


@mutant("dsl-prefix-without-star", "DSL-16", "a prefix token is rendered as a plain string")
def _dsl_prefix_no_star() -> None:
    c = _mod("reference.query.compile")
    original = c.render_token

    def render_token(token: Any) -> str:
        if token.kind == "prefix":
            return str(c.fts_quote(token.text))
        return str(original(token))

    swap(c, "render_token", render_token)


@mutant(
    "dsl-left-to-right",
    "DSL-18",
    "operators apply left to right (everything before an operator is parenthesised)",
)
def _dsl_left_to_right() -> None:
    c = _mod("reference.query.compile")

    def join_tokens(tokens: Iterable[Any]) -> str:
        out = ""
        for token in tokens:
            rendered = c.render_token(token)
            if not out:
                out = rendered
            else:
                out = f"({out}) {token.operator or c.DEFAULT_OPERATOR} {rendered}"
        return out

    swap(c, "join_tokens", join_tokens)


@mutant(
    "fts5-respelled-plain-terms",
    "DSL-23",
    "a port that only respells: plain terms are FTS5 barewords everywhere (`kubernetes OR "
    "setup`); it means the same, so only the canonical-fts5 cases (and the scripted index, "
    "keyed by spelling) see it",
)
def _fts5_respelled() -> None:
    c = _mod("reference.query.compile")
    lad = _mod("reference.ladder")
    original = c.render_token

    def render_token(token: Any) -> str:
        if token.kind == "term":
            return str(token.text)
        return str(original(token))

    swap(c, "render_token", render_token)
    set_attr(lad, "_quoted", lambda term: str(term))
    set_attr(_mod("reference.backends.scripted"), "LOOKUP_BY_MEANING", True)  # BACKEND-36


@mutant(
    "dsl-alias-group-kept",
    "DSL-14",
    "an alias expands to a parenthesised group that keeps the original term (kit 2.x, D16)",
)
def _dsl_alias_group() -> None:
    p = _mod("reference.query.parse")
    a = _mod("reference.query.aliases")
    c = _mod("reference.query.compile")
    render = c.render_token

    @dataclass(frozen=True)
    class Group(p.Token):  # type: ignore[misc,name-defined]
        members: tuple[tuple[str, str], ...] = ()

        def to_json(self) -> dict[str, Any]:
            return {"kind": "group", "text": self.text, "operator": self.operator,
                    "members": [{"kind": k, "text": t} for k, t in self.members]}

    def expand_term(term: str, operator: str | None, table: Mapping[str, Sequence[str]]) -> Any:
        if term not in table:
            return (p.Token("term", term, operator),)
        members = [("term", term)]
        for alt in table[term]:
            m = a.alternative_member(alt)
            if m is not None and m not in members:
                members.append(m)
        if len(members) < 2:
            return (p.Token("term", term, operator),)
        return (Group("group", term, operator, tuple(members)),)

    def render_token(token: Any) -> str:
        if token.kind == "group":
            members = getattr(token, "members", ()) or (("term", token.text),)
            return "(" + " OR ".join(c.fts_quote(t) for _, t in members) + ")"
        return str(render(token))

    swap(p, "expand_term", expand_term)
    swap(c, "render_token", render_token)


@mutant(
    "dsl-stopwords-despite-operators",
    "DSL-9",
    "stopwords are dropped even when the query has operators",
)
def _dsl_stopwords_always() -> None:
    p = _mod("reference.query.parse")
    original = p.parse

    def parse(
        query: str, aliases: Mapping[str, Sequence[str]] | None = None, sw: str = "anchor"
    ) -> Any:
        parsed = original(query, aliases, sw)
        if not parsed.has_operators:
            return parsed
        kept = [t for t in parsed.tokens if not (t.kind == "term" and p.is_stopword(t.text, sw))]
        if kept and kept[0].operator is not None:
            kept[0] = replace(kept[0], operator=None)
        return replace(parsed, tokens=tuple(kept))

    swap(p, "parse", parse)


@mutant(
    "dsl-aliases-before-stopwords",
    "DSL-13",
    "alias keys are looked up before stopword filtering, so short keys such as `ml` fire "
    "(kit 2.x, D16)",
)
def _dsl_aliases_early() -> None:
    p = _mod("reference.query.parse")
    s = _mod("reference.query.sanitise")
    a = _mod("reference.query.aliases")
    stop = _mod("reference.query.stopwords")
    parse, sanitise, filtered = p.parse, s.sanitise, stop.is_filtered
    keys: set[str] = set()

    def is_filtered(word: str, sw: str = "anchor") -> bool:
        return word not in keys and bool(filtered(word, sw))

    def early_parse(query: str, aliases: Any = None, sw: str = "anchor") -> Any:
        keys.clear()
        keys.update(a.validate_aliases(aliases))
        try:
            return parse(query, aliases, sw)
        finally:
            keys.clear()

    def early_sanitise(query: str, aliases: Any = None, sw: str = "anchor") -> Any:
        keys.clear()
        keys.update(a.validate_aliases(aliases))
        try:
            return sanitise(query, aliases, sw)
        finally:
            keys.clear()

    swap(stop, "is_filtered", is_filtered)
    swap(p, "parse", early_parse)
    swap(s, "sanitise", early_sanitise)


@mutant(
    "dsl-prefixes-never-filtered",
    "DSL-9",
    "prefix tokens are never stopwords, so `js*` survives a bare query (kit 2.x)",
)
def _dsl_prefixes_kept() -> None:
    swap(_mod("reference.query.parse"), "drops_prefix", lambda word, sw="anchor": False)


@mutant(
    "dsl-lowercase-not-kept",
    "DSL-9",
    "lowercase and/or/not are dropped only when a list has them, so `not` stays (kit 2.x)",
)
def _dsl_filler_kept() -> None:
    set_attr(_mod("reference.query.stopwords"), "FILLER_WORDS", frozenset())


@mutant(
    "dsl-lowercase-before-strip",
    "DSL-8",
    "bare words are lowercased before stripping, so ΟΔΟΣ-Α keeps a final sigma",
)
def _dsl_lower_first() -> None:
    p = _mod("reference.query.parse")
    text = _mod("reference.text")
    original = p.strip_word
    swap(p, "strip_word", lambda word: original(text.lowercase(word)))


@mutant(
    "dsl-operators-any-case",
    "DSL-2",
    "and/or/not in any case are read as operators",
)
def _dsl_operators_any_case() -> None:
    class AnyCase(frozenset[str]):
        def __contains__(self, item: object) -> bool:
            return isinstance(item, str) and frozenset.__contains__(self, item.upper())

    set_attr(_mod("reference.query.parse"), "OPERATORS", AnyCase({"AND", "OR", "NOT"}))


@mutant(
    "dsl-strip-unicode-punctuation",
    "DSL-7",
    "bare words lose every Unicode P∪S character, not only the ASCII strip set",
)
def _dsl_strip_unicode() -> None:
    p = _mod("reference.query.parse")
    text = _mod("reference.text")

    def strip_word(word: str) -> str:
        return "".join(ch for ch in word if ch not in p.STRIP_SET and not text.is_punct_symbol(ch))

    swap(p, "strip_word", strip_word)


@mutant("dsl-stopwords-english-only", "DSL-11", "only the `en` stopword list is loaded")
def _dsl_english_only() -> None:
    stop = _mod("reference.query.stopwords")
    data = _mod("reference.data")

    def stopword_set(name: str = "anchor") -> frozenset[str]:
        return frozenset(data.load_json(stop.LIST_FILES[name])["en"])

    set_attr(stop, "stopword_set", stopword_set)


@mutant(
    "dsl-stopwords-hrc-list-as-default",
    "DSL-22",
    "the default stopword list is still hrc 1.0's (stale spec/data, or the old file retyped)",
)
def _dsl_hrc_default() -> None:
    stop = _mod("reference.query.stopwords")
    set_attr(stop, "LIST_FILES", {**stop.LIST_FILES, "anchor": stop.LIST_FILES["hrc-1.0"]})


@mutant(
    "dsl-stopword-list-ignored",
    "DSL-22",
    "the stopwordList input is validated but every stage filters with the default list",
)
def _dsl_list_ignored() -> None:
    stop = _mod("reference.query.stopwords")
    original = stop.is_stopword
    swap(stop, "is_stopword", lambda word, sw="anchor": original(word))


@mutant(
    "dsl-stopword-list-unknown-is-default",
    "DSL-22",
    "an unknown stopwordList silently means the default list",
)
def _dsl_list_lenient() -> None:
    stop = _mod("reference.query.stopwords")
    original = stop.check_list

    def check_list(name: object) -> str:
        try:
            return str(original(name))
        except Exception:
            return str(stop.DEFAULT_LIST)

    swap(stop, "check_list", check_list)


@mutant(
    "ladder-rungs-ignore-stopword-list",
    "DSL-22",
    "the request's stopwordList reaches the parse but not the strongest and sanitised rungs",
)
def _ladder_list_dropped() -> None:
    lad = _mod("reference.ladder")
    original = lad.plan_ladder

    def plan_ladder(query: str, aliases: Any, sw: str = "anchor") -> Any:
        initial = original(query, aliases, sw).initial_expression
        return replace(original(query, aliases), initial_expression=initial)

    swap(lad, "plan_ladder", plan_ladder)


@mutant(
    "dsl-alias-keys-unfolded",
    "DSL-12",
    "alias keys are used as given, so `K8s` never matches the folded term `k8s`",
)
def _dsl_alias_keys_unfolded() -> None:
    a = _mod("reference.query.aliases")
    text = _mod("reference.text")
    original = a.validate_aliases

    def validate_aliases(obj: object) -> dict[str, list[str]]:
        original(obj)  # same rejections
        if not isinstance(obj, Mapping):
            return {}
        return {str(k): [text.fold(alt) for alt in v] for k, v in obj.items()}

    swap(a, "validate_aliases", validate_aliases)


# -- RRF ---------------------------------------------------------------------------------------


@mutant("rrf-rank-one-based", "RRF-2", "ranks count from 1: the top item scores 1/(k+2)")
def _rrf_one_based() -> None:
    swap(_mod("reference.rrf"), "contribution", lambda w, k, rank: w / float(k + rank + 2))


@mutant(
    "rrf-ties-insertion-order",
    "RRF-8",
    "equal scores keep insertion order (stable sort) instead of path, then id",
)
def _rrf_insertion_ties() -> None:
    r = _mod("reference.rrf")
    swap(r, "order", lambda fused: sorted(fused, key=lambda item: -item.score))


def _rrf_sum_list_order() -> None:
    def canonical_sum(contributions: Sequence[float]) -> float:
        total = 0.0
        for value in contributions:
            total += value
        return total

    swap(_mod("reference.rrf"), "canonical_sum", canonical_sum)


def _exact_sums(lists: Sequence[Any], k: int) -> dict[str, Fraction]:
    """Σ exact(w) / (k + r + 1) over first occurrences per list: the 2.x exact score."""
    sums: dict[str, Fraction] = {}
    for ranked in lists:
        if ranked.weight == 0:
            continue
        seen: set[str] = set()
        for rank, cand in enumerate(ranked.items):
            if cand.id not in seen:
                seen.add(cand.id)
                sums[cand.id] = sums.get(cand.id, Fraction(0)) + Fraction(ranked.weight) / (
                    k + rank + 1
                )
    return sums


@mutant(
    "rrf-order-by-exact-sum",
    "RRF-6",
    "the list is ordered by the exact rational sum, not the emitted float (the 2.x reading, D1)",
)
def _rrf_order_exact() -> None:
    r = _mod("reference.rrf")
    original = r.fuse

    def fuse(lists: Sequence[Any], k: int = r.DEFAULT_K) -> list[Any]:
        fused = original(lists, k)
        exact = _exact_sums(lists, r.check_k(k))
        exact_of = {f.id: exact.get(f.id, Fraction(0)) for f in fused}
        return sorted(fused, key=lambda f: (-exact_of[f.id], f.candidate.path, f.id))

    swap(r, "fuse", fuse)


@mutant(
    "rrf-naive-float",
    "RRF-7",
    "the naive port: float sums in list order, equal floats in insertion order",
)
def _rrf_naive() -> None:
    _rrf_sum_list_order()
    _rrf_insertion_ties()


@mutant(
    "rrf-zero-weight-adds-candidates",
    "RRF-3",
    "a weight-0 list still adds its candidates (with nothing to their score)",
)
def _rrf_zero_weight() -> None:
    r = _mod("reference.rrf")
    original = r.fuse

    def fuse(lists: Sequence[Any], k: int = r.DEFAULT_K) -> list[Any]:
        fused = original(lists, k)
        seen = {f.id for f in fused}
        for ranked in lists:
            if ranked.weight != 0:
                continue
            for cand in ranked.items:
                if cand.id not in seen:
                    seen.add(cand.id)
                    fused.append(r.Fused(candidate=cand, score=0.0))
        return list(r.order(fused))

    swap(r, "fuse", fuse)


@mutant(
    "rrf-duplicates-compacted",
    "RRF-4",
    "repeated ids are removed from a list first, so later items move up a rank",
)
def _rrf_compacted() -> None:
    r = _mod("reference.rrf")
    original = r.fuse

    def fuse(lists: Sequence[Any], k: int = r.DEFAULT_K) -> list[Any]:
        compact = []
        for ranked in lists:
            firsts = {c.id: c for c in reversed(ranked.items)}
            items = tuple(c for c in ranked.items if firsts.get(c.id) is c)
            compact.append(replace(ranked, items=items))
        return list(original(compact, k))

    swap(r, "fuse", fuse)


_PLACEHOLDER = "\u0000repeat-"


@mutant(
    "rrf-duplicates-counted-once",
    "RRF-4",
    "a repeated id counts only at its first occurrence in a list, later ones ignored but "
    "keeping their positions (the 2.x reading)",
)
def _rrf_counted_once() -> None:
    r = _mod("reference.rrf")
    types = _mod("reference.types")
    original = r.fuse

    def fuse(lists: Sequence[Any], k: int = r.DEFAULT_K) -> list[Any]:
        # A later occurrence becomes a unique placeholder (it keeps the position, adds nothing
        # to its id) and placeholders are dropped from the output.
        masked = []
        n = 0
        for ranked in lists:
            seen: set[str] = set()
            items = []
            for cand in ranked.items:
                if cand.id in seen:
                    n += 1
                    cand = types.Candidate(id=f"{_PLACEHOLDER}{n}", path="")
                seen.add(cand.id)
                items.append(cand)
            masked.append(replace(ranked, items=tuple(items)))
        return [f for f in original(masked, k) if not f.id.startswith(_PLACEHOLDER)]

    swap(r, "fuse", fuse)


@mutant(
    "rrf-merge-best-rank",
    "RRF-10",
    "each text field and metadata key comes from the best-ranked occurrence, equal ranks by "
    "the smallest value (the 2.x reading, D4), not the first sighting",
)
def _rrf_best_rank_merge() -> None:
    r = _mod("reference.rrf")
    types = _mod("reference.types")
    text = _mod("reference.text")

    def best(values: Sequence[tuple[int, str]]) -> str:
        present = [(rank, text.codepoint_key(v), v) for rank, v in values if v != ""]
        return min(present)[2] if present else ""

    def filled(occurrences: Sequence[tuple[int, Any]]) -> Any:
        first = occurrences[0][1]
        texts = {
            name: best([(rank, getattr(c, name)) for rank, c in occurrences])
            for name in r.TEXT_FIELDS
        }
        keys = {key for _, c in occurrences for key in c.metadata}
        metadata = {
            key: best([(rank, c.metadata[key]) for rank, c in occurrences if key in c.metadata])
            for key in keys
        }
        return types.Candidate(id=first.id, metadata=metadata, **texts)

    swap(r, "_filled", filled)


@mutant(
    "rrf-k-zero-rejected", "RRF-1", "k <= 0 is invalid_input (the 2.x reading), not the default"
)
def _rrf_k_rejected() -> None:
    r = _mod("reference.rrf")
    original = r.check_k

    def check_k(k: object) -> int:
        if isinstance(k, int | float) and not isinstance(k, bool) and k <= 0:
            raise r.InvalidInput(f"k must be >= 1, got {k!r}")
        return int(original(k))

    swap(r, "check_k", check_k)


@mutant(
    "pipe-integers-zero-rejected",
    "PIPE-13",
    "a request integer <= 0 (topK, candidateK, rerankTopN, rrfK) is invalid_input (2.x)",
)
def _pipe_integers_rejected() -> None:
    req = _mod("reference.request")
    types = _mod("reference.types")

    def positive_int(obj: Mapping[str, Any], name: str) -> int:
        value = types.optional(obj, name, req.DEFAULTS[name])
        return int(types.whole_number(value, f"request.{name}"))

    set_attr(req, "_positive_int", positive_int)


# -- ladder and strongest term (LADDER) --------------------------------------------------------


@mutant("ladder-force-refresh-row-dropped", "LADDER-5", "the no-op force-refresh rung emits no row")
def _ladder_no_force_refresh() -> None:
    walk = _mod("reference.ladder")._Walk
    original = walk.skip

    def skip(self: Any, rung: str, expression: str, reason: str) -> None:
        if reason != "no_op":
            original(self, rung, expression, reason)

    set_attr(walk, "skip", skip)


@mutant(
    "ladder-vacuous-rungs-emit-rows",
    "LADDER-3",
    "rungs with nothing to search emit an `empty` row instead of no row (kit 2.x, D6)",
)
def _ladder_vacuous_rows() -> None:
    lad = _mod("reference.ladder")
    original = lad._Walk.fts

    def fts(self: Any, rung: str, expression: str, search: Any) -> bool:
        if expression == "" and rung != lad.INITIAL:
            self.skip(rung, expression, lad.SKIP_EMPTY)
            return False
        return bool(original(self, rung, expression, search))

    set_attr(lad._Walk, "fts", fts)


@mutant(
    "ladder-error-read-as-zero-hits",
    "LADDER-14",
    "an index error counts as zero hits, so the ladder walks on",
)
def _ladder_error_zero() -> None:
    lad = _mod("reference.ladder")
    original = lad._Walk.run

    def run(self: Any, rung: str, expression: str, call: Callable[[], list[Any]]) -> bool:
        def swallowed() -> list[Any]:
            try:
                return call()
            except lad.IndexError_:
                return []

        return bool(original(self, rung, expression, swallowed))

    set_attr(lad._Walk, "run", run)


@mutant(
    "ladder-continues-after-hit",
    "LADDER-2",
    "the walk goes on after a rung with hits (keeping the first hits)",
)
def _ladder_continues() -> None:
    walk = _mod("reference.ladder")._Walk
    original = walk.run

    def run(self: Any, rung: str, expression: str, call: Callable[[], list[Any]]) -> bool:
        kept = self.hits
        stop = original(self, rung, expression, call)
        if kept:
            self.hits = kept
        return bool(stop and self.error is not None)

    set_attr(walk, "run", run)


@mutant(
    "ladder-duplicates-skipped",
    "LADDER-6",
    "a rung repeating an expression already searched is skipped as `duplicate` (kit 2.x)",
)
def _ladder_duplicates() -> None:
    walk = _mod("reference.ladder")._Walk
    original = walk.fts

    def fts(self: Any, rung: str, expression: str, search: Any) -> bool:
        if expression and any(r.searched and r.expression == expression for r in self.rows):
            self.skip(rung, expression, "duplicate")
            return False
        return bool(original(self, rung, expression, search))

    set_attr(walk, "fts", fts)


@mutant(
    "ladder-trigram-ignores-candidate-k",
    "LADDER-13",
    "the trigram rung returns every similar chunk, not at most candidateK",
)
def _ladder_trigram_unbounded() -> None:
    lad = _mod("reference.ladder")
    tri = _mod("reference.trigram")
    run, search = lad._Walk.run, tri.TrigramIndex.search

    def walk_run(self: Any, rung: str, expression: str, call: Callable[[], list[Any]]) -> bool:
        if rung != lad.TRIGRAM_FUZZY:
            return bool(run(self, rung, expression, call))
        saved, self.k = self.k, sys.maxsize
        try:
            return bool(run(self, rung, expression, call))
        finally:
            self.k = saved

    def tri_search(self: Any, tokens: Sequence[str], limit: int) -> list[Any]:
        return list(search(self, tokens, limit if limit < 1 else sys.maxsize))

    set_attr(lad._Walk, "run", walk_run)
    set_attr(tri.TrigramIndex, "search", tri_search)


@mutant(
    "ladder-strongest-from-parse-tokens",
    "LADDER-9",
    "the strongest term reads the DSL's term and prefix tokens, not the sanitised words (kit 2.x)",
)
def _ladder_strongest_parse_tokens() -> None:
    lad = _mod("reference.ladder")

    def query_strongest_term(query: str, sw: str = "anchor") -> str:
        tokens = lad.parse(query, None, sw).tokens
        return str(lad.strongest_term([t.text for t in tokens if t.kind != "phrase"], sw))

    swap(lad, "query_strongest_term", query_strongest_term)


@mutant(
    "ladder-strongest-dsl-stopwords",
    "LADDER-8",
    "the strongest term ignores the DSL's stopword lists, not the ladder's own set (kit 2.x)",
)
def _ladder_strongest_dsl_stopwords() -> None:
    s = _mod("reference.strongest")
    swap(s, "is_ladder_stopword", s.is_stopword)


@mutant(
    "ladder-strongest-rung-equal-to-query-kept",
    "LADDER-9",
    "strongest_term is searched even when it is the whole folded query",
)
def _ladder_strongest_equal_kept() -> None:
    lad = _mod("reference.ladder")
    original = lad.plan_ladder

    def plan_ladder(query: str, aliases: Any, sw: str = "anchor") -> Any:
        plan = original(query, aliases, sw)
        return replace(plan, strongest_expression=plan.refreshed_strongest_expression)

    swap(lad, "plan_ladder", plan_ladder)


@mutant("ladder-ignores-skip-flag", "LADDER-1", "skipRetryLadder is ignored")
def _ladder_ignores_flag() -> None:
    lad = _mod("reference.ladder")
    original = lad.run_bm25_leg
    swap(
        lad,
        "run_bm25_leg",
        lambda plan, search, trigram, k, run_ladder: original(plan, search, trigram, k, True),
    )


@mutant(
    "strongest-last-wins",
    "LADDER-8",
    "among equally long words the last wins (`>=`, reduce, max_by_key)",
)
def _strongest_last() -> None:
    s = _mod("reference.strongest")

    def strongest_term(words: Sequence[str], sw: str = "anchor") -> str:
        best, best_len = "", 0
        for word in words:
            if not s.is_ladder_stopword(word, sw) and s.length(word) >= best_len:
                best, best_len = word, s.length(word)
        return best

    swap(s, "strongest_term", strongest_term)


@mutant(
    "strongest-utf8-bytes",
    "TEXT-8",
    "the strongest term is chosen by UTF-8 byte length (Go len)",
)
def _strongest_bytes() -> None:
    set_attr(_mod("reference.strongest"), "length", lambda text: len(text.encode("utf-8")))


@mutant(
    "stopwords-utf16-length",
    "DSL-10",
    "the short-word stopword rule counts UTF-16 units",
)
def _stopwords_utf16() -> None:
    stop = _mod("reference.query.stopwords")
    listed = stop.stopword_set

    def is_stopword(word: str, sw: str = "anchor") -> bool:
        return len(word.encode("utf-16-le")) // 2 <= stop.MAX_SHORT_LENGTH or word in listed(sw)

    swap(stop, "is_stopword", is_stopword)


# -- trigram (TRI) -----------------------------------------------------------------------------


@mutant("tri-threshold-strict", "TRI-5", "Jaccard threshold uses `>`: exactly 0.3 is rejected")
def _tri_strict() -> None:
    swap(_mod("reference.trigram"), "is_similar", lambda i, u: u > 0 and 10 * i > 3 * u)


_F32_POINT_3: float = struct.unpack("f", struct.pack("f", 0.3))[0]


@mutant("tri-threshold-f32", "TRI-5", "the ratio is compared with a 32-bit 0.3f")
def _tri_f32() -> None:
    swap(_mod("reference.trigram"), "is_similar", lambda i, u: u > 0 and i / u >= _F32_POINT_3)


@mutant("tri-utf8-byte-trigrams", "TRI-2", "trigrams are slices of UTF-8 bytes (Go, Rust)")
def _tri_bytes() -> None:
    def trigrams(word: str) -> frozenset[str]:
        padded = f"${word}$".encode()
        return frozenset(padded[i : i + 3].decode("latin-1") for i in range(len(padded) - 2))

    swap(_mod("reference.trigram"), "trigrams", trigrams)


@mutant("tri-no-padding", "TRI-2", "words are not padded with `$`, so short words have no trigram")
def _tri_no_padding() -> None:
    swap(
        _mod("reference.trigram"),
        "trigrams",
        lambda word: frozenset(word[i : i + 3] for i in range(len(word) - 2)),
    )


@mutant(
    "tri-best-pair-last-wins",
    "TRI-4",
    "among equal ratios the last pair found is reported",
)
def _tri_last_pair() -> None:
    def greater(a: tuple[int, int], b: tuple[int, int]) -> bool:
        return a[0] * (b[1] or 1) >= b[0] * (a[1] or 1)

    swap(_mod("reference.trigram"), "_greater", greater)


@mutant("tri-ties-by-position", "TRI-6", "hits of equal similarity keep chunk order")
def _tri_ties() -> None:
    swap(
        _mod("reference.trigram"),
        "_order_key",
        lambda hit: (-Fraction(hit.intersection, hit.union),),
    )


@mutant("tri-path-slugs", "TRI-1", "chunks are matched by their file-name slug, not their content")
def _tri_slugs() -> None:
    tri = _mod("reference.trigram")
    original = tri.TrigramIndex.__init__

    def slug(path: str) -> str:
        name = path.rsplit("/", 1)[-1].removesuffix(".md")
        return re.sub(r"[^0-9A-Za-z]+", " ", name)

    def init(self: Any, chunks: Sequence[Any]) -> None:
        original(self, [replace(c, content=slug(c.path)) for c in chunks])
        self._chunks = tuple(chunks)

    set_attr(tri.TrigramIndex, "__init__", init)


# -- intent (INTENT) ---------------------------------------------------------------------------


@mutant(
    "intent-unicode-word-boundary",
    "INTENT-3",
    "patterns compiled without re.ASCII (Rust, .NET): é and ٣ count as word characters for \\b",
)
def _intent_unicode_b() -> None:
    i = _mod("reference.intent")

    def compile_pattern(source: str, flags: str = "") -> re.Pattern[str]:
        i.check_portable(source, flags)
        return re.compile(source)  # folded text: dropping `i` alone changes nothing

    swap(i, "compile_pattern", compile_pattern)


@mutant(
    "intent-python-ignorecase",
    "INTENT-3",
    "the i flag read as Python re.IGNORECASE without re.ASCII: ſ matches s, ı matches i",
)
def _intent_python_ignorecase() -> None:
    i = _mod("reference.intent")

    def compile_pattern(source: str, flags: str = "") -> re.Pattern[str]:
        i.check_portable(source, flags)
        return re.compile(source, re.IGNORECASE if flags == "i" else 0)

    swap(i, "compile_pattern", compile_pattern)


# Java's own \b (checked with Java 17): Unicode letters and digits are word characters, and so
# is a non-spacing mark after one (`did i` U+0307 has no boundary after the i).
_JAVA_WORD = "[\\w\u0300-\u036f\u20d0-\u20ff\ufe20-\ufe2f]"
_JAVA_B = f"(?:(?<={_JAVA_WORD})(?!{_JAVA_WORD})|(?<!{_JAVA_WORD})(?={_JAVA_WORD}))"


@mutant(
    "intent-java-word-boundary",
    "INTENT-3",
    "Java's own \\b kept (no look-around rewrite): a combining mark continues the word",
)
def _intent_java_b() -> None:
    i = _mod("reference.intent")

    def compile_pattern(source: str, flags: str = "") -> re.Pattern[str]:
        i.check_portable(source, flags)
        return re.compile(source.replace("\\b", _JAVA_B))  # CASE_INSENSITIVE is ASCII-only

    swap(i, "compile_pattern", compile_pattern)


def _go_fold(source: str) -> str:
    """What Go's (?i) adds for an ASCII pattern: the simple-fold orbits s/ſ and k/K."""
    out: list[str] = []
    n = 0
    while n < len(source):
        ch = source[n]
        if ch == "\\" or ch == "[":
            end = n + 2 if ch == "\\" else source.index("]", n) + 1
            out.append(source[n:end])
            n = end
            continue
        out.append({"s": "[s\u017f]", "k": "[k\u212a]"}.get(ch, ch))
        n += 1
    return "".join(out)


@mutant(
    "intent-go-case-fold",
    "INTENT-3",
    "the i flag kept as Go's (?i) (Unicode simple folding): suggeſt matches suggest",
)
def _intent_go_fold() -> None:
    i = _mod("reference.intent")

    def compile_pattern(source: str, flags: str = "") -> re.Pattern[str]:
        i.check_portable(source, flags)
        return re.compile(_go_fold(source) if flags == "i" else source, re.ASCII)

    swap(i, "compile_pattern", compile_pattern)


class _CaselessRegex:
    """What JavaScript `/iu` adds on folded text: ſ (U+017F) matches `s` and is a word char."""

    def __init__(self, regex: re.Pattern[str]) -> None:
        self._regex = regex

    def search(self, text: str) -> re.Match[str] | None:
        return self._regex.search(text.replace("\u017f", "s"))


@mutant(
    "intent-case-insensitive",
    "INTENT-3",
    "patterns carry a Unicode case-insensitive flag (JavaScript /iu): ſuggest matches suggest",
)
def _intent_caseless() -> None:
    i = _mod("reference.intent")
    original = i.compile_pattern
    swap(
        i,
        "compile_pattern",
        lambda source, flags="": _CaselessRegex(original(source, flags)),
    )


@mutant(
    "intent-query-not-folded",
    "INTENT-4",
    "query patterns run on the normalised query, not its folded form",
)
def _intent_unfolded() -> None:
    i = _mod("reference.intent")

    def detect(query: str, name: str = i.DEFAULT_TABLE) -> Any:
        text = i.normalise(query)
        t = i.table(name)
        truth = {p.name: p.regex.search(text) is not None for p in t.query_patterns}
        on = {f.name: i.holds(f.condition, truth) for f in t.families}
        pref, fact = on[i.PREFERENCE], on[i.CONCRETE_FACT]
        return i.Intent(pref, fact, i.make_label(pref, fact), name)

    swap(i, "detect", detect)


@mutant(
    "intent-fields-searched-separately",
    "INTENT-5",
    "text patterns are searched in each field on its own, never across fields",
)
def _intent_fields() -> None:
    i = _mod("reference.intent")
    original = i.predicates

    def predicates(c: Any, name: str = i.DEFAULT_TABLE) -> dict[str, bool]:
        out: dict[str, bool] = original(c, name)
        fields = [i.fold(v) for v in (c.path, c.title, c.summary, c.content)]
        for p in i.table(name).document_patterns:
            if p.target == "text":
                out[p.name] = any(p.regex.search(f) is not None for f in fields)
        return out

    swap(i, "predicates", predicates)


@mutant(
    "intent-table-name-ignored",
    "INTENT-13",
    "the table input and the request's intentTable are accepted but the default table always runs",
)
def _intent_table_ignored() -> None:
    t = _mod("reference.intent_table")
    original = t.table
    swap(t, "table", lambda name=t.DEFAULT_TABLE: original(t.DEFAULT_TABLE))


@mutant(
    "intent-unknown-table-is-default",
    "INTENT-13",
    "an unknown table name silently means the default table instead of invalid_input",
)
def _intent_unknown_default() -> None:
    t = _mod("reference.intent_table")
    swap(
        t,
        "check_table_name",
        lambda value: value if value in t.TABLES else t.DEFAULT_TABLE,
    )


@mutant("intent-first-rule-only", "INTENT-6", "only the first matching rule applies")
def _intent_first_rule() -> None:
    i = _mod("reference.intent")
    original = i.matching_rules
    swap(i, "matching_rules", lambda intent, c: list(original(intent, c))[:1])


@mutant(
    "intent-multipliers-added",
    "INTENT-7",
    "multipliers combine additively: 1 + Σ(m − 1) instead of a product",
)
def _intent_added() -> None:
    def apply_multipliers(score: float, multipliers: Sequence[float]) -> float:
        return score * (1.0 + builtins.sum(m - 1.0 for m in multipliers))

    swap(_mod("reference.intent"), "apply_multipliers", apply_multipliers)


@mutant(
    "intent-multipliers-folded",
    "INTENT-7",
    "the rules' multipliers are one pre-multiplied constant (Go folds 2.2 * 0.45 to 0.99)",
)
def _intent_folded() -> None:
    i = _mod("reference.intent")
    original = i.matching_rules

    def matching_rules(intent: Any, c: Any) -> list[Any]:
        rules = list(original(intent, c))
        if len(rules) < 2:
            return rules
        exact = Fraction(1)
        for rule in rules:
            exact *= Fraction(repr(rule.multiplier))  # the literal, as a compiler sees it
        folded = replace(rules[0], multiplier=float(exact))
        return [folded, *(replace(rule, multiplier=1.0) for rule in rules[1:])]

    swap(i, "matching_rules", matching_rules)


# -- unanimity (UNAN) --------------------------------------------------------------------------


@mutant(
    "unan-set-overlap",
    "UNAN-2",
    "agreement is the set overlap of the two top threes, reported for short legs too (2.x, D9)",
)
def _unan_set_overlap() -> None:
    u = _mod("reference.unanimity")

    def check(bm25: Sequence[str], vector: Sequence[str]) -> Any:
        agreements = len(set(bm25[:3]) & set(vector[:3]))
        fired = len(bm25) >= 3 and len(vector) >= 3 and agreements >= 2
        return u.UnanimityResult(agreements, fired)

    swap(u, "check", check)


@mutant(
    "unan-short-leg-compared",
    "UNAN-4",
    "a leg shorter than three is compared at the positions it has, and two agreements fire",
)
def _unan_short() -> None:
    u = _mod("reference.unanimity")

    def check(bm25: Sequence[str], vector: Sequence[str]) -> Any:
        agreements = builtins.sum(1 for a, b in zip(bm25[:3], vector[:3], strict=False) if a == b)
        return u.UnanimityResult(agreements, agreements >= 2)

    swap(u, "check", check)


@mutant(
    "unan-membership",
    "UNAN-2",
    "each of BM25's top three counts when it is anywhere in the vector leg's top three",
)
def _unan_membership() -> None:
    u = _mod("reference.unanimity")

    def check(bm25: Sequence[str], vector: Sequence[str]) -> Any:
        agreements = builtins.sum(1 for a in bm25[:3] if a in vector[:3])
        fired = len(bm25) >= 3 and len(vector) >= 3 and agreements >= 2
        return u.UnanimityResult(agreements, fired)

    swap(u, "check", check)


# -- rerank (RERANK) ---------------------------------------------------------------------------


@mutant("rerank-tail-resorted", "RERANK-3", "the tail is re-sorted by score before it is appended")
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
)
def _rerank_returned_order() -> None:
    def by_score_only(items: Iterable[Any], key: Callable[[Any], tuple[Any, ...]]) -> list[Any]:
        return builtins.sorted(items, key=lambda x: key(x)[0])

    set_attr(_mod("reference.rerank"), "sorted", by_score_only)


@mutant(
    "rerank-duplicates-last-wins",
    "RERANK-5",
    "reranker entries go through a dict: a repeated id keeps its last score, none reported",
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
)
def _rerank_nan() -> None:
    set_attr(_mod("reference.rerank"), "math", SimpleNamespace(isfinite=lambda x: True))


@mutant("rerank-head-off-by-one", "RERANK-1", "the head holds rerankTopN − 1 items")
def _rerank_off_by_one() -> None:
    rr = _mod("reference.rerank")
    original = rr.split
    swap(rr, "split", lambda fused, top_n: original(fused, max(top_n - 1, 0)))


# -- pipeline and modes (PIPE, MODE) -----------------------------------------------------------


@mutant("mode-semantic-runs-bm25", "MODE-5", "semantic mode still runs the BM25 leg and ladder")
def _mode_semantic_bm25() -> None:
    modes = _mod("reference.modes")
    set_attr(
        modes.ResolvedMode,
        "runs_bm25",
        property(lambda self: self.effective in ("bm25", "hybrid", "semantic")),
    )


@mutant("mode-auto-reports-fallback", "MODE-1", "auto without an embedder sets fellBackToBM25")
def _mode_auto_fallback() -> None:
    modes = _mod("reference.modes")
    original = modes.resolve_mode

    def resolve_mode(requested: str, has_embedder: bool) -> Any:
        if requested == "auto" and not has_embedder:
            return modes.ResolvedMode("bm25", True)
        return original(requested, has_embedder)

    swap(modes, "resolve_mode", resolve_mode)


@mutant(
    "pipe-topk-before-rerank",
    "PIPE-3",
    "the list is cut to topK before rerank, so the reranker never sees the rest of the head",
)
def _pipe_topk_first() -> None:
    pipe = _mod("reference.pipeline")
    search, rerank_head = pipe.search, pipe.rerank_head
    state = {"top_k": 10}

    def cut_search(request: Mapping[str, Any], backends: Any) -> Any:
        value = request.get("topK", 10) if isinstance(request, Mapping) else 10
        state["top_k"] = value if isinstance(value, int) and value >= 1 else 10
        return search(request, backends)

    def cut_rerank(fused: Sequence[Any], *rest: Any) -> Any:
        return rerank_head(list(fused)[: state["top_k"]], *rest)

    swap(pipe, "search", cut_search)
    set_attr(pipe, "rerank_head", cut_rerank)


@mutant(
    "pipe-fraction-truncated",
    "PIPE-1",
    "a request integer above 0 that is not whole is truncated (60.5 → 60), not rejected",
)
def _pipe_fraction_truncated() -> None:
    req = _mod("reference.request")
    original = req._positive_int

    def positive_int(obj: Mapping[str, Any], name: str) -> int:
        value = obj.get(name)
        if isinstance(value, float) and value > 0 and not value.is_integer():
            return int(value) if int(value) >= 1 else int(req.DEFAULTS[name])
        return int(original(obj, name))

    set_attr(req, "_positive_int", positive_int)


@mutant(
    "pipe-vector-error-fails-search",
    "PIPE-7",
    "a vector leg error fails the whole search even when BM25 answered",
)
def _pipe_vector_error() -> None:
    pipe = _mod("reference.pipeline")
    original = pipe._run_vector_leg

    def run_vector_leg(*args: Any) -> Any:
        leg = original(*args)
        if leg.error is not None:
            raise pipe.IndexError_(leg.error["message"])
        return leg

    set_attr(pipe, "_run_vector_leg", run_vector_leg)



# -- bits: mistakes only a bit-exact comparison sees (TEXT-13) ---------------------------------


@mutant(
    "rrf-sum-smallest-first",
    "RRF-7",
    "an item's contributions are summed smallest first (ascending), not largest first",
)
def _rrf_sum_ascending() -> None:
    def canonical_sum(contributions: Sequence[float]) -> float:
        total = 0.0
        for value in sorted(contributions):
            total += value
        return total

    swap(_mod("reference.rrf"), "canonical_sum", canonical_sum)


@mutant(
    "rrf-sum-in-list-order",
    "RRF-7",
    "an item's contributions are summed in list order (ties still broken by path, id)",
)
def _rrf_sum_in_list_order() -> None:
    _rrf_sum_list_order()


@mutant(
    "rrf-contribution-reciprocal",
    "RRF-7",
    "a contribution is w × (1 / (k + r + 1)), two roundings instead of one division",
)
def _rrf_reciprocal() -> None:
    swap(_mod("reference.rrf"), "contribution", lambda w, k, rank: w * (1.0 / float(k + rank + 1)))


@mutant(
    "intent-compose-right-to-left",
    "INTENT-7",
    "an item's multipliers are applied right to left: ((score × mN) × …) × m1",
)
def _intent_right_to_left() -> None:
    def apply_multipliers(score: float, multipliers: Sequence[float]) -> float:
        for m in reversed(multipliers):
            score = score * m
        return score

    swap(_mod("reference.intent"), "apply_multipliers", apply_multipliers)


@mutant(
    "intent-precomputed-product",
    "INTENT-7",
    "the score is multiplied once by the precomputed product of its multipliers",
)
def _intent_product() -> None:
    def apply_multipliers(score: float, multipliers: Sequence[float]) -> float:
        product = 1.0
        for m in multipliers:
            product = product * m
        return score * product

    swap(_mod("reference.intent"), "apply_multipliers", apply_multipliers)


@mutant(
    "intent-constant-folded",
    "INTENT-7",
    "the product is folded exactly and rounded once (Go constants): 2.2 × 0.45 gives 0.99",
)
def _intent_folded_exactly() -> None:
    def apply_multipliers(score: float, multipliers: Sequence[float]) -> float:
        exact = Fraction(score)
        for m in multipliers:
            exact *= Fraction(m)
        return float(exact)

    swap(_mod("reference.intent"), "apply_multipliers", apply_multipliers)


@mutant(
    "vector-similarity-two-roots",
    "BACKEND-30",
    "the similarity divides by sqrt(|q|²) × sqrt(|c|²), two roots instead of one",
)
def _vector_two_roots() -> None:
    import math

    def similarity_float(dot: int, query_norm2: int, chunk_norm2: int) -> float:
        return float(dot) / (math.sqrt(float(query_norm2)) * math.sqrt(float(chunk_norm2)))

    swap(_mod("reference.backends.vector"), "similarity_float", similarity_float)


def _fifteen_digits(value: Any) -> Any:
    if isinstance(value, float):
        return float(f"{value:.15g}")
    if isinstance(value, dict):
        return {k: _fifteen_digits(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_fifteen_digits(v) for v in value]
    return value


@mutant(
    "numbers-written-15-digits",
    "TEXT-12",
    "floats are written with 15 significant digits (printf %.15g), a form that does not round-trip",
)
def _numbers_15_digits() -> None:
    ops = _mod("conformance.ops")
    table: dict[str, Callable[[Any], Any]] = ops._REGISTRY
    for name, handler in list(table.items()):

        def shortened(inp: Any, handler: Callable[[Any], Any] = handler) -> Any:
            return _fifteen_digits(handler(inp))

        table[name] = shortened


# -- second batch: subtler mistakes, found by asking "which rule has only one case?" ----------


@mutant(
    "rrf-path-equal-rank-first-list",
    "RRF-13",
    "between paths of equal rank, the first list's wins, not the smallest by code point",
)
def _rrf_path_equal_rank_first() -> None:
    def better_path(rank: int, path: str, best: tuple[int, str] | None) -> bool:
        return path != "" and (best is None or rank < best[0])

    swap(_mod("reference.rrf"), "better_path", better_path)


@mutant(
    "rrf-path-first-seen",
    "RRF-13",
    "the path is the first sighting's, never updated (the anchor's bucket), so disputed "
    "paths make ties follow list order",
)
def _rrf_path_first_seen() -> None:
    def better_path(rank: int, path: str, best: tuple[int, str] | None) -> bool:
        return best is None and path != ""

    swap(_mod("reference.rrf"), "better_path", better_path)


@mutant(
    "rrf-metadata-empty-keys-dropped",
    "RRF-14",
    "a metadata key whose every value is empty is dropped instead of kept with \"\"",
)
def _rrf_empty_keys() -> None:
    r = _mod("reference.rrf")
    original = r.fuse

    def fuse(lists: Sequence[Any], k: int = r.DEFAULT_K) -> list[Any]:
        out = []
        for f in original(lists, k):
            meta = {key: v for key, v in f.candidate.metadata.items() if v != ""}
            out.append(replace(f, candidate=replace(f.candidate, metadata=meta)))
        return out

    swap(r, "fuse", fuse)


@mutant("rrf-whole-float-k-rejected", "RRF-15", "k = 60.0 is rejected because it is a float")
def _rrf_float_k() -> None:
    r = _mod("reference.rrf")
    original = r.check_k

    def check_k(k: object) -> int:
        if isinstance(k, float):
            raise r.InvalidInput(f"k must be an integer, got {k!r}")
        return int(original(k))

    swap(r, "check_k", check_k)


@mutant("rrf-negative-weight-accepted", "RRF-3", "a negative list weight is accepted")
def _rrf_negative_weight() -> None:
    r = _mod("reference.rrf")
    original = r.check_weight

    def check_weight(weight: object) -> float:
        if isinstance(weight, int | float) and not isinstance(weight, bool) and weight < 0:
            return float(weight)
        return float(original(weight))

    swap(r, "check_weight", check_weight)


@mutant(
    "ladder-trigram-tokens-deduplicated",
    "LADDER-11",
    "the trigram rung's tokens are deduplicated (the anchor's query_tokens)",
)
def _ladder_trigram_dedup() -> None:
    lad = _mod("reference.ladder")
    original = lad.plan_ladder

    def plan_ladder(query: str, aliases: Any, sw: str = "anchor") -> Any:
        plan = original(query, aliases, sw)
        return replace(plan, trigram_tokens=tuple(dict.fromkeys(plan.trigram_tokens)))

    swap(lad, "plan_ladder", plan_ladder)


@mutant(
    "ladder-strongest-prefix-keeps-star",
    "LADDER-9",
    "a strongest term taken from a prefix token is searched as a prefix (`\"t\"*`)",
)
def _ladder_prefix_star() -> None:
    lad = _mod("reference.ladder")
    original = lad.plan_ladder

    def plan_ladder(query: str, aliases: Any, sw: str = "anchor") -> Any:
        plan = original(query, aliases, sw)
        tokens = lad.parse(query, None, sw).tokens
        term = lad.query_strongest_term(query, sw)
        first = next((t for t in tokens if t.text == term and t.kind != "phrase"), None)
        if term and first is not None and first.kind == "prefix":
            return replace(plan, strongest_expression=lad.fts_quote(term) + "*")
        return plan

    swap(lad, "plan_ladder", plan_ladder)


@mutant(
    "ladder-no-chunks-when-none-listed",
    "LADDER-12",
    "an index listing zero chunks is treated as one that cannot list them (skip no_chunks)",
)
def _ladder_empty_chunks() -> None:
    pipe = _mod("reference.pipeline")
    original = pipe.Backends.trigram_search

    def trigram_search(self: Any) -> Any:
        if self.index is not None and self.index.chunks() is not None and not self.index.chunks():
            return None
        return original(self)

    set_attr(pipe.Backends, "trigram_search", trigram_search)


@mutant(
    "ladder-used-retry-only-if-searched",
    "LADDER-15",
    "usedRetry is true only when a later rung actually searched",
)
def _ladder_used_retry() -> None:
    lad = _mod("reference.ladder")
    original = lad.run_bm25_leg

    def run_bm25_leg(*args: Any) -> Any:
        leg = original(*args)
        leg.used_retry = any(a.searched for a in leg.attempts[1:])
        return leg

    swap(lad, "run_bm25_leg", run_bm25_leg)


@mutant(
    "tri-duplicate-chunk-ids-accepted",
    "TRI-1",
    "a chunk list with a repeated id is accepted (the later chunk ignored)",
)
def _tri_duplicate_ids() -> None:
    tri = _mod("reference.trigram")
    original = tri.TrigramIndex.__init__

    def init(self: Any, chunks: Sequence[Any]) -> None:
        firsts = {c.id: c for c in reversed(chunks)}
        original(self, [c for c in chunks if firsts[c.id] is c])

    set_attr(tri.TrigramIndex, "__init__", init)


@mutant(
    "tri-default-candidate-k-10",
    "TRI-7",
    "trigram_search defaults candidateK to 10 (topK) instead of 60",
)
def _tri_default_k() -> None:
    set_attr(_mod("conformance.ops.ladder"), "DEFAULT_CANDIDATE_K", 10)


@mutant(
    "tri-candidate-k-zero-rejected",
    "TRI-7",
    "trigram_search rejects candidateK <= 0 (the 2.x reading) instead of using 60",
)
def _tri_k_zero_rejected() -> None:
    ladder = _mod("conformance.ops.ladder")
    types = _mod("reference.types")

    def candidate_k(inp: Any) -> int:
        value = types.optional(inp, "candidateK", ladder.DEFAULT_CANDIDATE_K)
        return int(types.whole_number(value, "candidateK"))

    set_attr(ladder, "_candidate_k", candidate_k)


@mutant(
    "rerank-top-n-zero-rejected",
    "RERANK-1",
    "the rerank operation rejects rerankTopN <= 0 (the 2.x reading) instead of using 20",
)
def _rerank_top_n_zero_rejected() -> None:
    types = _mod("reference.types")
    swap(
        _mod("reference.rerank"),
        "check_top_n",
        lambda value: int(types.whole_number(value, "rerankTopN")),
    )


@mutant(
    "intent-long-content-inclusive",
    "INTENT-6",
    "long_content uses >= 240 instead of > 240",
)
def _intent_long_inclusive() -> None:
    i = _mod("reference.intent")
    original = i.predicates

    def predicates(c: Any, name: str = i.DEFAULT_TABLE) -> dict[str, bool]:
        out: dict[str, bool] = original(c, name)
        limit = i.table(name).long_content_length
        if limit is not None:
            out[i.LONG_CONTENT] = i.length(i.normalise(c.content)) >= limit
        return out

    swap(i, "predicates", predicates)


@mutant(
    "intent-long-content-raw-length",
    "INTENT-6",
    "long_content measures the raw content, not its normalised form",
)
def _intent_long_raw() -> None:
    i = _mod("reference.intent")
    original = i.predicates

    def predicates(c: Any, name: str = i.DEFAULT_TABLE) -> dict[str, bool]:
        out: dict[str, bool] = original(c, name)
        limit = i.table(name).long_content_length
        if limit is not None:
            out[i.LONG_CONTENT] = len(c.content) > limit
        return out

    swap(i, "predicates", predicates)


@mutant(
    "intent-adjustments-in-new-order",
    "INTENT-8",
    "the adjustments report follows the reweighted order, not the fused order",
)
def _intent_adjust_order() -> None:
    i = _mod("reference.intent")
    original = i.reweight

    def reweight(intent: Any, fused: Sequence[Any]) -> tuple[list[Any], list[Any]]:
        items, adjustments = original(intent, fused)
        where = {item.id: n for n, item in enumerate(items)}
        return items, sorted(adjustments, key=lambda a: where[a.id])

    swap(i, "reweight", reweight)


@mutant(
    "intent-ties-by-path",
    "INTENT-9",
    "equal reweighted values are ordered by path instead of fused position",
)
def _intent_ties_path() -> None:
    i = _mod("reference.intent")
    original = i.reweight

    def reweight(intent: Any, fused: Sequence[Any]) -> tuple[list[Any], list[Any]]:
        items, adjustments = original(intent, fused)
        if intent.preference or intent.concrete_fact:
            items = sorted(items, key=lambda f: (-f.exact, f.candidate.path))
        return items, adjustments

    swap(i, "reweight", reweight)


@mutant(
    "intent-resorts-without-intent",
    "INTENT-10",
    "the list is re-sorted by score even when no family is detected",
)
def _intent_resorts() -> None:
    i = _mod("reference.intent")
    original = i.reweight

    def reweight(intent: Any, fused: Sequence[Any]) -> tuple[list[Any], list[Any]]:
        items, adjustments = original(intent, fused)
        return sorted(items, key=lambda f: -f.exact), adjustments

    swap(i, "reweight", reweight)


@mutant(
    "rerank-failure-sends-nothing",
    "RERANK-8",
    "a failed rerank reports sent: [] instead of the head it sent",
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


@mutant(
    "pipe-vector-hits-not-truncated",
    "PIPE-4",
    "the vector leg keeps every hit the store returns, not at most candidateK",
)
def _pipe_vector_unbounded() -> None:
    pipe = _mod("reference.pipeline")
    original = pipe._run_vector_leg
    scripted = _mod("reference.backends.scripted")
    search_vector = scripted.ScriptedVectors.search_vector

    def unbounded(self: Any, vector: Sequence[float], limit: int) -> list[Any]:
        return list(search_vector(self, vector, sys.maxsize if limit >= 1 else limit))

    def run_vector_leg(req: Any, backends: Any, normalised: str, profiles: Any) -> Any:
        return original(replace(req, candidate_k=sys.maxsize), backends, normalised, profiles)

    set_attr(scripted.ScriptedVectors, "search_vector", unbounded)
    set_attr(pipe, "_run_vector_leg", run_vector_leg)


@mutant(
    "pipe-results-carry-fused-score",
    "PIPE-6",
    "results report the fused score from before the intent multipliers",
)
def _pipe_pre_intent_score() -> None:
    pipe = _mod("reference.pipeline")
    original = pipe.reweight

    def reweight(intent: Any, fused: Sequence[Any]) -> tuple[list[Any], list[Any]]:
        items, adjustments = original(intent, fused)
        before = {f.id: f.score for f in fused}
        return [replace(f, score=before[f.id]) for f in items], adjustments

    set_attr(pipe, "reweight", reweight)


@mutant(
    "mode-vector-error-no-fallback-flag",
    "MODE-6",
    "a vector error in hybrid mode does not set fellBackToBM25",
)
def _mode_vector_error_flag() -> None:
    pipe = _mod("reference.pipeline")
    original = pipe.search

    def search(request: Any, backends: Any) -> Any:
        results, trace = original(request, backends)
        if trace["vector"]["error"] is not None and trace["effectiveMode"] == "hybrid":
            trace["fellBackToBM25"] = False
        return results, trace

    swap(pipe, "search", search)


@mutant(
    "text-punctuation-deleted",
    "TEXT-7",
    "punctuation and symbols are deleted instead of becoming spaces (snake_case -> snakecase)",
)
def _text_punct_deleted() -> None:
    t = _mod("reference.text")
    swap(t, "punct_symbol_to_space", lambda s: "".join(c for c in s if not t.is_punct_symbol(c)))


def _rewrite_fields(rewrite: Callable[[list[str]], list[str]]) -> None:
    """Patch parse so that it sees the query's space-separated fields rewritten first."""
    p = _mod("reference.query.parse")
    text = _mod("reference.text")
    original = p.parse

    def parse(
        query: str, aliases: Mapping[str, Sequence[str]] | None = None, sw: str = "anchor"
    ) -> Any:
        normalised = text.normalise(query)
        if '"' in normalised:
            return original(query, aliases, sw)
        return original(" ".join(rewrite(normalised.split(" "))), aliases, sw)

    swap(p, "parse", parse)


@mutant("dsl-first-operator-wins", "DSL-5", "of two operators in a row the first wins")
def _dsl_first_operator() -> None:
    ops = ("AND", "OR", "NOT")

    def rewrite(fields: list[str]) -> list[str]:
        out: list[str] = []
        for field in fields:
            if field in ops and out and out[-1] in ops:
                continue
            out.append(field)
        return out

    _rewrite_fields(rewrite)


@mutant(
    "dsl-stripped-word-keeps-operator",
    "DSL-7",
    "a word that strips to nothing leaves the pending operator pending (foo AND ++ bar)",
)
def _dsl_stripped_keeps() -> None:
    p = _mod("reference.query.parse")
    _rewrite_fields(lambda fields: [f for f in fields if f in p.OPERATORS or p.strip_word(f)])


@mutant(
    "dsl-star-anywhere-is-prefix",
    "DSL-6",
    "a bare word with `*` anywhere is a prefix, not only with a trailing `*`",
)
def _dsl_star_anywhere() -> None:
    _rewrite_fields(
        lambda fields: [f.replace("*", "") + "*" if "*" in f.rstrip("*") else f for f in fields]
    )


@mutant(
    "dsl-alias-members-not-deduplicated",
    "DSL-14",
    "alias alternatives are not deduplicated, so overlapping alternatives repeat a token",
)
def _dsl_alias_dups() -> None:
    p = _mod("reference.query.parse")
    a = _mod("reference.query.aliases")

    def expand_term(term: str, operator: str | None, table: Mapping[str, Sequence[str]]) -> Any:
        alternatives = table.get(term)
        found = [m for m in (a.alternative_member(alt) for alt in alternatives or ()) if m]
        if not found:
            return (p.Token("term", term, operator),)
        return tuple(p.Token(k, t, operator if i == 0 else None) for i, (k, t) in enumerate(found))

    swap(p, "expand_term", expand_term)


@mutant(
    "dsl-sanitised-tokens-deduplicated",
    "DSL-20",
    "the sanitised tokens drop repeated words",
)
def _dsl_sanitise_dedup() -> None:
    s = _mod("reference.query.sanitise")
    original = s.sanitise

    def sanitise(query: str, aliases: Any = None, sw: str = "anchor") -> Any:
        out = original(query, aliases, sw)
        kept = tuple(dict.fromkeys(out.tokens))
        table = s.validate_aliases(aliases)
        expression = s.join_tokens(t for w in kept for t in s.expand_term(w, None, table))
        return s.Sanitised(kept, expression)

    swap(s, "sanitise", sanitise)

def names() -> list[str]:
    """Every registered mutant name, in registration order."""
    return list(MUTANTS)


# -- issue 9 defects: modes, ladder wording, zero weights, request bounds and nulls -----------


@mutant(
    "mode-auto-vector-error-no-fallback-flag",
    "MODE-1",
    "auto never sets fellBackToBM25, read literally: an auto that ran hybrid hides a vector error",
)
def _mode_auto_vector_error_flag() -> None:
    pipe = _mod("reference.pipeline")
    original = pipe.search

    def search(request: Any, backends: Any) -> Any:
        results, trace = original(request, backends)
        if trace["requestedMode"] == "auto":
            trace["fellBackToBM25"] = False
        return results, trace

    swap(pipe, "search", search)


@mutant(
    "ladder-force-refresh-skip-empty",
    "LADDER-4",
    "the 1.0.0 skip order read literally: force-refresh's \"\" expression makes it `empty`",
)
def _ladder_force_refresh_empty() -> None:
    ladder = _mod("reference.ladder")
    original = ladder._Walk.skip

    def skip(self: Any, rung: str, expression: str, reason: str) -> None:
        if rung == ladder.FORCE_REFRESH and expression == "":
            reason = ladder.SKIP_EMPTY
        original(self, rung, expression, reason)

    set_attr(ladder._Walk, "skip", skip)


@mutant(
    "pipe-zero-weight-leg-runs",
    "PIPE-8",
    "a leg of weight 0 still runs (search, ladder, embed) and votes; only fusion ignores it (1.0)",
)
def _pipe_zero_weight_runs() -> None:
    pipe = _mod("reference.pipeline")

    def leg_skip(runs_in_mode: bool, weight: float) -> str | None:
        return None if runs_in_mode else pipe.SKIP_MODE

    swap(pipe, "leg_skip", leg_skip)


@mutant(
    "unan-zero-weight-leg-votes",
    "UNAN-6",
    "unanimity is evaluated whenever the mode is hybrid, a skipped zero-weight leg voting empty",
)
def _unan_zero_weight_votes() -> None:
    pipe = _mod("reference.pipeline")

    hybrid = [False]
    original_resolve = pipe.resolve_mode

    def resolve_mode(requested: str, has_embedder: bool) -> Any:
        mode = original_resolve(requested, has_embedder)
        hybrid[0] = mode.effective == "hybrid"
        return mode

    def voters(bm25: Any, vleg: Any) -> tuple[list[str], list[str]] | None:
        if not hybrid[0]:
            return None
        return ([c.id for c in bm25.hits] if bm25 else []), [c.id for c in vleg.hits]

    set_attr(pipe, "resolve_mode", resolve_mode)
    swap(pipe, "unanimity_voters", voters)


@mutant(
    "op-integers-unbounded",
    "OP-4",
    "integer inputs have no maximum (1.0): 2^31 and 2^63 are accepted and passed to the backends",
)
def _op_integers_unbounded() -> None:
    types = _mod("reference.types")
    original = types.whole_number

    def whole_number(value: object, name: str, minimum: int = 1, maximum: int = 0) -> int:
        result: int = original(value, name, minimum, 2**200)
        return result

    swap(types, "whole_number", whole_number)


@mutant(
    "op-null-is-a-value",
    "OP-5",
    "null in an optional field is taken as a value (and rejected) instead of as absent",
)
def _op_null_is_a_value() -> None:
    types = _mod("reference.types")

    def optional(obj: Mapping[str, Any], name: str, default: Any) -> Any:
        return obj.get(name, default)

    def present(obj: Mapping[str, Any], name: str) -> bool:
        return name in obj

    swap(types, "optional", optional)
    swap(types, "present", present)


@mutant(
    "pipe-rrf-k-checked-at-fusion",
    "PIPE-9",
    "the request accepts any rrfK >= 1; RRF-1's bound is checked at fusion, after the legs ran",
)
def _pipe_rrf_k_late() -> None:
    req = _mod("reference.request")
    types = _mod("reference.types")
    original = req._positive_int

    def positive_int(obj: Mapping[str, Any], name: str) -> int:
        if name == "rrfK":
            value = types.optional(obj, name, req.DEFAULTS[name])
            return int(types.whole_number(value, f"request.{name}", 1, 2**200))
        return int(original(obj, name))

    set_attr(req, "_positive_int", positive_int)


@mutant(
    "trace-effective-mode-echoes-request",
    "TRACE-5",
    "effectiveMode repeats the requested mode, so an auto request reports `auto`",
)
def _trace_effective_mode_echo() -> None:
    pipe = _mod("reference.pipeline")
    original = pipe.search

    def search(request: Any, backends: Any) -> Any:
        results, trace = original(request, backends)
        trace["effectiveMode"] = trace["requestedMode"]
        return results, trace

    swap(pipe, "search", search)


@mutant(
    "trace-skipped-row-expression-null",
    "TRACE-8",
    "a row that did not search reports `expression: null` instead of its expression or \"\"",
)
def _trace_row_expression_null() -> None:
    ladder = _mod("reference.ladder")
    original = ladder.Attempt.to_json

    def to_json(self: Any) -> dict[str, Any]:
        row: dict[str, Any] = original(self)
        if not self.searched:
            row["expression"] = None
        return row

    set_attr(ladder.Attempt, "to_json", to_json)


@mutant(
    "tri-slugs-and-default-candidate-k-10",
    "TRI-7",
    "two mistakes at once: chunks matched by their file-name slug, and candidateK defaulting to 10",
)
def _tri_slugs_and_k10() -> None:
    MUTANTS["tri-path-slugs"].apply()
    MUTANTS["tri-default-candidate-k-10"].apply()


# -- metrics (spec/metrics.md) -----------------------------------------------------------------


def _metrics_rows(fix: Callable[[Any, Sequence[str], Mapping[str, int], int], Any]) -> None:
    """Rewrite each query's row with `fix(row, ranked, judgements, k)` after the reference."""
    m = _mod("reference.metrics")
    original = m.score_query

    def score_query(query: str, ranked: Sequence[str], judgements: Mapping[str, int],
                    k: int) -> Any:
        return fix(original(query, ranked, judgements, k), ranked, judgements, k)

    set_attr(m, "score_query", score_query)


@mutant(
    "metrics-discount-zero-based",
    "METRIC-8",
    "the 0-based index goes into log2(i + 1), so rank r is discounted by log2(r), rank 1 by 1",
)
def _metrics_discount_zero_based() -> None:
    set_attr(_mod("reference.metrics"), "discount", lambda rank: max(1.0, math.log2(rank)))


@mutant(
    "metrics-discount-ln-ratio",
    "METRIC-12",
    "log2 computed as ln(x) / ln(2), which is not correctly rounded (Java has no log2)",
)
def _metrics_discount_ln_ratio() -> None:
    set_attr(_mod("reference.metrics"), "discount", lambda rank: math.log(rank + 1) / math.log(2))


@mutant(
    "metrics-recall-over-retrieved",
    "METRIC-6",
    "R@k divides by the number of retrieved documents in the top k instead of by R",
)
def _metrics_recall_over_retrieved() -> None:
    def fix(row: Any, ranked: Sequence[str], judgements: Mapping[str, int], k: int) -> Any:
        shown = min(k, row.retrieved)
        return replace(row, recall=row.relevant_retrieved / shown if shown else 0.0)

    _metrics_rows(fix)


@mutant(
    "metrics-precision-over-retrieved",
    "METRIC-5",
    "P@k divides by min(k, n), rewarding a short run",
)
def _metrics_precision_over_retrieved() -> None:
    def fix(row: Any, ranked: Sequence[str], judgements: Mapping[str, int], k: int) -> Any:
        shown = min(k, row.retrieved)
        return replace(row, precision=row.relevant_retrieved / shown if shown else 0.0)

    _metrics_rows(fix)


@mutant(
    "metrics-judged-is-relevant",
    "METRIC-2",
    "any judged document counts as relevant, so relevance 0 gives a reciprocal rank",
)
def _metrics_judged_is_relevant() -> None:
    m = _mod("reference.metrics")

    def fix(row: Any, ranked: Sequence[str], judgements: Mapping[str, int], k: int) -> Any:
        run = m.dedupe(ranked)
        first = next((i for i, d in enumerate(run, 1) if d in judgements), 0)
        return replace(row, reciprocal_rank=1.0 / first if first else 0.0)

    _metrics_rows(fix)


@mutant(
    "metrics-negative-gain",
    "METRIC-2",
    "a negative relevance is used as a negative gain in DCG",
)
def _metrics_negative_gain() -> None:
    set_attr(_mod("reference.metrics"), "gain", lambda judgements, doc: judgements.get(doc, 0))


@mutant(
    "metrics-duplicates-counted",
    "METRIC-3",
    "a document repeated in the run is counted at every occurrence",
)
def _metrics_duplicates_counted() -> None:
    set_attr(_mod("reference.metrics"), "dedupe", lambda ranked: list(ranked))


@mutant(
    "metrics-rr-cut-at-k",
    "METRIC-7",
    "the reciprocal rank only looks at the top k",
)
def _metrics_rr_cut_at_k() -> None:
    def fix(row: Any, ranked: Sequence[str], judgements: Mapping[str, int], k: int) -> Any:
        return row if row.reciprocal_rank >= 1.0 / k else replace(row, reciprocal_rank=0.0)

    _metrics_rows(fix)


@mutant(
    "metrics-ap-over-retrieved-relevant",
    "METRIC-10",
    "AP divides by the relevant documents retrieved instead of by R",
)
def _metrics_ap_over_retrieved() -> None:
    m = _mod("reference.metrics")

    def fix(row: Any, ranked: Sequence[str], judgements: Mapping[str, int], k: int) -> Any:
        found = sum(1 for d in m.dedupe(ranked) if m.gain(judgements, d) > 0)
        ap = row.average_precision * row.relevant / found if found else 0.0
        return replace(row, average_precision=ap)

    _metrics_rows(fix)


@mutant(
    "metrics-ideal-from-run",
    "METRIC-8",
    "IDCG is computed from the relevant documents the run retrieved, not from the judgements",
)
def _metrics_ideal_from_run() -> None:
    m = _mod("reference.metrics")

    def fix(row: Any, ranked: Sequence[str], judgements: Mapping[str, int], k: int) -> Any:
        gains = [m.gain(judgements, d) for d in m.dedupe(ranked)][:k]
        ideal = sorted((g for g in gains if g > 0), reverse=True)
        return replace(row, ndcg=m.dcg(gains) / m.dcg(ideal) if ideal else 0.0)

    _metrics_rows(fix)


@mutant(
    "metrics-unanswerable-queries-counted",
    "METRIC-4",
    "a query without relevant documents is scored 0 and counted in the means, as trec_eval does",
)
def _metrics_unanswerable_counted() -> None:
    m = _mod("reference.metrics")
    original = m.evaluate

    def evaluate(run: Any, qrels: Any, k: int = 5) -> Any:
        out = original(run, qrels, k)
        zeros = [0.0] * len(out.excluded)
        mean = {
            name: m.mean([r.value(name) for r in out.queries] + zeros) for name in m.MEASURES
        }
        return replace(out, mean=mean)

    swap(m, "evaluate", evaluate)


@mutant(
    "metrics-mean-in-input-order",
    "METRIC-11",
    "means are summed in the order the queries were given, not by query id",
)
def _metrics_mean_input_order() -> None:
    m = _mod("reference.metrics")
    original = m.evaluate

    def evaluate(run: Any, qrels: Any, k: int = 5) -> Any:
        out = original(run, qrels, k)
        by_id = {r.query: r for r in out.queries}
        rows = [by_id[q] for q in qrels if q in by_id]
        mean = {name: m.mean([r.value(name) for r in rows]) for name in m.MEASURES}
        return replace(out, mean=mean)

    swap(m, "evaluate", evaluate)


@mutant(
    "metrics-missing-query-ignored",
    "METRIC-4",
    "a judged query absent from the run is skipped, as trec_eval does without -c",
)
def _metrics_missing_query_ignored() -> None:
    m = _mod("reference.metrics")
    original = m.evaluate

    def evaluate(run: Any, qrels: Any, k: int = 5) -> Any:
        out = original(run, qrels, k)
        rows = tuple(r for r in out.queries if r.query in run)
        mean = {name: m.mean([r.value(name) for r in rows]) for name in m.MEASURES}
        return replace(out, queries=rows, mean=mean)

    swap(m, "evaluate", evaluate)


# -- profile scoped-fusion (SCOPE) -------------------------------------------------------------


@mutant(
    "scoped-missing-scope-wildcard",
    "SCOPE-3",
    "a candidate without metadata.scope passes every scope filter",
)
def _scoped_missing_scope_wildcard() -> None:
    f = _mod("reference.profiles.scoped_fusion.scope_filter")
    original = f.removal_reason

    def removal_reason(hit: Any, options: Any) -> str | None:
        if options.scopes is not None and f.SCOPE_FIELD not in hit.metadata:
            return str(f.EXCLUDED) if hit.id in options.exclude_ids else None
        reason: str | None = original(hit, options)
        return reason

    swap(f, "removal_reason", removal_reason)


@mutant(
    "scoped-empty-scopes-unrestricted",
    "SCOPE-4",
    "scopes: [] is read as 'no restriction' (the JavaScript `if (ids && ids.length)` idiom)",
)
def _scoped_empty_scopes_unrestricted() -> None:
    o = _mod("reference.profiles.scoped_fusion.options")
    original = o.parse_options

    def parse_options(obj: Any, where: str = "request.profiles.scoped-fusion") -> Any:
        out = original(obj, where)
        return replace(out, scopes=None) if out.scopes == frozenset() else out

    swap(o, "parse_options", parse_options)


@mutant(
    "scoped-dense-ties-ascending",
    "SCOPE-15",
    "equal dense scores are ordered by id ascending instead of the seed's descending",
)
def _scoped_dense_ties_ascending() -> None:
    d = _mod("reference.profiles.scoped_fusion.dense_hits")

    def dense_hits(nodes: Any, words: Any, limit: int) -> list[Any]:
        hits = [
            d.DenseHit(n.id, n.activation + d.overlap(n.label, words) * 0.5,
                       d.overlap(n.label, words))
            for n in d.preselect(nodes, limit)
        ]
        hits.sort(key=lambda h: h.id)
        hits.sort(key=lambda h: h.score, reverse=True)
        return hits[:limit]

    swap(d, "dense_hits", dense_hits)


@mutant(
    "scoped-dense-preselect-ties-descending",
    "SCOPE-13",
    "the activation pre-selection breaks ties by id descending (SQL leaves them open)",
)
def _scoped_dense_preselect_desc() -> None:
    d = _mod("reference.profiles.scoped_fusion.dense_hits")

    def preselect(nodes: Sequence[Any], limit: int) -> list[Any]:
        active = [n for n in nodes if n.activation > 0.0]
        active.sort(key=lambda n: n.id, reverse=True)
        active.sort(key=lambda n: n.activation, reverse=True)
        return active[: 3 * limit]

    swap(d, "preselect", preselect)


@mutant(
    "scoped-dense-no-preselection",
    "SCOPE-13",
    "every active node is scored, not only the 3 x limit most activated",
)
def _scoped_dense_no_preselection() -> None:
    d = _mod("reference.profiles.scoped_fusion.dense_hits")

    def preselect(nodes: Sequence[Any], limit: int) -> list[Any]:
        return [n for n in nodes if n.activation > 0.0]

    swap(d, "preselect", preselect)


@mutant(
    "scoped-dense-words-lowercased",
    "SCOPE-14",
    "query words are lowercased like the label before the substring test",
)
def _scoped_dense_words_lowercased() -> None:
    d = _mod("reference.profiles.scoped_fusion.dense_hits")
    original = d.overlap

    def overlap(label: str, words: Sequence[str]) -> int:
        return int(original(label, [w.lower() for w in words]))

    swap(d, "overlap", overlap)


@mutant(
    "scoped-dense-distinct-words",
    "SCOPE-14",
    "a repeated query word counts once (overlap over the set of words)",
)
def _scoped_dense_distinct_words() -> None:
    d = _mod("reference.profiles.scoped_fusion.dense_hits")
    original = d.overlap

    def overlap(label: str, words: Sequence[str]) -> int:
        return int(original(label, list(dict.fromkeys(words))))

    swap(d, "overlap", overlap)


def _scoped_pipeline(**changes: Any) -> None:
    """Replace some of scoped-fusion's pipeline hooks (the pipeline reads PIPELINE per search)."""
    pkg = _mod("reference.profiles.scoped_fusion")
    set_attr(pkg, "PIPELINE", replace(pkg.PIPELINE, **changes))


@mutant(
    "scoped-no-headroom",
    "SCOPE-7",
    "the BM25 leg asks candidateK, as the core does, so the filter under-serves it",
)
def _scoped_no_headroom() -> None:
    f = _mod("reference.profiles.scoped_fusion.scope_filter")
    swap(f, "bm25_limit", lambda candidate_k, options: candidate_k)


@mutant(
    "scoped-headroom-every-leg",
    "SCOPE-7",
    "the vector (and graph) leg asks candidateK x headroom too, not only BM25",
)
def _scoped_headroom_every_leg() -> None:
    h = _mod("reference.profiles.scoped_fusion.hooks")
    f = _mod("reference.profiles.scoped_fusion.scope_filter")
    swap(h, "leg_limit", lambda options, leg, candidate_k: f.bm25_limit(candidate_k, options))


@mutant(
    "scoped-weights-clamped",
    "SCOPE-2",
    "a weight above maxWeight is clamped to it instead of rejected",
)
def _scoped_weights_clamped() -> None:
    def adjust(call: Any, query: str, weights: dict[str, float]) -> dict[str, float]:
        call.trace.setdefault("legs", {})
        return {k: min(v, call.options.max_weight) for k, v in weights.items()}

    _scoped_pipeline(adjust_weights=adjust)


@mutant(
    "scoped-filter-after-fusion",
    "SCOPE-6",
    "the legs are fused unfiltered and the fused list is filtered (merged metadata, old ranks)",
)
def _scoped_filter_after_fusion() -> None:
    h = _mod("reference.profiles.scoped_fusion.hooks")
    f = _mod("reference.profiles.scoped_fusion.scope_filter")
    original = h.filter_hits
    set_attr(h, "filter_hits", lambda hits, options: f.Filtered(kept=list(hits)))

    def after_fusion(options: Any, items: list[Any]) -> list[Any]:
        kept = original([item.candidate for item in items], options).kept
        ids = {c.id for c in kept}
        return [item for item in items if item.id in ids]

    swap(h, "after_fusion", after_fusion)


@mutant(
    "scoped-filter-after-ladder",
    "SCOPE-8",
    "BM25 hits are filtered once, after the ladder, so an all-removed initial search ends the leg",
)
def _scoped_filter_after_ladder() -> None:
    h = _mod("reference.profiles.scoped_fusion.hooks")
    f = _mod("reference.profiles.scoped_fusion.scope_filter")
    p = _mod("reference.pipeline")
    original_filter = h.filter_hits
    original_run = p._run_bm25
    in_bm25 = [False]

    def filter_hits(hits: Any, options: Any) -> Any:
        return f.Filtered(kept=list(hits)) if in_bm25[0] else original_filter(hits, options)

    def run_bm25(req: Any, backends: Any, query: str, profiles: Any) -> Any:
        in_bm25[0] = True
        try:
            result = original_run(req, backends, query, profiles)
        finally:
            in_bm25[0] = False
        for _, call in profiles.calls:
            if call.name == "scoped-fusion":
                result.hits = original_filter(result.hits, call.options).kept
        return result

    set_attr(h, "filter_hits", filter_hits)
    swap(p, "_run_bm25", run_bm25)


@mutant(
    "graph-runs-in-every-mode",
    "GRAPH-3",
    "the graph leg runs whenever a graph is configured, in bm25 mode too",
)
def _graph_every_mode() -> None:
    swap(_mod("reference.pipeline"), "graph_in_mode", lambda effective_mode: True)


@mutant("graph-fused-first", "GRAPH-4", "the graph list is fused first, before bm25 and vector")
def _graph_fused_first() -> None:
    swap(_mod("reference.pipeline"), "FUSION_ORDER", ("graph", "bm25", "vector"))


@mutant(
    "graph-error-fails-call",
    "GRAPH-3",
    "a graph error fails the call, or two failed core legs fail it whatever the graph returned",
)
def _graph_error_fails() -> None:
    pipe = _mod("reference.pipeline")

    def every_leg_failed(errors: Any) -> bool:
        return any(error is not None for error in errors)

    swap(pipe, "every_leg_failed", every_leg_failed)


@mutant(
    "graph-votes-in-unanimity",
    "GRAPH-4",
    "the graph leg's hits replace the vector leg's in the unanimity vote",
)
def _graph_votes() -> None:
    pipe = _mod("reference.pipeline")
    original = pipe._run_listing_leg
    last: list[Any] = []

    def run_listing_leg(search_fn: Any, candidate_k: int) -> Any:
        leg = original(search_fn, candidate_k)
        last.append(leg)
        return leg

    def voters(bm25: Any, vleg: Any) -> Any:
        if bm25 is None or not vleg.ran:
            return None
        graph = last[-1] if len(last) > 1 else vleg
        last.clear()
        return [c.id for c in bm25.hits], [c.id for c in graph.hits]

    swap(pipe, "_run_listing_leg", run_listing_leg)
    swap(pipe, "unanimity_voters", voters)


# -- profile temporal (spec/profiles/temporal.md) -----------------------------------------------


def _temporal_match_on(lower: Callable[[str], str], cut_original: bool = True) -> None:
    """A port that lowercases the query with `lower`, matches case-sensitively on that copy and
    cuts the original query at the positions it found (TEMPORAL-15)."""
    exp = _mod("reference.profiles.temporal.expand")

    def apply(pattern: re.Pattern[str], resolve: Any, s: str, anchor: int, hints: list[str]) -> str:
        lowered = lower(s)
        plain = re.compile(pattern.pattern, re.ASCII)
        out: list[str] = []
        pos = 0
        for m in plain.finditer(lowered):
            resolved = resolve(m.group(0), anchor)
            out.append((s if cut_original else lowered)[pos : m.end()])
            if resolved is not None:
                out.append(" " + resolved[0])
                hints.extend(resolved[1])
            pos = m.end()
        out.append((s if cut_original else lowered)[pos:])
        return "".join(out)

    set_attr(exp, "_apply", apply)
    set_attr(exp, "ascii_lower", lower)


@mutant(
    "temporal-month-clamp",
    "TEMPORAL-12",
    "N months ago clamps to the target month's last day (Java minusMonths, dateutil)",
)
def _temporal_month_clamp() -> None:
    civil = _mod("reference.profiles.temporal.civil")

    def months_back(anchor: int, count: int) -> int | None:
        y, m, d = civil.civil_from_days(anchor)
        index = y * 12 + (m - 1) - count
        ty, tm = index // 12, index % 12 + 1
        if ty < 1:
            return None
        return int(civil.days_from_civil(ty, tm, min(d, civil.days_in_month(ty, tm))))

    set_attr(civil, "months_back", months_back)


@mutant(
    "temporal-wall-clock",
    "TEMPORAL-5",
    "an absent or unparseable questionDate falls back to today's date from the clock",
)
def _temporal_wall_clock() -> None:
    import datetime

    exp = _mod("reference.profiles.temporal.expand")
    original = exp.parse_question_date

    def parse(value: str) -> int | None:
        day = original(value)
        if day is None:
            today = datetime.datetime.now(datetime.UTC).date()
            day = today.toordinal() - datetime.date(1970, 1, 1).toordinal()
        return int(day)

    set_attr(exp, "parse_question_date", parse)
    expand = exp.expand

    def expand_with_clock(query: str, question_date: str | None) -> Any:
        return expand(query, "" if question_date is None else question_date)

    swap(exp, "expand", expand_with_clock)


@mutant(
    "temporal-turkish-lowercase",
    "TEMPORAL-15",
    "the query is lowercased under a Turkish locale before matching (I becomes dotless ı)",
)
def _temporal_turkish() -> None:
    _temporal_match_on(lambda s: s.replace("I", "\u0131").replace("\u0130", "i").lower())


@mutant(
    "temporal-full-lowercase-positions",
    "TEMPORAL-15",
    "the query is fully lowercased (İ becomes two code points) and the original is cut at the "
    "lowercased copy's positions",
)
def _temporal_full_lower() -> None:
    _temporal_match_on(str.lower)


@mutant(
    "temporal-go-tolower",
    "TEMPORAL-15",
    "Go strings.ToLower before matching: İ becomes i, so FRİDAY is friday",
)
def _temporal_go_tolower() -> None:
    _temporal_match_on(lambda s: "".join("i" if ch == "\u0130" else ch.lower() for ch in s))


@mutant(
    "temporal-unicode-casefold",
    "TEMPORAL-15",
    "recognisers compiled with re.IGNORECASE but without re.ASCII (ſ, ı fold onto s, i)",
)
def _temporal_unicode_casefold() -> None:
    rec = _mod("reference.profiles.temporal.recognisers")
    original = rec.recognisers

    def recognisers() -> Any:
        r = original()
        patterns = tuple((n, re.compile(p.pattern, re.IGNORECASE)) for n, p in r.patterns)
        return replace(r, patterns=patterns)

    for module in ("reference.profiles.temporal.recognisers", "reference.profiles.temporal.expand"):
        set_attr(_mod(module), "recognisers", recognisers)


@mutant(
    "temporal-weekday-from-monday",
    "TEMPORAL-10",
    "weekdays numbered from Monday (Python date.weekday()) against the Sunday-first list",
)
def _temporal_weekday_monday() -> None:
    set_attr(_mod("reference.profiles.temporal.civil"), "weekday", lambda days: (days + 3) % 7)


@mutant(
    "temporal-weekday-truncating-mod",
    "TEMPORAL-10",
    "the weekday uses a truncating % (JavaScript, Go), negative before 1970",
)
def _temporal_weekday_trunc() -> None:
    set_attr(
        _mod("reference.profiles.temporal.civil"),
        "weekday",
        lambda days: int(math.fmod(days + 4, 7)),
    )


@mutant(
    "temporal-last-weekday-includes-anchor",
    "TEMPORAL-18",
    "last <weekday> may be the anchor day itself (walks back 0..6 days)",
)
def _temporal_weekday_anchor() -> None:
    exp = _mod("reference.profiles.temporal.expand")
    civil = _mod("reference.profiles.temporal.civil")

    def last_weekday(match: str, anchor: int) -> Any:
        target = exp.recognisers().weekdays.index(match.split(" ")[-1])
        for back in range(7):
            if civil.weekday(anchor - back) == target:
                return f"({civil.slash(anchor - back)})", [civil.slash(anchor - back)]
        return None

    exp._RESOLVERS["last_weekday"] = last_weekday


@mutant(
    "temporal-date-rolls-over",
    "TEMPORAL-8",
    "an impossible questionDate rolls forward like JavaScript Date.UTC (2026-02-29 is March 1)",
)
def _temporal_date_rolls() -> None:
    ad = _mod("reference.profiles.temporal.anchor_date")
    civil = _mod("reference.profiles.temporal.civil")

    def date(y: str, m: str, d: str) -> int | None:
        year, month, day = int(y), int(m), int(d)
        if not (1 <= month <= 12 and 1 <= day <= 31):
            return None
        return int(civil.days_from_civil(year, month, 1)) + day - 1

    set_attr(ad, "_date", date)


@mutant(
    "temporal-year-unpadded",
    "TEMPORAL-13",
    "the year is not zero-padded to four digits (Python strftime %Y on glibc writes 50)",
)
def _temporal_year_unpadded() -> None:
    civil = _mod("reference.profiles.temporal.civil")

    def slash(days: int) -> str:
        y, m, d = civil.civil_from_days(days)
        return f"{y}/{m:02d}/{d:02d}"

    set_attr(civil, "slash", slash)


@mutant(
    "temporal-years-below-100-are-1900s",
    "TEMPORAL-9",
    "the anchor is built with JavaScript Date.UTC, which reads years 0..99 as 1900..1999",
)
def _temporal_date_utc_years() -> None:
    ad = _mod("reference.profiles.temporal.anchor_date")
    original = ad._date

    def date(y: str, m: str, d: str) -> int | None:
        year = int(y)
        return original(str(year + 1900).zfill(4) if year < 100 else y, m, d)  # type: ignore[no-any-return]

    set_attr(ad, "_date", date)


@mutant(
    "temporal-first-match-only",
    "TEMPORAL-17",
    "only the first match of each recogniser expands (the anchor's Python re.search)",
)
def _temporal_first_match() -> None:
    exp = _mod("reference.profiles.temporal.expand")
    original = exp._apply

    def apply(pattern: re.Pattern[str], resolve: Any, s: str, anchor: int, hints: list[str]) -> str:
        m = pattern.search(s)
        if m is None:
            return s
        head = original(pattern, resolve, s[: m.end()], anchor, hints)
        return str(head) + s[m.end() :]

    set_attr(exp, "_apply", apply)


@mutant(
    "temporal-note-without-date",
    "TEMPORAL-20",
    "the ordering note is appended even when no date resolved (the anchor's TypeScript)",
)
def _temporal_note_unresolved() -> None:
    exp = _mod("reference.profiles.temporal.expand")
    original = exp.expand

    def expand(query: str, question_date: str | None) -> Any:
        e = original(query, question_date)
        if e.resolved or question_date is None or exp.parse_question_date(question_date) is None:
            return e
        note = exp._ordering_note(query)
        return e if note is None else replace(e, expanded_query=f"{query} {note}")

    swap(exp, "expand", expand)


@mutant(
    "temporal-dates-unquoted",
    "TEMPORAL-20",
    "the augmented query appends the dates as bare words, which the DSL strips to 20260417",
)
def _temporal_unquoted() -> None:
    exp = _mod("reference.profiles.temporal.expand")
    original = exp.expand

    def expand(query: str, question_date: str | None) -> Any:
        e = original(query, question_date)
        return replace(e, augmented_query=e.augmented_query.replace('"', ""))

    swap(exp, "expand", expand)


@mutant(
    "temporal-raw-query",
    "TEMPORAL-14",
    "the recognisers run on the raw query, not the normalised one",
)
def _temporal_raw_query() -> None:
    set_attr(_mod("reference.profiles.temporal.expand"), "_normalise", lambda s: s)


@mutant(
    "temporal-no-range-check",
    "TEMPORAL-11",
    "dates outside 0001..9999 are expanded anyway",
)
def _temporal_no_range() -> None:
    civil = _mod("reference.profiles.temporal.civil")
    set_attr(civil, "in_range", lambda days: True)


@mutant(
    "temporal-offset-ignored",
    "TEMPORAL-7",
    "an ISO offset is ignored: the local date is taken as the UTC date",
)
def _temporal_offset_ignored() -> None:
    ad = _mod("reference.profiles.temporal.anchor_date")
    original = ad.parse_question_date

    def parse(value: str) -> int | None:
        cut = re.sub(r"(T[0-9:.]+)(?:Z|[-+][0-9]{2}:[0-9]{2})$", r"\1", value.strip())
        return original(cut)  # type: ignore[no-any-return]

    swap(ad, "parse_question_date", parse)


@mutant(
    "temporal-searches-expanded-query",
    "TEMPORAL-21",
    "the pipeline searches expandedQuery (with its (around ...) suffixes), not augmentedQuery",
)
def _temporal_searches_expanded() -> None:
    pipe = _mod("reference.profiles.temporal.pipeline")
    original = pipe.rewrite_query

    def rewrite(call: Any, query: str) -> str:
        original(call, query)
        return str(call.trace["expandedQuery"])

    object.__setattr__(pipe.PIPELINE, "rewrite_query", rewrite)
# -- profile gbrain (spec/profiles/gbrain.md) ----------------------------------------------------


def _gbrain(name: str) -> ModuleType:
    return _mod(f"reference.profiles.gbrain.{name}")


@mutant("gbrain-edges-utf16-order", "GBRAIN-9", "edges sorted by UTF-16 code units (JS sort)")
def _gbrain_utf16() -> None:
    links = _gbrain("links")
    original = links.extract_links

    def utf16(text: str) -> bytes:
        return text.encode("utf-16-be")

    def extract_links(path: str, markdown: str) -> Any:
        page, edges = original(path, markdown)
        return page, sorted(edges, key=lambda e: (utf16(e.target), utf16(e.type)))

    swap(links, "extract_links", extract_links)


@mutant("gbrain-code-spans-kept", "GBRAIN-4", "code spans and escapes are not blanked")
def _gbrain_code_spans() -> None:
    swap(_gbrain("links"), "blank_line", lambda line: line)


@mutant("gbrain-tilde-fence-ignored", "GBRAIN-3", "only backtick fences hide code, not ~~~")
def _gbrain_tilde() -> None:
    links = _gbrain("links")
    original = links.code_lines

    def code_lines(lines: list[str]) -> Any:
        return original([line.replace("~", "x") for line in lines])

    swap(links, "code_lines", code_lines)


@mutant(
    "gbrain-markdown-on-unmasked-line",
    "GBRAIN-5",
    "the markdown pattern also runs over wikilinks, so [[a]](b) links to b as well",
)
def _gbrain_unmasked() -> None:
    links = _gbrain("links")

    def link_spans(line: str, table: Any) -> list[Any]:
        spans = [
            links._Span(m.start(), m.end(), m.group(table.wikilink_group))
            for m in table.wikilink.finditer(line)
        ]
        for m in table.markdown.finditer(line):
            if m.start() > 0 and line[m.start() - 1] == "!":
                continue
            spans.append(links._Span(m.start(), m.end(), m.group(table.markdown_group)))
        return sorted(spans, key=lambda s: s.start)

    swap(links, "link_spans", link_spans)


@mutant("gbrain-relative-from-root", "GBRAIN-6", "./ and ../ resolve from the root, not the page")
def _gbrain_relative() -> None:
    links = _gbrain("links")
    original = links.resolve

    def resolve(target: str, base: tuple[str, ...]) -> Any:
        return original(target, ())

    swap(links, "resolve", resolve)


@mutant("gbrain-anchor-kept", "GBRAIN-6", "the #anchor stays part of the target")
def _gbrain_anchor() -> None:
    links = _gbrain("links")
    original = links.target_page

    def target_page(target: str, base: tuple[str, ...]) -> Any:
        return original(target.replace("#", "%23"), base)

    swap(links, "target_page", target_page)


@mutant(
    "gbrain-first-type-wins",
    "GBRAIN-8",
    "the first type of the table found anywhere in the window wins, whatever the distance",
)
def _gbrain_first_type() -> None:
    links = _gbrain("links")
    original = links.infer_type

    def infer_type(line: str, span: Any, spans: Any, ends: Any, table: Any) -> Any:
        types = [t for t, _ in table.triggers]
        found = {
            original(line, span, spans, ends, replace(table, triggers=(entry,)))
            for entry in table.triggers
        }
        hits = [t for t in types if t in found]
        return hits[0] if hits else table.default_type

    swap(links, "infer_type", infer_type)


@mutant("gbrain-unicode-lowercase-words", "GBRAIN-8", "words are lowercased with full Unicode")
def _gbrain_unicode_lower() -> None:
    links = _gbrain("links")

    def words(text: str) -> list[str]:
        return re.findall(r"[a-z0-9]+", text.lower())

    swap(links, "_words", words)


@mutant("gbrain-typed-label-verbatim", "GBRAIN-7", "the typed label is only lowercased")
def _gbrain_label() -> None:
    links = _gbrain("links")

    def typed_label(line: str, table: Any) -> Any:
        m = table.typed.search(line)
        return None if m is None else m.group(table.typed_group).lower()

    swap(links, "typed_label", typed_label)


@mutant("gbrain-dedup-by-target", "GBRAIN-9", "edges are unique by target, the first type kept")
def _gbrain_dedup() -> None:
    links = _gbrain("links")
    original = links.extract_links

    def extract_links(path: str, markdown: str) -> Any:
        page, edges = original(path, markdown)
        seen: set[str] = set()
        kept = []
        for edge in edges:
            if edge.target not in seen:
                seen.add(edge.target)
                kept.append(edge)
        return page, kept

    swap(links, "extract_links", extract_links)


@mutant("gbrain-walk-out-only", "GBRAIN-10", "the default direction is out, not both")
def _gbrain_out_only() -> None:
    traverse = _gbrain("traverse")
    original = traverse.walk_options

    def walk_options(obj: Any, where: str) -> Any:
        opts = original(obj, where)
        return opts if obj.get("direction") is not None else replace(opts, direction="out")

    swap(traverse, "walk_options", walk_options)


@mutant(
    "gbrain-fanout-before-exclusion",
    "GBRAIN-11",
    "fan-out takes the first neighbours before dropping pages already reached",
)
def _gbrain_fanout() -> None:
    traverse = _gbrain("traverse")

    def walk(adjacent: Any, seeds: Any, options: Any) -> Any:
        depth_of = {seed: 0 for seed in seeds}
        support = {seed: 0 for seed in seeds}
        level = sorted(seeds)
        for d in range(options.depth):
            nxt: list[str] = []
            for page in level:
                for n in sorted(adjacent.get(page, ()))[: options.fanout]:
                    if n in depth_of and depth_of[n] <= d:
                        continue
                    if n not in depth_of:
                        depth_of[n] = d + 1
                        support[n] = 0
                        nxt.append(n)
                    support[n] += 1
            level = sorted(nxt)
        ranked = sorted(depth_of, key=lambda p: (depth_of[p], -support[p], p))
        return [traverse.Reached(p, depth_of[p], support[p]) for p in ranked]

    swap(traverse, "walk", walk)


@mutant("gbrain-rank-ignores-support", "GBRAIN-12", "reached pages rank by depth, then id only")
def _gbrain_rank() -> None:
    traverse = _gbrain("traverse")
    original = traverse.walk

    def walk(adjacent: Any, seeds: Any, options: Any) -> Any:
        return sorted(original(adjacent, seeds, options), key=lambda r: (r.depth, r.page))

    swap(traverse, "walk", walk)


@mutant("gbrain-seed-substring", "GBRAIN-14", "a page is a seed when its name is a substring")
def _gbrain_seed_substring() -> None:
    graph = _gbrain("graph_leg")

    def occurs(name: list[str], query: list[str]) -> bool:
        return " ".join(name) in " ".join(query) or "".join(name) in "".join(query)

    swap(graph, "_occurs", occurs)


@mutant("gbrain-reached-counts-hits", "GBRAIN-15", "reached counts the hits kept by the limit")
def _gbrain_reached() -> None:
    graph = _gbrain("graph_leg")
    original = graph.GbrainGraphBackend.search_graph

    def search_graph(self: Any, query: str, limit: int) -> Any:
        hits = original(self, query, limit)
        if "reached" in self._trace:
            self._trace["reached"] = len(hits)
        return hits

    set_attr(graph.GbrainGraphBackend, "search_graph", search_graph)


def _gbrain_hooks(**changes: Any) -> None:
    """Replace hooks of the gbrain PIPELINE (the dataclass holds the functions themselves)."""
    package = _mod("reference.profiles.gbrain")
    set_attr(package, "PIPELINE", replace(package.PIPELINE, **changes))


@mutant(
    "gbrain-exclude-after-cut",
    "GBRAIN-16",
    "excluded pages are dropped after the candidateK cut (post-rank), so they still use up a rank",
)
def _gbrain_exclude_after_cut() -> None:
    _gbrain_hooks(leg_limit=None)


@mutant("gbrain-dedup-missing", "GBRAIN-17", "several chunks of one page all come back")
def _gbrain_dedup_missing() -> None:
    swap(_gbrain("graph_leg"), "dedup", lambda items: items)


@mutant("gbrain-dedup-by-path-string", "GBRAIN-17", "dedup keys on the path string, not the page")
def _gbrain_dedup_by_path() -> None:
    graph = _gbrain("graph_leg")

    def dedup(items: Any) -> Any:
        seen: set[str] = set()
        out = []
        for item in items:
            if item.path not in seen:
                seen.add(item.path)
                out.append(item)
        return out

    swap(graph, "dedup", dedup)


@mutant(
    "gbrain-boost-float-order",
    "GBRAIN-18",
    "boosted items are ordered by their binary64 scores (stable sort), not the exact values",
)
def _gbrain_boost_float() -> None:
    graph = _gbrain("graph_leg")
    original = graph.boost

    def boost(options: Any, items: Any) -> Any:
        boosted = original(options, items)
        by_id = {item.id: item for item in boosted}
        kept = [by_id[item.id] for item in items]
        return sorted(kept, key=lambda item: -item.score)

    swap(graph, "boost", boost)


@mutant("gbrain-intent-substring", "GBRAIN-19", "triggers match as substrings of the query")
def _gbrain_intent_substring() -> None:
    routing = _gbrain("routing")

    def contains(query: list[str], trigger: tuple[str, ...]) -> bool:
        return " ".join(trigger) in " ".join(query)

    swap(routing, "_contains", contains)


@mutant("gbrain-intent-entity-first", "GBRAIN-19", "entity is tried before temporal and event")
def _gbrain_entity_first() -> None:
    routing = _gbrain("routing")
    original = routing.intent_table

    def intent_table() -> Any:
        table = original()
        ordered = sorted(table.classes, key=lambda c: c[0] != "entity")
        return replace(table, classes=tuple(ordered))

    swap(routing, "intent_table", intent_table)


@mutant("gbrain-temporal-keeps-boost", "GBRAIN-20", "temporal queries are boosted like the rest")
def _gbrain_temporal_boost() -> None:
    original = _gbrain("graph_leg").after_fusion

    def after_fusion(call: Any, query: str, items: Any) -> Any:
        saved = call.trace.get("intent")
        call.trace["intent"] = "general"
        try:
            return original(call, query, items)
        finally:
            call.trace["intent"] = saved

    _gbrain_hooks(after_fusion=after_fusion)


@mutant("gbrain-entity-weight-ignored", "GBRAIN-20", "entity queries leave the graph weight at 1")
def _gbrain_entity_weight() -> None:
    swap(_gbrain("routing"), "route_weights", lambda intent, weights: weights)


@mutant(
    "gbrain-budget-skips-large-items",
    "GBRAIN-21",
    "an item over the remaining budget is skipped and smaller later items still fill it",
)
def _gbrain_budget_skip() -> None:
    graph = _gbrain("graph_leg")
    words = _mod("reference.text").words

    def within_budget(call: Any, budget: int, items: Any) -> Any:
        used, out = 0, []
        for item in items:
            tokens = len(words(item.content))
            if used + tokens <= budget:
                used += tokens
                out.append(item)
        call.trace["budget"] = {"limit": budget, "used": used, "dropped": len(items) - len(out)}
        return out

    swap(graph, "within_budget", within_budget)


@mutant("gbrain-budget-counts-code-points", "GBRAIN-21", "tokens are counted as code points / 4")
def _gbrain_budget_chars() -> None:
    graph = _gbrain("graph_leg")

    def within_budget(call: Any, budget: int, items: Any) -> Any:
        used, kept = 0, 0
        for item in items:
            tokens = -(-len(item.content) // 4)
            if used + tokens > budget:
                break
            used, kept = used + tokens, kept + 1
        call.trace["budget"] = {"limit": budget, "used": used, "dropped": len(items) - kept}
        return items[:kept]

    swap(graph, "within_budget", within_budget)


# -- profile engram (spec/profiles/engram.md) --------------------------------------------------


def _engram(module: str) -> ModuleType:
    return _mod(f"reference.profiles.engram.{module}")


def _engram_classify_with(pick: Callable[[str, list[tuple[str, re.Pattern[str]]]], str]) -> None:
    """Replace the class choice; `matched` keeps table order so only the precedence differs."""
    table = _engram("table")
    original = table.classify

    def classify(query: str) -> Any:
        got = original(query)
        t = table.table()
        text = _mod("reference.text").fold(query)
        hits = [(n, rx) for n, rx in t.patterns if rx.search(text)]
        intent = pick(text, hits) if hits else t.default
        return table.Classification(intent, got.matched, dict(t.weights[intent]))

    swap(table, "classify", classify)


@mutant("engram-precedence-leftmost", "ENGRAM-3",
        "the pattern whose match starts first in the query wins, not the first in table order")
def _engram_leftmost() -> None:
    def pick(text: str, hits: list[tuple[str, re.Pattern[str]]]) -> str:
        return min(hits, key=lambda h: (h[1].search(text).start(), 0))[0]  # type: ignore[union-attr]

    _engram_classify_with(pick)


@mutant("engram-precedence-last", "ENGRAM-3",
        "the last matching pattern wins (a loop that keeps overwriting, or a reversed map)")
def _engram_last() -> None:
    _engram_classify_with(lambda text, hits: hits[-1][0])


@mutant("engram-unicode-regex", "ENGRAM-2",
        "patterns compiled with Python's Unicode re and IGNORECASE: é is a word character, ſ is s")
def _engram_unicode_regex() -> None:
    table = _engram("table")
    table.table.cache_clear()
    data = _mod("reference.data").load_json(table.DATA_FILE)
    patterns = tuple((p["name"], re.compile(p["source"], re.IGNORECASE)) for p in data["patterns"])
    real = table.table()
    set_attr(table, "table", lambda: replace(real, patterns=patterns))


@mutant("engram-weights-replace", "ENGRAM-5",
        "the class's weights replace the request's instead of multiplying them")
def _engram_weights_replace() -> None:
    pipe = _engram("pipeline")
    original = pipe.adjust_weights

    def adjust(call: Any, query: str, weights: dict[str, float]) -> dict[str, float]:
        return dict(original(call, query, {"bm25": 1.0, "vector": 1.0, "graph": 1.0}))

    swap(pipe, "adjust_weights", adjust)
    hooks = _mod("reference.profiles.engram").PIPELINE
    set_attr(_mod("reference.profiles.engram"), "PIPELINE", replace(hooks, adjust_weights=adjust))
    set_attr(pipe, "PIPELINE", replace(hooks, adjust_weights=adjust))


@mutant("engram-decay-ln2", "ENGRAM-9", "recency decays with ln 2 instead of the seed's 0.693")
def _engram_ln2() -> None:
    set_attr(_engram("boost"), "DECAY", -math.log(2))


@mutant("engram-no-floor", "ENGRAM-9", "recency decay without the 0.5 floor")
def _engram_no_floor() -> None:
    set_attr(_engram("boost"), "FLOOR", 0.0)


@mutant("engram-floor-on-product", "ENGRAM-11",
        "the 0.5 floor applied to recency x access instead of to recency alone")
def _engram_floor_product() -> None:
    b = _engram("boost")
    original = b.factors

    def factors(metadata: Any, wanted: Any, now: int, half: float) -> Any:
        f = original(metadata, wanted, now, half)
        if f.age_days is None or metadata.get(b.KIND_KEY) != b.EPISODIC:
            return f
        raw = b.exp((b.DECAY * f.age_days) / half)
        return replace(f, recency=max(raw * f.access, 0.5) / f.access)

    swap(b, "factors", factors)


@mutant("engram-floor-after-date", "ENGRAM-11",
        "the 0.5 floor applied to date x recency, so a date match lifts an old memory above it")
def _engram_floor_after_date() -> None:
    b = _engram("boost")
    original = b.boosted

    def boosted(score: float, f: Any) -> float:
        if f.date_match and f.recency == 0.5 and f.age_days is not None:
            raw = b.exp((b.DECAY * f.age_days) / b.DEFAULT_HALF_LIFE_DAYS)
            return float((score * max(2.0 * raw, 0.5)) * f.access)
        return float(original(score, f))

    swap(b, "boosted", boosted)


@mutant("engram-access-log10", "ENGRAM-10", "access frequency with a decimal logarithm")
def _engram_log10() -> None:
    set_attr(_engram("boost"), "log", math.log10)


@mutant("engram-access-log-count", "ENGRAM-10",
        "access frequency from log(count), not log(1 + count)")
def _engram_log_count() -> None:
    b = _engram("boost")
    swap(b, "access", lambda count: b.ACCESS_BASE + b.ACCESS_SCALE * math.log(max(count, 1)))


@mutant("engram-access-lenient-count", "ENGRAM-6",
        "access counts read with int(): leading zeros, signs and spaces accepted")
def _engram_lenient_count() -> None:
    b = _engram("boost")

    def access_count(metadata: Any) -> int:
        try:
            return max(int(float(metadata.get(b.ACCESS_KEY, "0"))), 0)
        except ValueError:
            return 0

    swap(b, "access_count", access_count)


@mutant("engram-ties-by-path", "ENGRAM-11",
        "equal boosted scores ordered by id instead of input order")
def _engram_ties_by_path() -> None:
    ops = _engram("ops")
    original = ops.boost_items

    def boost_items(query: str, opts: Any, items: Any) -> Any:
        wanted, records = original(query, opts, items)
        return wanted, sorted(records, key=lambda r: (-r["score"], r["id"]))

    swap(ops, "boost_items", boost_items)


@mutant("engram-age-whole-days", "ENGRAM-7", "ageDays truncated to whole days")
def _engram_whole_days() -> None:
    d = _engram("dates")
    swap(d, "age_days", lambda now, then: float(max(0, now - then) // d.SECONDS_PER_DAY))


@mutant("engram-date-utc-two-digit-years", "ENGRAM-7",
        "years 0..99 read as 1900..1999, as JavaScript's Date.UTC does")
def _engram_two_digit_years() -> None:
    d = _engram("dates")
    original = d.days_from_civil
    swap(d, "days_from_civil", lambda y, m, day: original(y + 1900 if y < 100 else y, m, day))


@mutant("engram-leap-every-fourth-year", "ENGRAM-7",
        "every fourth year is a leap year (no 100/400 rule)")
def _engram_leap() -> None:
    d = _engram("dates")
    original = d.days_in_month

    def days_in_month(year: int, month: int) -> int:
        return 29 if month == 2 and year % 4 == 0 else int(original(year, month))

    def days_from_civil(year: int, month: int, day: int) -> int:
        # 1900-03-01 minus 1900-02-28 becomes 2: count a 29 February that does not exist.
        extra = 1 if (year % 100 == 0 and year % 400 != 0 and month > 2) else 0
        return int(civil(year, month, day)) + extra

    civil = d.days_from_civil
    swap(d, "days_in_month", days_in_month)
    swap(d, "days_from_civil", days_from_civil)


@mutant("engram-no-future-clamp", "ENGRAM-7",
        "a memory dated after now gets a negative age, so its recency exceeds 1.0")
def _engram_no_clamp() -> None:
    d = _engram("dates")
    swap(d, "age_days", lambda now, then: (now - then) / d.SECONDS_PER_DAY)


@mutant("engram-date-match-without-boundary", "ENGRAM-8",
        "query dates found without \\b, so 2026-02-14T10:00 still matches")
def _engram_date_no_boundary() -> None:
    set_attr(_engram("dates"), "QUERY_DATE", re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", re.ASCII))


@mutant("engram-kind-case-insensitive", "ENGRAM-9", "the kind compared case-insensitively")
def _engram_kind_ci() -> None:
    b = _engram("boost")
    original = b.factors

    def factors(metadata: Any, wanted: Any, now: int, half: float) -> Any:
        m = dict(metadata)
        if isinstance(m.get(b.KIND_KEY), str):
            m[b.KIND_KEY] = m[b.KIND_KEY].lower()
        return original(m, wanted, now, half)

    swap(b, "factors", factors)


@mutant("engram-now-defaults-to-clock", "ENGRAM-7", "a missing now falls back to the wall clock")
def _engram_clock() -> None:
    o = _engram("options")
    original = o.parse

    def parse(obj: Any, where: str, allowed: Any) -> Any:
        if obj.get("now") is None:
            import datetime

            obj = {**obj, "now": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d")}
        return original(obj, where, allowed)

    swap(o, "parse", parse)


@mutant("engram-threshold-inclusive", "ENGRAM-14", "a score equal to minScore is removed")
def _engram_threshold_inclusive() -> None:
    ops = _engram("ops")

    def threshold(items: Any, min_score: float) -> Any:
        kept = [i for i, s in items if s is None or s > min_score]
        return kept, [i for i, s in items if s is not None and s <= min_score]

    swap(ops, "threshold", threshold)


@mutant("engram-threshold-gates-unscored", "ENGRAM-14",
        "items without a rerankScore (tail, reranker not run) are removed too")
def _engram_threshold_unscored() -> None:
    ops = _engram("ops")

    def threshold(items: Any, min_score: float) -> Any:
        kept = [i for i, s in items if s is not None and s >= min_score]
        return kept, [i for i, s in items if s is None or s < min_score]

    swap(ops, "threshold", threshold)


@mutant("engram-seed-claim-holds", "ENGRAM-5",
        "RRF without the constant (k = 0), the only reading under which the seed's claim holds")
def _engram_seed_claim() -> None:
    set_attr(_mod("reference.rrf"), "DEFAULT_K", 0)


# -- profile engram: the threshold in the pipeline (ENGRAM-14, PIPE-11) --------------------------


def _engram_pipeline_threshold_variant(drop: Any, always: bool = False) -> None:
    """Replace engram's after_rerank with one that removes the ids `drop(score, min)` picks."""
    pipe = _mod("reference.profiles.engram.pipeline")

    def after_rerank(call: Any, query: str, entries: Any, outcome: str) -> list[str]:
        min_score = call.options.min_score
        if min_score is None:
            return [i for i, _ in entries]
        applied = always or outcome == "reranked"
        removed = [i for i, s in entries if applied and drop(s, min_score)]
        call.trace["threshold"] = {"minScore": min_score, "applied": applied, "removed": removed}
        return [i for i, _ in entries if i not in removed]

    object.__setattr__(pipe.PIPELINE, "after_rerank", after_rerank)


@mutant(
    "engram-pipeline-threshold-any-outcome",
    "ENGRAM-14",
    "the threshold applies (and gates fused scores) even when the cross-encoder did not run",
)
def _engram_pipeline_threshold_always() -> None:
    _engram_pipeline_threshold_variant(lambda s, m: (s if s is not None else 0.0) < m, always=True)


@mutant(
    "engram-pipeline-threshold-drops-unscored",
    "ENGRAM-14",
    "an item without a rerankScore (the tail) counts as 0 and is removed",
)
def _engram_pipeline_threshold_unscored() -> None:
    _engram_pipeline_threshold_variant(lambda s, m: (s if s is not None else 0.0) < m)


@mutant(
    "engram-pipeline-threshold-strict", "ENGRAM-14", "a rerank score equal to minScore is removed"
)
def _engram_pipeline_threshold_strict() -> None:
    _engram_pipeline_threshold_variant(lambda s, m: s is not None and s <= m)


@mutant(
    "engram-pipeline-threshold-after-topk",
    "PIPE-11",
    "the post-rerank removals run after the topK cut, so a removed item leaves a hole",
)
def _engram_pipeline_threshold_after_topk() -> None:
    pipe = _mod("reference.pipeline")
    original = pipe._Profiles.after_rerank

    def after_rerank(self: Any, query: str, items: Any, outcome: Any) -> Any:
        top_k = LAST_TOP_K[0]
        return original(self, query, list(items)[:top_k], outcome)

    original_parse = pipe.parse_request

    def parse_request(obj: Any) -> Any:
        req = original_parse(obj)
        LAST_TOP_K[0] = req.top_k
        return req

    set_attr(pipe._Profiles, "after_rerank", after_rerank)
    swap(pipe, "parse_request", parse_request)


LAST_TOP_K = [10]


@mutant(
    "pipe-unknown-profile-ignored",
    "PIPE-10",
    "a request naming a profile the port does not implement is served as if it named none",
)
def _pipe_unknown_profile_ignored() -> None:
    request = _mod("reference.request")
    original = request._profiles

    def profiles(raw: Any) -> Any:
        from reference.profiles import discover

        known = discover()
        if isinstance(raw, dict):
            raw = {k: v for k, v in raw.items() if k in known}
        return original(raw)

    swap(request, "_profiles", profiles)


@mutant(
    "graph-backend-both-hits-and-error-accepted",
    "GRAPH-2",
    "a scripted graph with both hits and error is accepted (hits win) instead of invalid_input",
)
def _graph_both_accepted() -> None:
    scripted = _mod("reference.backends.scripted")
    original = scripted._graph

    def graph(raw: Any) -> Any:
        if isinstance(raw, dict) and "hits" in raw:
            raw = {"hits": raw["hits"]}
        return original(raw)

    swap(scripted, "_graph", graph)


@mutant(
    "vector-order-by-float-similarity",
    "BACKEND-28",
    "hits ordered by the reported float similarity (ties by path), not the exact integer key",
)
def _vector_float_order() -> None:
    vector = _mod("reference.backends.vector")
    store = vector.MemoryVectorStore

    def top_exact(self: Any, vec: Any, limit: int) -> Any:
        found = old(self, vec, 2**31 - 1)
        if found is None:
            return None
        rows, dots, q_norm2 = found
        pairs = zip(rows, dots, strict=True)
        sims = [vector.similarity_float(d, q_norm2, self._norm2[i]) for i, d in pairs]
        order = sorted(range(len(rows)), key=lambda j: -sims[j])  # stable: (path, id) ties
        return [rows[j] for j in order][:limit], [dots[j] for j in order][:limit], q_norm2

    old = set_attr(store, "_top_exact", top_exact)


@mutant(
    "graph-trace-member-without-backend",
    "GRAPH-5",
    "the trace carries a graph member (not run, skip mode) even when no graph backend is set",
)
def _graph_member_always() -> None:
    _trace_member_always("graph", {"ran": False, "skip": "mode", "hits": 0, "error": None})


def _trace_member_always(member: str, value: Any) -> None:
    """Every search trace carries `member` (a copy of `value`) when the search left it out."""
    pipe = _mod("reference.pipeline")
    original = pipe.search

    def search(request: Any, backends: Any) -> Any:
        results, trace = original(request, backends)
        trace.setdefault(member, copy.deepcopy(value))
        return results, trace

    swap(pipe, "search", search)


@mutant(
    "trace-profiles-member-always",
    "TRACE-15",
    "the trace carries an empty profiles member when the request enables no profile",
)
def _profiles_member_always() -> None:
    _trace_member_always("profiles", {})


# -- query variants (spec/pipeline.md PIPE-12, spec/profiles/gbrain.md GBRAIN-22, GBRAIN-23) ----


@mutant(
    "pipe-variants-merged-by-score-sum",
    "PIPE-12",
    "the variants' fused lists merge by summing each item's fused scores, not by RRF of ranks",
)
def _pipe_variants_score_sum() -> None:
    pipe = _mod("reference.pipeline")
    rrf = _mod("reference.rrf")
    original = pipe.merge_variants

    def merge_variants(runs: Any, k: int) -> Any:
        lists, fused = original(runs, k)
        if len(runs) == 1:
            return lists, fused
        score: dict[str, float] = {}
        exact: dict[str, Fraction] = {}
        first: dict[str, Any] = {}
        for run in runs:
            for f in run.fused:
                score[f.id] = score.get(f.id, 0.0) + f.score
                exact[f.id] = exact.get(f.id, Fraction(0)) + f.exact
                first.setdefault(f.id, f.candidate)
        merged = [rrf.Fused(first[i], score[i], exact[i]) for i in first]
        merged.sort(key=lambda f: (-f.exact, f.candidate.path, f.id))
        return lists, merged

    swap(pipe, "merge_variants", merge_variants)


@mutant(
    "pipe-variants-not-deduplicated",
    "PIPE-12",
    "variants equal to the query or to each other after normalisation each run and vote again",
)
def _pipe_variants_no_dedup() -> None:
    pipe = _mod("reference.pipeline")

    def query_variants(query: str, profiles: Any) -> list[str]:
        return [query, *profiles.query_variants(query)]

    swap(pipe, "query_variants", query_variants)


@mutant("pipe-variants-ignored", "PIPE-12", "the profiles' query variants are never run")
def _pipe_variants_ignored() -> None:
    pipe = _mod("reference.pipeline")
    swap(pipe, "query_variants", lambda query, profiles: [query])


def _variant_runs_recorded() -> list[Any]:
    """Record every variant run of the current search (reset when the variant list is made)."""
    pipe = _mod("reference.pipeline")
    runs: list[Any] = []
    original_list = pipe.query_variants
    original_run = pipe._run_variant

    def query_variants(query: str, profiles: Any) -> list[str]:
        runs.clear()
        return list(original_list(query, profiles))

    def run_variant(*args: Any) -> Any:
        out = original_run(*args)
        runs.append(out)
        return out

    swap(pipe, "query_variants", query_variants)
    swap(pipe, "_run_variant", run_variant)
    return runs


@mutant(
    "pipe-variants-unanimity-last-variant",
    "PIPE-12",
    "the unanimity shortcut votes with the last variant's legs, not variant 0's",
)
def _pipe_variants_unanimity_last() -> None:
    pipe = _mod("reference.pipeline")
    runs = _variant_runs_recorded()
    original = pipe.unanimity_voters

    def voters(bm25: Any, vleg: Any) -> Any:
        return original(runs[-1].bm25, runs[-1].vleg) if runs else original(bm25, vleg)

    swap(pipe, "unanimity_voters", voters)


@mutant(
    "pipe-variants-unanimity-any-variant",
    "PIPE-12",
    "the unanimity shortcut fires when the legs of any variant agree",
)
def _pipe_variants_unanimity_any() -> None:
    pipe = _mod("reference.pipeline")
    unanimity = _mod("reference.unanimity")
    runs = _variant_runs_recorded()
    original = pipe.unanimity_voters

    def voters(bm25: Any, vleg: Any) -> Any:
        votes = [original(run.bm25, run.vleg) for run in runs] or [original(bm25, vleg)]
        cast = [v for v in votes if v is not None]
        if not cast:
            return None
        return max(cast, key=lambda v: unanimity.check(*v).agreements)

    swap(pipe, "unanimity_voters", voters)


@mutant(
    "pipe-variant-failure-fails-call",
    "PIPE-12",
    "a variant whose every leg errored fails the whole call although another variant succeeded",
)
def _pipe_variant_failure_fails() -> None:
    pipe = _mod("reference.pipeline")
    types = _mod("reference.types")
    original = pipe._run_variant

    def run_variant(*args: Any) -> Any:
        out = original(*args)
        if pipe.every_leg_failed(out.ran_errors):
            raise types.IndexError_("a variant failed")
        return out

    swap(pipe, "_run_variant", run_variant)


@mutant(
    "gbrain-bypass-follows-last-variant",
    "GBRAIN-23",
    "the temporal bypass reads the class the last variant's weight hook recorded, not variant 0's",
)
def _gbrain_bypass_last_variant() -> None:
    graph = _gbrain("graph_leg")

    def after_fusion(call: Any, query: str, items: Any) -> Any:
        if call.trace.get("intent") != "temporal":
            items = graph.boost(call.options, items)
        items = items[: graph.FUSED_TOP]
        call.state["candidates"] = {item.id: item.candidate for item in items}
        return items

    _gbrain_hooks(after_fusion=after_fusion)


@mutant("gbrain-variants-unbounded", "GBRAIN-22", "more than eight variants are accepted")
def _gbrain_variants_unbounded() -> None:
    set_attr(_gbrain("graph_leg"), "MAX_VARIANTS", 10**6)


@mutant(
    "gbrain-variants-empty-skipped",
    "GBRAIN-22",
    "a variant that is empty after normalisation is skipped instead of rejected",
)
def _gbrain_variants_empty_skipped() -> None:
    graph = _gbrain("graph_leg")
    original = graph._variants
    text = _mod("reference.text")

    def variants(raw: object, where: str) -> Any:
        if isinstance(raw, list):
            raw = [v for v in raw if not (isinstance(v, str) and text.normalise(v) == "")]
        return original(raw, where)

    swap(graph, "_variants", variants)


# Profiles' broken ports live in their own modules and register themselves on import.
import conformance.selftest.mutants_bm25_okapi  # noqa: E402
import conformance.selftest.mutants_first_pass  # noqa: E402
import conformance.selftest.mutants_profiles_seeds  # noqa: E402,F401
