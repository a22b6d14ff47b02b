"""The intent table files against their JSON schema and their provenance (spec/intent.md)."""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest

from reference.data import data_path, kit_root
from reference.intent import TABLES

ANCHOR_SOURCES = {
    # Copied from jeffs-brain/memory spec/ALGORITHMS.md at 22a586e, not from the data file.
    "preference_query": r"\b(?:recommend|suggest|recommendation|suggestion|tips?|advice|ideas?|what should i|which should i)\b",  # noqa: E501
    "enumeration_or_total_query": r"\b(?:how many|count|total|in total|sum|add up|list|what are all)\b",  # noqa: E501
    "first_person_fact_lookup": r"\b(?:did i|have i|was i|were i)\b",
    "fact_lookup_verb": r"\b(?:pick(?:ed)? up|bought|ordered|spent|earned|sold|drove|travelled|traveled|watched|visited|completed|finished|submitted|booked)\b",  # noqa: E501
    "preference_note": r"\b(?:prefer(?:s|red)?|like(?:s|d)?|love(?:s|d)?|want(?:s|ed)?|need(?:s|ed)?|avoid(?:s|ed)?|dislike(?:s|d)?|hate(?:s|d)?|enjoy(?:s|ed)?|interested in|looking for)\b",  # noqa: E501
    "generic_note": r"\b(?:tips?|advice|suggest(?:ion|ed)?s?|recommend(?:ation|ed)?s?|ideas?|options?|guide|tracking|tracker|checklist)\b",  # noqa: E501
    "rollup_note": r"\b(?:roll-?up|summary|recap|overview|aggregate|combined|overall|in total|totalled?|totalling)\b",  # noqa: E501
    "atomic_event_note": r"\b(?:i|we)\s+(?:picked up|bought|ordered|spent|earned|sold|drove|travelled|traveled|went|watched|visited|completed|finished|started|booked|got|took|submitted)\b",  # noqa: E501
    "date_tag": r"\[(?:date|observed on):",
}


def schema() -> Any:
    path = kit_root() / "schemas" / "intent-table.schema.json"
    return json.loads(path.read_text(encoding="utf-8"))


def table_doc(name: str) -> Any:
    return json.loads(data_path(f"intent-{name}.json").read_text(encoding="utf-8"))


def test_schema_is_a_valid_json_schema() -> None:
    """INTENT-1: schemas/intent-table.schema.json is itself valid draft 2020-12."""
    jsonschema.Draft202012Validator.check_schema(schema())


@pytest.mark.parametrize("name", TABLES)
def test_table_file_is_valid_against_the_schema(name: str) -> None:
    """INTENT-1: every shipped table validates against schemas/intent-table.schema.json."""
    jsonschema.Draft202012Validator(schema()).validate(table_doc(name))


@pytest.mark.parametrize(
    "breakage",
    [
        lambda d: d["queryPatterns"][0].update(flags="iu"),
        lambda d: d["rules"][0].update(all=[{"every": ["global_path"]}]),
        lambda d: d["families"].reverse(),
        lambda d: d.pop("provenance"),
        lambda d: d["documentPatterns"][0].update(target="title"),
    ],
)
def test_schema_rejects_a_broken_table(breakage: Any) -> None:
    """INTENT-1, INTENT-3, INTENT-6: bad flags, unknown condition keys, family order, provenance."""
    doc = table_doc("anchor")
    breakage(doc)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft202012Validator(schema()).validate(doc)


def test_anchor_sources_are_the_anchors_byte_for_byte() -> None:
    """INTENT-2, INTENT-13: the nine anchor regexes equal the anchor's, each with the i flag."""
    doc = table_doc("anchor")
    by_name = {p["name"]: p for p in doc["queryPatterns"] + doc["documentPatterns"]}
    assert {n: by_name[n]["source"] for n in ANCHOR_SOURCES} == ANCHOR_SOURCES
    assert all(by_name[n]["flags"] == "i" for n in ANCHOR_SOURCES)


def test_anchor_provenance_is_recorded() -> None:
    """INTENT-1: repository, path, commit, licence and copyright line of the anchor data."""
    prov = table_doc("anchor")["provenance"]
    assert (prov["repository"], prov["path"], prov["commit"], prov["licence"]) == (
        "jeffs-brain/memory",
        "spec/ALGORITHMS.md",
        "22a586e",
        "Apache-2.0",
    )
    assert prov["copyright"] == "Copyright 2026 Alex J and contributors"


def test_hrc_1_0_says_it_was_written_for_hrc() -> None:
    """INTENT-13: the 1.0 table is hrc's own data, not anchor data."""
    assert "hrc 1.0.0" in table_doc("hrc-1.0")["provenance"]["writtenFor"]
