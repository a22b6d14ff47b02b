"""Intent detection and reweighting, one behaviour per test (spec/intent.md)."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from typing import Any

import pytest

from conformance.adapters.ops.fusion import op_intent_detect, op_intent_patterns, op_intent_reweight
from reference import intent
from reference.data import SpecDataError, data_path
from reference.rrf import Fused
from reference.types import Candidate, InvalidInput

PREF = intent.detect("any tips?")
FACT = intent.detect("how many hotels did I book")
BOTH = intent.detect("list some tips")
NONE = intent.detect("kubernetes setup")
OLD_PREF = intent.detect("what do I prefer?", "hrc-1.0")
OLD_FACT = intent.detect("when did we ship?", "hrc-1.0")


def fused(cid: str, score: float, path: str = "notes/x.md", content: str = "") -> Fused:
    return Fused(Candidate(id=cid, path=path, content=content), score, Fraction(score))


def raw_table(name: str) -> Any:
    return json.loads(data_path(f"intent-{name}.json").read_text(encoding="utf-8"))


def rule_names(found: intent.Intent, path: str, content: str = "", **kw: str) -> list[str]:
    c = Candidate(id="a", path=path, content=content, **kw)
    return [r.name for r in intent.matching_rules(found, c)]


# -- INTENT-1, INTENT-2: the data files ---------------------------------------------------------


@pytest.mark.parametrize("name", intent.TABLES)
def test_table_is_loaded_from_its_data_file(name: str) -> None:
    """INTENT-1: rule names and multipliers come from spec/data/intent-<name>.json."""
    rules = [(r.name, r.multiplier) for r in intent.table(name).rules]
    assert rules == [(r["name"], r["multiplier"]) for r in raw_table(name)["rules"]]


def test_the_1_0_data_file_name_is_gone() -> None:
    """INTENT-1: spec/data/intent.json no longer exists, so a 1.0 port fails loudly."""
    with pytest.raises(SpecDataError):
        data_path("intent.json")


def test_malformed_table_fails_loudly() -> None:
    """INTENT-1: a table without rules is an error, never an empty default."""
    doc = raw_table("anchor")
    doc["rules"] = []
    with pytest.raises(SpecDataError):
        intent.parse_table(doc)


def test_rule_naming_an_unknown_predicate_fails_loudly() -> None:
    """INTENT-1: a nested condition naming no pattern is rejected at load time."""
    doc = raw_table("anchor")
    doc["rules"][0]["all"] = [{"any": ["no_such_pattern"]}]
    with pytest.raises(SpecDataError):
        intent.parse_table(doc)


def test_long_content_needs_a_threshold() -> None:
    """INTENT-1, INTENT-6: long_content is only a predicate in a table with longContentLength."""
    doc = raw_table("anchor")
    doc["rules"][0]["all"] = ["long_content"]
    with pytest.raises(SpecDataError):
        intent.parse_table(doc)


@pytest.mark.parametrize("name", intent.TABLES)
def test_patterns_are_the_file_sources_byte_for_byte(name: str) -> None:
    """INTENT-2: intent_patterns returns the named file's sources, query patterns first."""
    doc = raw_table(name)
    expected = {p["name"]: p["source"] for p in doc["queryPatterns"] + doc["documentPatterns"]}
    out = op_intent_patterns({"table": name})["patterns"]
    assert out == expected
    assert list(out) == list(expected)


def test_anchor_sources_carry_the_i_flag() -> None:
    """INTENT-1: the anchor's nine regexes keep their i flag; its path substrings have none."""
    t = intent.table("anchor")
    flagged = [p.name for p in t.query_patterns + t.document_patterns if p.flags == "i"]
    assert len(flagged) == 9
    assert all(p.flags == "" for p in t.document_patterns if p.target == "path")


# -- INTENT-3: the portable subset and its reading ----------------------------------------------


@pytest.mark.parametrize(
    "source", [r"\S", r"\d", r"\w", "a.b", "a$", "(?i)a", "(?<=a)b", "(a)", "A", "\u00e9", "a*?"]
)
def test_non_portable_constructs_are_rejected(source: str) -> None:
    """INTENT-3: sources outside the portable ASCII subset are rejected."""
    with pytest.raises(ValueError):
        intent.check_portable(source)


@pytest.mark.parametrize("flags", ["u", "iu", "g", "I"])
def test_flags_other_than_i_are_rejected(flags: str) -> None:
    """INTENT-3: the only flag is i."""
    with pytest.raises(ValueError):
        intent.check_portable("a", flags)


def test_whitespace_escape_is_portable() -> None:
    """INTENT-3: \\s is allowed (it means U+0020 on folded text) and can be quantified."""
    intent.check_portable(r"\b(?:i|we)\s+went\b", "i")


@pytest.mark.parametrize("name", intent.TABLES)
def test_every_table_source_is_portable(name: str) -> None:
    """INTENT-3: every shipped source passes the portability check."""
    for p in intent.table(name).query_patterns + intent.table(name).document_patterns:
        intent.check_portable(p.source, p.flags)


def test_word_boundary_is_ascii() -> None:
    """INTENT-3: é is not a word character, so \\btips\\b matches "tipsé" (unlike Unicode re)."""
    source = r"\btips\b"
    assert intent.compile_pattern(source, "i").search("tips\u00e9")
    assert re.compile(source).search("tips\u00e9") is None


@pytest.mark.parametrize("text", ["sugge\u017ft", "d\u0131d"])
def test_i_flag_is_ascii_only(text: str) -> None:
    """INTENT-3: ſ and ı never match s and i under i (Python re.I without re.ASCII says they do)."""
    source = text.replace("\u017f", "s").replace("\u0131", "i")
    assert intent.compile_pattern(source, "i").search(text) is None
    assert re.compile(source, re.IGNORECASE).search(text) is not None


def test_combining_mark_does_not_continue_a_word() -> None:
    """INTENT-3: "did i" + U+0307 ends at an ASCII boundary (Java's own \\b says it does not)."""
    assert intent.detect("did i\u0307 bought it").concrete_fact
    assert intent.detect("what have \u0130 bought").concrete_fact


def test_whitespace_runs_are_one_space_before_matching() -> None:
    """INTENT-3, INTENT-5: U+0085 between we and bought becomes U+0020, so \\s+ matches."""
    assert rule_names(FACT, "notes/x.md", "we\u0085bought a car") == ["fact_concrete_boost"]


def test_mongolian_vowel_separator_is_not_whitespace() -> None:
    """INTENT-3: U+180E survives folding and is not \\s."""
    assert rule_names(FACT, "notes/x.md", "we\u180ebought a car") == []


# -- INTENT-4: detection ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "label"),
    [
        ("any tips?", "preference"),
        ("how many hotels did I book", "concrete-fact"),
        ("list some tips", "preference+concrete-fact"),
        ("kubernetes setup", ""),
    ],
)
def test_label_names_the_detected_families(query: str, label: str) -> None:
    """INTENT-4: the label is "", one family, or both joined with "+" in fixed order."""
    assert intent.detect(query).label == label


def test_concrete_fact_needs_both_first_person_and_verb() -> None:
    """INTENT-4: did i alone, or a verb alone, is not a concrete-fact query; both together are."""
    assert not intent.detect("did I like the film").concrete_fact
    assert not intent.detect("who bought the car").concrete_fact
    assert intent.detect("have I booked the hotel?").concrete_fact


@pytest.mark.parametrize(
    "query",
    ["what do I prefer?", "my favourite X", "what's the version of X?", "when did Y happen?"],
)
def test_seed_examples_differ_between_the_tables(query: str) -> None:
    """INTENT-13: hrc-1.0 detects the seed's four examples; the anchor table does not."""
    assert intent.detect(query).label == ""
    assert intent.detect(query, "hrc-1.0").label != ""


# -- INTENT-5, INTENT-6: document side and rules ------------------------------------------------


def test_document_text_folds_and_joins_fields() -> None:
    """INTENT-5: path, title, summary and content are joined and folded (whitespace collapses)."""
    c = Candidate(id="a", path="Notes/A.md", title="Cost in", summary="total", content="x")
    assert intent.document_text(c) == "notes/a.md cost in total x"


def test_patterns_can_match_across_fields() -> None:
    """INTENT-5: title "Cost in" + summary "total" match rollup_note."""
    assert rule_names(FACT, "n.md", title="Cost in", summary="total") == ["fact_rollup_damp"]


def test_path_conditions_see_the_folded_path() -> None:
    """INTENT-5: Memory/Global/User-Preference- counts as memory/global/user-preference-."""
    names = rule_names(PREF, "Memory/Global/User-Preference-Tea.md")
    assert names == ["preference_user_preference_boost"]


def test_nested_conditions() -> None:
    """INTENT-6: members of all/any/none may be names or nested conditions."""
    cond = intent.parse_table(raw_table("anchor")).rules[4].condition
    truth = dict.fromkeys(intent.predicates(Candidate(id="a", path="x.md")), False)
    assert not intent.holds(cond, truth)
    assert intent.holds(cond, {**truth, "date_tag": True})
    assert not intent.holds(cond, {**truth, "date_tag": True, "rollup_note": True})
    assert intent.holds(cond, {**truth, "milestone_path": True, "rollup_note": True})


def test_user_preference_tier_excludes_the_global_note_tier() -> None:
    """INTENT-6: 2.35 and 2.1 are exclusive; a user-preference- note that says prefer gets 2.35."""
    path = "memory/global/user-preference-tea.md"
    assert rule_names(PREF, path, "I prefer tea") == ["preference_user_preference_boost"]


def test_global_preference_note_gets_2_1() -> None:
    """INTENT-6: a memory/global/ note with a preference word, not user-preference-: x2.1."""
    assert rule_names(PREF, "memory/global/tea.md", "I prefer tea") == [
        "preference_global_note_boost"
    ]


def test_generic_and_rollup_damps_compose() -> None:
    """INTENT-6: a generic rollup outside memory/global/ gets 0.82 and 0.9."""
    names = rule_names(PREF, "docs/tea.md", "a recap of tea tips")
    assert names == ["preference_generic_damp", "preference_rollup_damp"]


def test_rollup_keeps_a_dated_note_out_of_the_2_2_branch() -> None:
    """INTENT-6: not isRollUp is part of the date condition; only the rollup damp applies."""
    assert rule_names(FACT, "notes/a.md", "[date: 2024-01-01] recap") == ["fact_rollup_damp"]


def test_generic_damp_skips_the_2_2_branch() -> None:
    """INTENT-6: a dated generic note is boosted, not damped by 0.75."""
    names = rule_names(FACT, "notes/a.md", "[date: 2024-01-01] checklist")
    assert names == ["fact_concrete_boost"]


def test_rules_of_an_undetected_family_do_not_apply() -> None:
    """INTENT-6: under a concrete-fact query a generic note gets 0.75, not the preference 0.82."""
    assert rule_names(FACT, "docs/a.md", "a checklist") == ["fact_generic_damp"]


def test_long_content_counts_code_points_of_normalised_content() -> None:
    """INTENT-6: in hrc-1.0, 121 astral characters are not long; 241 are."""
    short = Candidate(id="a", path="n.md", content="\U0001d41c" * 121)
    long = Candidate(id="b", path="n.md", content="\U0001d41c" * 241)
    assert not intent.predicates(short, "hrc-1.0")["long_content"]
    assert intent.predicates(long, "hrc-1.0")["long_content"]


def test_hrc_1_0_rules_are_unchanged() -> None:
    """INTENT-13: hrc-1.0 keeps the 1.0 rules: memory note x2.1, raw chunk x0.82."""
    assert rule_names(OLD_PREF, "memory/p.md", "I prefer tea") == ["preference_memory_boost"]
    assert rule_names(OLD_PREF, "docs/p.md") == ["preference_raw_damp"]


# -- INTENT-7..INTENT-10: arithmetic and order --------------------------------------------------


def test_multipliers_compose_at_run_time() -> None:
    """INTENT-7: 0.45 then 0.75 is 0.3375; 2.2 then 0.45 is 0.9900000000000001, not 0.99."""
    assert intent.apply_multipliers(1.0, [0.45, 0.75]) == 0.3375
    assert intent.apply_multipliers(1.0, [2.2, 0.45]) == 0.9900000000000001 != 0.99


def test_seed_0_3375_is_a_rollup_generic_note_outside_global() -> None:
    """INTENT-7: the seed's 0.45 × 0.75 under the anchor table."""
    _, adjustments = intent.reweight(FACT, [fused("r", 1.0, "notes/t.md", "summary of tips")])
    assert adjustments[0].rules == ("fact_rollup_damp", "fact_generic_damp")
    assert adjustments[0].multiplier == 0.3375


def test_rollup_user_fact_note_is_0_9900000000000001() -> None:
    """INTENT-7: a rollup user-fact- note gets 2.2 × 0.45 in binary64."""
    path = "memory/global/user-fact-car.md"
    _, adjustments = intent.reweight(FACT, [fused("r", 1.0, path, "overview")])
    assert adjustments[0].multiplier == 0.9900000000000001


def test_score_is_multiplied_step_by_step_not_by_the_product() -> None:
    """INTENT-7: (1/65 × 0.45) × 0.75 differs from 1/65 × 0.3375 in the last bit."""
    assert intent.apply_multipliers(1 / 65, [0.45, 0.75]) == 0.005192307692307692
    assert 1 / 65 * 0.3375 == 0.005192307692307693


def test_both_families_apply_preference_rules_first() -> None:
    """INTENT-7: a dated generic note under both families gets 0.82 then 2.2 = 1.804."""
    item = fused("d", 1 / 61, "docs/t.md", content="[date: x] tips")
    out, adjustments = intent.reweight(BOTH, [item])
    assert adjustments[0].rules == ("preference_generic_damp", "fact_concrete_boost")
    assert adjustments[0].multiplier == 1.804
    assert out[0].score == (1 / 61 * 0.82) * 2.2


def test_adjustments_list_only_matched_items_in_fused_order() -> None:
    """INTENT-8: unmatched items keep their bits and get no adjustment entry."""
    items = [fused("plain", 0.5, content="x"), fused("roll", 0.4, content="a recap")]
    out, adjustments = intent.reweight(FACT, items)
    assert [(a.id, a.multiplier, a.rules) for a in adjustments] == [
        ("roll", 0.45, ("fact_rollup_damp",))
    ]
    assert out[0].score == 0.5


def test_order_uses_exact_values() -> None:
    """INTENT-9: exact 2.2 × 0.45 exceeds 0.99, so the rollup user-fact- note passes 0.99."""
    roll = fused("roll", 1.0, "memory/global/user-fact-x.md", "recap")
    out, _ = intent.reweight(FACT, [fused("plain", 0.99, content="x"), roll])
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


# -- INTENT-11..INTENT-13 -----------------------------------------------------------------------


def test_non_english_query_is_not_filtered_by_language() -> None:
    """INTENT-11: French suggestion and the é-bounded sum of résumé are detected; Dutch is not."""
    assert intent.detect("une suggestion de restaurant ?").preference
    assert intent.detect("r\u00e9sum\u00e9 du projet").concrete_fact
    assert intent.detect("wat is mijn favoriete koffie?").label == ""


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("WHAT SHOULD I read", True),
        ("sugge\u017ftion", False),
        ("\u0130deas for dinner", False),
        ("ideas\u0663", True),
        ("did I boo\u212aed it", True),
    ],
)
def test_folding_decides_case_and_unicode(query: str, expected: bool) -> None:
    """INTENT-12: upper case and K fold; long s and dotted capital I do not become ASCII letters."""
    found = intent.detect(query)
    assert (found.preference or found.concrete_fact) is expected


def test_default_table_is_anchor() -> None:
    """INTENT-13: without a table input the operations use the anchor table."""
    assert op_intent_patterns({}) == op_intent_patterns({"table": "anchor"})
    assert op_intent_detect({"query": "what do I prefer?"})["label"] == ""


@pytest.mark.parametrize("value", ["hrc-2.0", "Anchor", "", 1, ["anchor"]])
def test_unknown_table_is_invalid_input(value: object) -> None:
    """INTENT-13: a table name outside anchor / hrc-1.0 is invalid_input."""
    with pytest.raises(InvalidInput):
        op_intent_detect({"query": "tips", "table": value})
