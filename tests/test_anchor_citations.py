"""Every clause tagged `[anchor]` cites the anchor sentence it follows (spec/README.md, Authority).

The ledger `spec/anchor-citations.tsv` holds, for each such clause, one or more quotes of the
anchor's ALGORITHMS.md or QUERY-DSL.md (jeffs-brain/memory at 22a586e). A re-tagged clause must
leave the ledger, an `[anchor]` clause must enter it, and every quote must be found verbatim
(white-space runs as one space) in the document it names, so a tag cannot drift from its text.
The anchor's documents are not part of the repository: the verbatim check reads them from
`HRC_ANCHOR_SPEC` (default: the authoring machine's notes) and is skipped, with that reason,
elsewhere; the ledger's shape and its agreement with the tags are checked everywhere.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from conformance.judging import authority
from reference.data import kit_root

SPEC = kit_root() / "spec"
LEDGER = SPEC / "anchor-citations.tsv"
DOCUMENTS = ("ALGORITHMS.md", "QUERY-DSL.md")
ANCHOR_SPEC = Path(os.environ.get("HRC_ANCHOR_SPEC", "/work/shared/notes/anchor-spec"))
#: A quote shorter than this cites a word, not a sentence.
MIN_QUOTE = 15


def _rows() -> list[tuple[str, str, str]]:
    lines = [ln for ln in LEDGER.read_text(encoding="utf-8").splitlines() if not ln.startswith("#")]
    assert lines[0] == "clause\tdocument\tquote"
    rows = []
    for line in lines[1:]:
        cells = line.split("\t")
        assert len(cells) == 3, line
        rows.append((cells[0], cells[1], cells[2]))
    return rows


def _squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def test_ledger_rows_are_well_formed() -> None:
    """Each row names a clause, one of the two anchor documents and a quote of a sentence."""
    for clause, document, quote in _rows():
        assert re.fullmatch(r"[A-Z]+-[0-9]+", clause), clause
        assert document in DOCUMENTS, (clause, document)
        assert len(_squash(quote)) >= MIN_QUOTE, (clause, quote)
        assert quote == quote.strip(), (clause, quote)


def test_every_anchor_clause_cites_the_anchor_and_only_anchor_clauses_do() -> None:
    """The ledger's clauses are exactly the clauses tagged `[anchor]`."""
    tagged = {cid for cid, tag in authority.spec_tags(SPEC).items() if tag.authority == "anchor"}
    cited = {clause for clause, _, _ in _rows()}
    assert sorted(tagged - cited) == [], "tagged [anchor] but citing no anchor sentence"
    assert sorted(cited - tagged) == [], "citing the anchor but not tagged [anchor]"


def test_no_quote_is_listed_twice_for_one_clause() -> None:
    rows = _rows()
    assert len(rows) == len({(c, _squash(q)) for c, _, q in rows})


def test_every_quote_is_verbatim_in_the_anchor_document_it_names() -> None:
    """The anchor's own words, found in ALGORITHMS.md or QUERY-DSL.md at 22a586e."""
    if not all((ANCHOR_SPEC / name).is_file() for name in DOCUMENTS):
        pytest.skip(f"the anchor's documents are not at {ANCHOR_SPEC} (set HRC_ANCHOR_SPEC)")
    text = {name: _squash((ANCHOR_SPEC / name).read_text(encoding="utf-8")) for name in DOCUMENTS}
    missing = [(c, d, q) for c, d, q in _rows() if _squash(q) not in text[d]]
    assert missing == []
