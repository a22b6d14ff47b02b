"""Parse a query into DSL tokens (spec/query-dsl.md DSL-1..DSL-9, DSL-13..DSL-15).

One left-to-right scan over the normalised query; operators are read before lowercasing,
stopwords are filtered before alias expansion (the anchor's order), and an alias key is
replaced by its alternatives.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from reference import text
from reference.query.aliases import alternative_member, validate_aliases
from reference.query.stopwords import DEFAULT_LIST, is_filtered

OPERATORS = frozenset({"AND", "OR", "NOT"})

# DSL-7: deleted from bare words (never from phrases). ASCII only, on purpose.
STRIP_SET = frozenset("*():^+\"-?!.,;/\\[]{}<>|&'$#@%=~`")

QUOTE = '"'
SPACE = " "


@dataclass(frozen=True)
class Token:
    """One DSL token (DSL-15): a term, a prefix or a phrase."""

    kind: str
    text: str
    operator: str | None

    def to_json(self) -> dict[str, Any]:
        """DSL-15: exactly `{kind, text, operator}`."""
        return {"kind": self.kind, "text": self.text, "operator": self.operator}


@dataclass(frozen=True)
class ParsedQuery:
    """The normalised query, whether it uses operators (DSL-2), and its tokens in order."""

    normalised: str
    has_operators: bool
    tokens: tuple[Token, ...]

    def to_json(self) -> dict[str, Any]:
        """The `parse` operation's output (spec/operations.md)."""
        return {
            "normalised": self.normalised,
            "hasOperators": self.has_operators,
            "tokens": [t.to_json() for t in self.tokens],
        }


def has_operators(normalised: str) -> bool:
    """DSL-2: a `"` anywhere, or a space-separated field that is exactly AND, OR or NOT."""
    return QUOTE in normalised or any(f in OPERATORS for f in normalised.split(SPACE))


def expand_term(
    term: str, operator: str | None, table: Mapping[str, Sequence[str]]
) -> tuple[Token, ...]:
    """DSL-13, DSL-14: the term replaced by its alternatives, the term's operator on the first.

    `table` must be validated (folded keys). Alternatives become terms or phrases in table
    order, deduplicated by (kind, text); the term itself stays when it is no key or when no
    alternative has a word.
    """
    alternatives = table.get(term)
    if alternatives is None:
        return (Token("term", term, operator),)
    seen: list[tuple[str, str]] = []
    for alternative in alternatives:
        member = alternative_member(alternative)
        if member is not None and member not in seen:
            seen.append(member)
    if not seen:
        return (Token("term", term, operator),)
    return tuple(
        Token(kind, txt, operator if i == 0 else None) for i, (kind, txt) in enumerate(seen)
    )


def drops_prefix(word: str, stopword_list: str = DEFAULT_LIST) -> bool:
    """DSL-9: in a bare query a prefix token is filtered like a term (the anchor)."""
    return is_filtered(word, stopword_list)


def strip_word(word: str) -> str:
    """DSL-7: delete every strip-set character; the result is not renormalised."""
    return "".join(ch for ch in word if ch not in STRIP_SET)


def parse(
    query: str,
    aliases: Mapping[str, Sequence[str]] | None = None,
    stopword_list: str = DEFAULT_LIST,
) -> ParsedQuery:
    """DSL-1..DSL-9, DSL-13, DSL-14: normalise, scan, strip, lowercase, filter, expand.

    `stopword_list` names the list DSL-9 filters with (DSL-22).
    """
    table = validate_aliases(aliases)
    normalised = text.normalise(query)
    filtering = not has_operators(normalised)
    tokens: list[Token] = []
    pending: str | None = None
    i, n = 0, len(normalised)
    while i < n:
        ch = normalised[i]
        if ch == SPACE:
            i += 1
            continue
        if ch == QUOTE:
            end = normalised.find(QUOTE, i + 1)
            if end < 0:
                end = n
            phrase = text.lowercase(SPACE.join(text.split_whitespace(normalised[i + 1 : end])))
            i = end + 1
            if phrase:  # DSL-4: an empty phrase is dropped and the operator stays pending
                tokens.append(Token("phrase", phrase, pending))
                pending = None
            continue
        end = i
        while end < n and normalised[end] not in (SPACE, QUOTE):
            end += 1
        word = normalised[i:end]
        i = end
        if word in OPERATORS:
            pending = word  # DSL-5: the last operator wins
            continue
        prefix = word.endswith("*")
        stripped = strip_word(word)
        if not stripped:
            pending = None
            continue
        folded = text.lowercase(stripped)
        if prefix:
            if not (filtering and drops_prefix(folded, stopword_list)):
                tokens.append(Token("prefix", folded, pending))
        elif filtering and is_filtered(folded, stopword_list):
            pass  # DSL-9 before DSL-13: a stopword key never fires in a bare query
        elif folded in table:
            tokens.extend(expand_term(folded, pending, table))
        else:
            tokens.append(Token("term", folded, pending))
        pending = None
    return ParsedQuery(normalised, not filtering, tuple(tokens))
