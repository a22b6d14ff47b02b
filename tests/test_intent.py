"""Intent detection and reweighting, one behaviour per test (spec/intent.md)."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from typing import Any

import pytest

from conformance.ops.fusion import op_intent_patterns, op_intent_reweight
from reference import intent
from reference.data import SpecDataError, data_path
from reference.rrf import Fused
from reference.types import Candidate, InvalidInput

FACT = intent.detect("when did we ship?")
PREF = intent.detect("what do I prefer?")
BOTH = intent.detect("how many tips")
NONE = intent.detect("kubernetes setup")


def fused(cid: str, score: float, path: str = "notes/x.md", content: str = "") -> Fused:
    return Fused(Candidate(id=cid, path=path, content=content), score, Fraction(score))


def raw_table() -> Any:
    return json.loads(data_path("intent.json").read_text(encoding="utf-8"))


def test_table_is_loaded_from_the_data_file() -> None:
    """INTENT-1: the rule names and multipliers come from spec/data/intent.json."""
    rules = [(r.name, r.multiplier) for r in intent.table().rules]
    assert rules == [(r["name"], r["multiplier"]) for r in raw_table()["rules"]]


def test_malformed_table_fails_loudly() -> None:
    """INTENT-1: a table without rules is an error, never an empty default."""
    doc = raw_table()
    doc["rules"] = []
    with pytest.raises(SpecDataError):
        intent._parse(doc)


def test_patterns_are_the_file_sources_byte_for_byte() -> None:
    """INTENT-2: intent_patterns returns the file's sources, query patterns first."""
    doc = raw_table()
    expected = {p["name"]: p["source"] for p in doc["queryPatterns"] + doc["documentPatterns"]}
    out = op_intent_patterns({})["patterns"]
    assert out == expected
    assert list(out) == list(expected)


@pytest.mark.parametrize(
    "source", [r"\s", r"\d", r"\w", "a.b", "a$", "(?i)a", "(?<=a)b", "(a)", "A", "\u00e9", "a*?"]
)
def test_non_portable_constructs_are_rejected(source: str) -> None:
    """INTENT-3: sources outside the portable ASCII subset are rejected."""
    with pytest.raises(ValueError):
        intent.check_portable(source)


def test_every_table_source_is_portable() -> None:
    """INTENT-3: every shipped source passes the portability check."""
    for source in intent.patterns().values():
        intent.check_portable(source)


def test_word_boundary_is_ascii() -> None:
    """INTENT-3: é is not a word character, so \\btips\\b matches "tipsé" (unlike Unicode re)."""
    source = r"\btips\b"
    assert intent.compile_pattern(source).search("tips\u00e9")
    assert re.compile(source).search("tips\u00e9") is None


@pytest.mark.parametrize(
    ("query", "label"),
    [
        ("what do I prefer?", "preference"),
        ("when did we ship?", "concrete-fact"),
        ("how many tips", "preference+concrete-fact"),
        ("kubernetes setup", ""),
    ],
)
def test_label_names_the_detected_families(query: str, label: str) -> None:
    """INTENT-4: the label is "", one family, or both joined with "+" in fixed order."""
    assert intent.detect(query).label == label


def test_document_text_folds_and_joins_fields() -> None:
    """INTENT-5: path, title, summary and content are joined and folded (whitespace collapses)."""
    c = Candidate(id="a", path="Notes/A.md", title="Cost in", summary="total", content="x")
    assert intent.document_text(c) == "notes/a.md cost in total x"


def test_patterns_can_match_across_fields() -> None:
    """INTENT-5: title "Cost in" + summary "total" match rollup_note."""
    c = Candidate(id="a", path="n.md", title="Cost in", summary="total")
    assert [r.name for r in intent.matching_rules(FACT, c)] == ["fact_rollup_damp"]


def test_every_matching_rule_applies_in_table_order() -> None:
    """INTENT-6: a long undated rollup gets the rollup damp and then the long-prose damp."""
    c = Candidate(id="a", path="n.md", content="in total " + "x" * 240)
    names = [r.name for r in intent.matching_rules(FACT, c)]
    assert names == ["fact_rollup_damp", "fact_long_prose_damp"]


def test_long_content_counts_code_points_of_normalised_content() -> None:
    """INTENT-6: 121 astral characters are not long; 241 are."""
    short = Candidate(id="a", path="n.md", content="\U0001d41c" * 121)
    long = Candidate(id="b", path="n.md", content="\U0001d41c" * 241)
    assert not intent.predicates(short)["long_content"]
    assert intent.predicates(long)["long_content"]


def test_rules_of_an_undetected_family_do_not_apply() -> None:
    """INTENT-6: a raw chunk is not damped under a concrete-fact-only query."""
    assert intent.matching_rules(FACT, Candidate(id="a", path="docs/a.md")) == []


def test_multipliers_compose_at_run_time() -> None:
    """INTENT-7: 0.45 then 0.75 is 0.3375; 2.2 then 0.45 is 0.9900000000000001, not 0.99."""
    assert intent.apply_multipliers(1.0, [0.45, 0.75]) == 0.3375
    assert intent.apply_multipliers(1.0, [2.2, 0.45]) == 0.9900000000000001 != 0.99


def test_score_is_multiplied_step_by_step_not_by_the_product() -> None:
    """INTENT-7: (1/65 × 0.45) × 0.75 differs from 1/65 × 0.3375 in the last bit."""
    assert intent.apply_multipliers(1 / 65, [0.45, 0.75]) == 0.005192307692307692
    assert 1 / 65 * 0.3375 == 0.005192307692307693


def test_adjustments_list_only_matched_items_in_fused_order() -> None:
    """INTENT-8: unmatched items keep their bits and get no adjustment entry."""
    items = [fused("plain", 0.5, content="x"), fused("roll", 0.4, content="a recap")]
    out, adjustments = intent.reweight(FACT, items)
    assert [(a.id, a.multiplier, a.rules) for a in adjustments] == [
        ("roll", 0.45, ("fact_rollup_damp",))
    ]
    assert out[0].score == 0.5


def test_order_uses_exact_values() -> None:
    """INTENT-9: exact 2.2 × 0.45 exceeds 0.99, so the dated rollup passes the 0.99 item."""
    items = [fused("plain", 0.99, content="x"), fused("roll", 1.0, content="[date: 1] recap")]
    out, _ = intent.reweight(FACT, items)
    assert [f.id for f in out] == ["roll", "plain"]
    assert out[0].exact == Fraction(2.2) * Fraction(0.45)


def test_exact_ties_keep_fused_order() -> None:
    """INTENT-9: equal values keep their fused positions (b stays before a)."""
    out, _ = intent.reweight(FACT, [fused("b", 0.5), fused("a", 0.5)])
    assert [f.id for f in out] == ["b", "a"]


def test_no_family_returns_the_list_unchanged() -> None:
    """INTENT-10: without a family even an unsorted list comes back as given."""
    items = [fused("a", 0.1, path="docs/a.md"), fused("b", 0.2, path="docs/b.md")]
    out, adjustments = intent.reweight(NONE, items)
    assert out == items and adjustments == []


def test_reweight_op_rejects_repeated_ids() -> None:
    """INTENT-10: a repeated id in results is invalid_input."""
    item = {"id": "a", "path": "a.md", "score": 0.5}
    with pytest.raises(InvalidInput):
        op_intent_reweight({"query": "tips", "results": [item, item]})


def test_non_english_query_is_not_filtered_by_language() -> None:
    """INTENT-11: French "suggestion" is detected; a Dutch question without pattern words is not."""
    assert intent.detect("une suggestion de restaurant ?").preference
    assert intent.detect("wat is mijn favoriete koffie?").label == ""


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("WHEN DID we ship", True),
        ("\u017fuggest a film", False),
        ("\u0130deas for dinner", False),
        ("ideas\u0663", True),
    ],
)
def test_folding_decides_case_and_unicode(query: str, expected: bool) -> None:
    """INTENT-12: upper case folds; long s and dotted capital I do not become ASCII letters."""
    found = intent.detect(query)
    assert (found.preference or found.concrete_fact) is expected


def test_both_families_apply_preference_rules_first() -> None:
    """INTENT-7: a raw dated chunk under both families gets 0.82 then 2.2 = 1.804."""
    out, adjustments = intent.reweight(BOTH, [fused("d", 1 / 61, "docs/t.md", content="[date: x]")])
    assert adjustments[0].rules == ("preference_raw_damp", "fact_concise_boost")
    assert adjustments[0].multiplier == 1.804
    assert out[0].score == (1 / 61 * 0.82) * 2.2


def test_preference_memory_note_is_boosted() -> None:
    """INTENT-6: a memory/ note with a preference word gets ×2.1."""
    out, _ = intent.reweight(PREF, [fused("m", 1 / 61, "memory/p.md", content="I prefer tea")])
    assert out[0].score == 0.03442622950819672
