"""Broken ports of intent reweighting and modes (spec/intent.md), registered on import."""

from __future__ import annotations

import builtins
import re
from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any

from conformance.selftest.broken_ports.patching import (
    _JAVA_WORD,
    _mod,
    mutant,
    set_attr,
    swap,
)

# -- intent (INTENT) ---------------------------------------------------------------------------


@mutant(
    "intent-unicode-word-boundary",
    "INTENT-3",
    "patterns compiled without re.ASCII (Rust, .NET): é and ٣ count as word characters for \\b",
    seams=("reference.intent.compile_pattern",),
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
    seams=("reference.intent.compile_pattern",),
)
def _intent_python_ignorecase() -> None:
    i = _mod("reference.intent")

    def compile_pattern(source: str, flags: str = "") -> re.Pattern[str]:
        i.check_portable(source, flags)
        return re.compile(source, re.IGNORECASE if flags == "i" else 0)

    swap(i, "compile_pattern", compile_pattern)


_JAVA_B = f"(?:(?<={_JAVA_WORD})(?!{_JAVA_WORD})|(?<!{_JAVA_WORD})(?={_JAVA_WORD}))"


@mutant(
    "intent-java-word-boundary",
    "INTENT-3",
    "Java's own \\b kept (no look-around rewrite): a combining mark continues the word",
    seams=("reference.intent.compile_pattern",),
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
    seams=("reference.intent.compile_pattern",),
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
    seams=("reference.intent.compile_pattern",),
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
    seams=("reference.intent.detect",),
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
    seams=("reference.intent.predicates",),
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
    seams=("reference.intent_table.table",),
)
def _intent_table_ignored() -> None:
    t = _mod("reference.intent_table")
    original = t.table
    swap(t, "table", lambda name=t.DEFAULT_TABLE: original(t.DEFAULT_TABLE))


@mutant(
    "intent-unknown-table-is-default",
    "INTENT-13",
    "an unknown table name silently means the default table instead of invalid_input",
    seams=("reference.intent_table.check_table_name",),
)
def _intent_unknown_default() -> None:
    t = _mod("reference.intent_table")
    swap(
        t,
        "check_table_name",
        lambda value: value if value in t.TABLES else t.DEFAULT_TABLE,
    )


@mutant(
    "intent-first-rule-only",
    "INTENT-6",
    "only the first matching rule applies",
    seams=("reference.intent.matching_rules",),
)
def _intent_first_rule() -> None:
    i = _mod("reference.intent")
    original = i.matching_rules
    swap(i, "matching_rules", lambda intent, c: list(original(intent, c))[:1])


@mutant(
    "intent-multipliers-added",
    "INTENT-7",
    "multipliers combine additively: 1 + Σ(m − 1) instead of a product",
    seams=("reference.intent.apply_multipliers",),
)
def _intent_added() -> None:
    def apply_multipliers(score: float, multipliers: Sequence[float]) -> float:
        return score * (1.0 + builtins.sum(m - 1.0 for m in multipliers))

    swap(_mod("reference.intent"), "apply_multipliers", apply_multipliers)


@mutant(
    "intent-multipliers-folded",
    "INTENT-7",
    "the rules' multipliers are one pre-multiplied constant (Go folds 2.2 * 0.45 to 0.99)",
    seams=("reference.intent.matching_rules",),
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


# -- pipeline and modes (PIPE, MODE) -----------------------------------------------------------


@mutant(
    "mode-semantic-runs-bm25",
    "MODE-5",
    "semantic mode still runs the BM25 leg and ladder",
    seams=("reference.modes.ResolvedMode.runs_bm25",),
)
def _mode_semantic_bm25() -> None:
    modes = _mod("reference.modes")
    set_attr(
        modes.ResolvedMode,
        "runs_bm25",
        property(lambda self: self.effective in ("bm25", "hybrid", "semantic")),
    )


@mutant(
    "mode-auto-reports-fallback",
    "MODE-1",
    "auto without an embedder sets fellBackToBM25",
    seams=("reference.modes.resolve_mode",),
)
def _mode_auto_fallback() -> None:
    modes = _mod("reference.modes")
    original = modes.resolve_mode

    def resolve_mode(requested: str, has_embedder: bool) -> Any:
        if requested == "auto" and not has_embedder:
            return modes.ResolvedMode("bm25", True)
        return original(requested, has_embedder)

    swap(modes, "resolve_mode", resolve_mode)


@mutant(
    "intent-compose-right-to-left",
    "INTENT-7",
    "an item's multipliers are applied right to left: ((score × mN) × …) × m1",
    seams=("reference.intent.apply_multipliers",),
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
    seams=("reference.intent.apply_multipliers",),
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
    seams=("reference.intent.apply_multipliers",),
)
def _intent_folded_exactly() -> None:
    def apply_multipliers(score: float, multipliers: Sequence[float]) -> float:
        exact = Fraction(score)
        for m in multipliers:
            exact *= Fraction(m)
        return float(exact)

    swap(_mod("reference.intent"), "apply_multipliers", apply_multipliers)


@mutant(
    "intent-long-content-inclusive",
    "INTENT-6",
    "long_content uses >= 240 instead of > 240",
    seams=("reference.intent.predicates",),
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
    seams=("reference.intent.predicates",),
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
    seams=("reference.intent.reweight",),
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
    seams=("reference.intent.reweight",),
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
    seams=("reference.intent.reweight",),
)
def _intent_resorts() -> None:
    i = _mod("reference.intent")
    original = i.reweight

    def reweight(intent: Any, fused: Sequence[Any]) -> tuple[list[Any], list[Any]]:
        items, adjustments = original(intent, fused)
        return sorted(items, key=lambda f: -f.exact), adjustments

    swap(i, "reweight", reweight)


@mutant(
    "mode-vector-error-no-fallback-flag",
    "MODE-6",
    "a vector error in hybrid mode does not set fellBackToBM25",
    seams=("reference.pipeline.search",),
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


# -- issue 9 defects: modes, ladder wording, zero weights, request bounds and nulls -----------


@mutant(
    "mode-auto-vector-error-no-fallback-flag",
    "MODE-1",
    "auto never sets fellBackToBM25, read literally: an auto that ran hybrid hides a vector error",
    seams=("reference.pipeline.search",),
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
    "intent-sources-with-inline-flag",
    "INTENT-2",
    "a pattern with flags `i` is reported with the inline `(?i)` a Go or Java port compiles it "
    "with, not the file's source verbatim",
    seams=("reference.intent.patterns",),
)
def _intent_inline_flag() -> None:
    i = _mod("reference.intent")

    def patterns(name: str = "anchor") -> dict[str, str]:
        t = i.table(name)
        return {
            p.name: ("(?i)" + p.source if p.flags == "i" else p.source)
            for p in t.query_patterns + t.document_patterns
        }

    swap(i, "patterns", patterns)


@mutant(
    "intent-non-ascii-query-bypasses",
    "INTENT-11",
    "a language filter: a query with any non-ASCII character is taken as non-English and "
    "detects no family",
    seams=("reference.intent.detect",),
)
def _intent_non_ascii_bypass() -> None:
    i = _mod("reference.intent")
    original = i.detect

    def detect(query: str, name: str = "anchor") -> Any:
        if any(ord(ch) > 0x7F for ch in query):
            return i.Intent(False, False, "", name)
        return original(query, name)

    swap(i, "detect", detect)


@mutant(
    "intent-fold-simple-case-mapping",
    "INTENT-12",
    "the text is folded with simple case mapping (Go's strings.ToLower): U+0130 becomes a "
    "plain i, so İdeas matches ideas",
    seams=("reference.intent.fold",),
)
def _intent_simple_fold() -> None:
    i = _mod("reference.intent")
    text = _mod("reference.text")
    set_attr(i, "fold", lambda s: text.fold(s.replace("\u0130", "I")))


@mutant(
    "intent-raw-lowercased-query",
    "INTENT-4",
    "query patterns run on the raw query lowercased (the anchor's words), not on the folded"
    " normalised query, so a non-breaking space is not a space",
    seams=("reference.intent.query_truth",),
)
def _intent_raw_lowered() -> None:
    i = _mod("reference.intent")

    def query_truth(query: str, name: str = "anchor") -> dict[str, bool]:
        lowered = query.lower()
        return {p.name: p.regex.search(lowered) is not None for p in i.table(name).query_patterns}

    swap(i, "query_truth", query_truth)
