"""PROFILE-7: a profile whose system has public code keeps a per-clause record of that code
(`spec/profiles/NAME.code.tsv`), and the record agrees with the chapter's authority tags."""

from __future__ import annotations

import csv
import re

import pytest

from conformance.judging import authority
from reference.data import kit_root

SPEC = kit_root() / "spec"
#: The profiles whose system has public code at a pinned commit (spec/profiles.md, PROFILE-7).
CODE_PROFILES = tuple(code.split(":", 1)[1] for code in authority.CODES)
HEADER = ["clause", "location", "standing", "why"]
STANDINGS = {"agrees", "differs", "silent"}
#: `path/in/repo.ext:LINE` or `path:LINE-LINE`, optionally `; another`; or `-` (nothing there).
LOCATION = re.compile(r"^(-|[\w./@-]+(:[0-9]+(-[0-9]+)?)?(; [\w./@-]+(:[0-9]+(-[0-9]+)?)?)*)$")
DIFFERS_SECTION = "## Where the system's code differs"


def _record(name: str) -> list[dict[str, str]]:
    path = SPEC / "profiles" / f"{name}.code.tsv"
    assert path.is_file(), f"{path.relative_to(kit_root())}: missing (PROFILE-7)"
    with path.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.reader(handle, delimiter="\t", quoting=csv.QUOTE_NONE))
    assert rows and rows[0] == HEADER, f"{path.name}: the header must be {HEADER}"
    out = []
    for number, row in enumerate(rows[1:], start=2):
        assert len(row) == len(HEADER), f"{path.name}:{number}: {len(row)} columns"
        out.append(dict(zip(HEADER, row, strict=True)))
    return out


def _chapter_tags(name: str) -> dict[str, authority.Tag]:
    return {cid: tag for cid, tag in authority.spec_tags(SPEC).items()
            if tag.file == f"profiles/{name}.md"}


@pytest.mark.parametrize("name", CODE_PROFILES)
def test_the_record_lists_every_clause_of_the_chapter_once(name: str) -> None:
    """Every clause of the chapter has exactly one row; no row names another clause."""
    clauses = [row["clause"] for row in _record(name)]
    assert len(clauses) == len(set(clauses)), "a clause is recorded twice"
    assert set(clauses) == set(_chapter_tags(name))


@pytest.mark.parametrize("name", CODE_PROFILES)
def test_each_row_is_well_formed(name: str) -> None:
    """A row says where the code stands (`agrees`, `differs`, `silent`), at which location
    (`-` only where the code has nothing), and why, in words."""
    for row in _record(name):
        assert row["standing"] in STANDINGS, row
        assert LOCATION.match(row["location"]), row
        assert row["why"].strip(), row
        if row["standing"] != "silent":
            assert row["location"] != "-", row


@pytest.mark.parametrize("name", CODE_PROFILES)
def test_the_record_agrees_with_the_tags(name: str) -> None:
    """A `[code:NAME]` clause is one the code decides (`agrees`); a clause the code departs
    from is the seed's (listed in the chapter's differs table) or a kit decision (with an
    allowance); no clause is tagged with another system's code."""
    tags = _chapter_tags(name)
    chapter = (SPEC / "profiles" / f"{name}.md").read_text(encoding="utf-8")
    assert DIFFERS_SECTION in chapter, f"profiles/{name}.md has no '{DIFFERS_SECTION}' section"
    differs_table = chapter.split(DIFFERS_SECTION, 1)[1].split("\n## ", 1)[0]
    for row in _record(name):
        tag = tags[row["clause"]]
        assert tag.authority in {f"code:{name}", "kit"} or tag.authority.startswith("seed:"), tag
        if tag.authority == f"code:{name}":
            assert row["standing"] == "agrees", row
        if row["standing"] == "differs":
            assert tag.authority != f"code:{name}", row
            if tag.authority.startswith("seed:"):
                assert row["clause"] in differs_table, (
                    f"{row['clause']} differs from the code and is the seed's: "
                    f"list it under '{DIFFERS_SECTION}'")


def test_the_record_format_is_checked() -> None:
    """The location pattern accepts repository paths with lines and refuses prose."""
    assert LOCATION.match("engram/retrieval.py:120-144")
    assert LOCATION.match("src/core/link-extraction.ts:12; src/core/markdown-code.ts")
    assert LOCATION.match("-")
    assert not LOCATION.match("somewhere in retrieval")
    assert not LOCATION.match("")
