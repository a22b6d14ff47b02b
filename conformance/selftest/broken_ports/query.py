"""Broken ports of the query DSL (spec/query-dsl.md), registered on import."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from conformance.selftest.broken_ports.patching import (
    _mod,
    mutant,
    set_attr,
    swap,
)

# -- query DSL (DSL) ---------------------------------------------------------------------------


@mutant(
    "dsl-not-as-and-not",
    "DSL-17",
    "NOT compiles to `AND NOT`, which FTS5 rejects",
    seams=("reference.query.compile.join_tokens",),
)
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


@mutant(
    "dsl-unquoted-barewords",
    "DSL-16",
    "plain terms are emitted as FTS5 barewords, unquoted",
    seams=("reference.query.compile.render_token",),
)
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
    seams=("reference.query.compile.render_token",),
)
def _dsl_phrases_bare() -> None:
    c = _mod("reference.query.compile")
    original = c.render_token

    def render_token(token: Any) -> str:
        if token.kind == "phrase":
            return str(token.text)
        return str(original(token))

    swap(c, "render_token", render_token)


@mutant(
    "dsl-prefix-without-star",
    "DSL-16",
    "a prefix token is rendered as a plain string",
    seams=("reference.query.compile.render_token",),
)
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
    seams=("reference.query.compile.join_tokens",),
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
    seams=(
        "reference.query.compile.render_token",
        "reference.ladder._quoted",
        "reference.backends.scripted.LOOKUP_BY_MEANING",
    ),
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
    seams=("reference.query.parse.expand_term", "reference.query.compile.render_token"),
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
    seams=("reference.query.parse.parse",),
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
    seams=(
        "reference.query.stopwords.is_filtered",
        "reference.query.parse.parse",
        "reference.query.sanitise.sanitise",
    ),
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
    seams=("reference.query.parse.drops_prefix",),
)
def _dsl_prefixes_kept() -> None:
    swap(_mod("reference.query.parse"), "drops_prefix", lambda word, sw="anchor": False)


@mutant(
    "dsl-lowercase-not-kept",
    "DSL-9",
    "lowercase and/or/not are dropped only when a list has them, so `not` stays (kit 2.x)",
    seams=("reference.query.stopwords.FILLER_WORDS",),
)
def _dsl_filler_kept() -> None:
    set_attr(_mod("reference.query.stopwords"), "FILLER_WORDS", frozenset())


@mutant(
    "dsl-lowercase-before-strip",
    "DSL-8",
    "bare words are lowercased before stripping, so ΟΔΟΣ-Α keeps a final sigma",
    seams=("reference.query.parse.strip_word",),
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
    seams=("reference.query.parse.OPERATORS",),
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
    seams=("reference.query.parse.strip_word",),
)
def _dsl_strip_unicode() -> None:
    p = _mod("reference.query.parse")
    text = _mod("reference.text")

    def strip_word(word: str) -> str:
        return "".join(ch for ch in word if ch not in p.STRIP_SET and not text.is_punct_symbol(ch))

    swap(p, "strip_word", strip_word)


@mutant(
    "dsl-stopwords-english-only",
    "DSL-11",
    "only the `en` stopword list is loaded",
    seams=("reference.query.stopwords.stopword_set",),
)
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
    seams=("reference.query.stopwords.LIST_FILES",),
)
def _dsl_hrc_default() -> None:
    stop = _mod("reference.query.stopwords")
    set_attr(stop, "LIST_FILES", {**stop.LIST_FILES, "anchor": stop.LIST_FILES["hrc-1.0"]})


@mutant(
    "dsl-stopword-list-ignored",
    "DSL-22",
    "the stopwordList input is validated but every stage filters with the default list",
    seams=("reference.query.stopwords.is_stopword",),
)
def _dsl_list_ignored() -> None:
    stop = _mod("reference.query.stopwords")
    original = stop.is_stopword
    swap(stop, "is_stopword", lambda word, sw="anchor": original(word))


@mutant(
    "dsl-stopword-list-unknown-is-default",
    "DSL-22",
    "an unknown stopwordList silently means the default list",
    seams=("reference.query.stopwords.check_list",),
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
    seams=("reference.ladder.plan_ladder",),
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
    seams=("reference.query.aliases.validate_aliases",),
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


@mutant(
    "stopwords-utf16-length",
    "DSL-10",
    "the short-word stopword rule counts UTF-16 units",
    seams=("reference.query.stopwords.is_stopword",),
)
def _stopwords_utf16() -> None:
    stop = _mod("reference.query.stopwords")
    listed = stop.stopword_set

    def is_stopword(word: str, sw: str = "anchor") -> bool:
        return len(word.encode("utf-16-le")) // 2 <= stop.MAX_SHORT_LENGTH or word in listed(sw)

    swap(stop, "is_stopword", is_stopword)


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


@mutant(
    "dsl-first-operator-wins",
    "DSL-5",
    "of two operators in a row the first wins",
    seams=("reference.query.parse.parse",),
)
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
    seams=("reference.query.parse.parse",),
)
def _dsl_stripped_keeps() -> None:
    p = _mod("reference.query.parse")
    _rewrite_fields(lambda fields: [f for f in fields if f in p.OPERATORS or p.strip_word(f)])


@mutant(
    "dsl-star-anywhere-is-prefix",
    "DSL-6",
    "a bare word with `*` anywhere is a prefix, not only with a trailing `*`",
    seams=("reference.query.parse.parse",),
)
def _dsl_star_anywhere() -> None:
    _rewrite_fields(
        lambda fields: [f.replace("*", "") + "*" if "*" in f.rstrip("*") else f for f in fields]
    )


@mutant(
    "dsl-alias-members-not-deduplicated",
    "DSL-14",
    "alias alternatives are not deduplicated, so overlapping alternatives repeat a token",
    seams=("reference.query.parse.expand_term",),
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
    seams=("reference.query.sanitise.sanitise",),
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


@mutant(
    "dsl-leading-operator-dropped",
    "DSL-5",
    "a leading operator is dropped by the parser (3.x), not kept on the first token",
    seams=("reference.query.parse.parse",),
)
def _dsl_leading_dropped() -> None:
    p = _mod("reference.query.parse")
    original = p.parse

    def parse(query: str, aliases: Any = None, sw: str = "anchor") -> Any:
        out = original(query, aliases, sw)
        if not out.tokens or out.tokens[0].operator is None:
            return out
        first = replace(out.tokens[0], operator=None)
        return replace(out, tokens=(first, *out.tokens[1:]))

    swap(p, "parse", parse)
