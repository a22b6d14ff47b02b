"""Authority: every clause names who decided it, spec/authority.json equals the spec text, and
`hrc run` / `hrc list` show, count and select by it (spec/README.md "Authority", PROTO-23,
PROTO-48)."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest
from fake_adapters.support import fake, write_tiny_golden

from conformance import cli
from conformance.judging import authority
from conformance.judging.cases import load_all
from conformance.judging.clauses import defined_clauses
from conformance.judging.schemas import schema_validator
from conformance.judging.selection import SelectionError, select
from conformance.reports.report import clause_list
from reference.data import kit_root

SPEC = kit_root() / "spec"
DECISION_ROW = re.compile(r"^\| ([A-Z][0-9]+) \|", re.M)


# -- the index equals the spec text ----------------------------------------------------------


def test_every_clause_has_exactly_one_valid_tag_and_the_index_equals_the_text() -> None:
    """Every defined clause carries one valid tag; spec/authority.json is exactly that map,
    keys sorted, no extra key (regenerate with tools/gen_authority_index.py)."""
    tags = authority.spec_tags(SPEC)
    assert set(tags) == set(defined_clauses(SPEC))
    on_disk = (SPEC / authority.INDEX_FILE).read_text(encoding="utf-8")
    assert on_disk == authority.index_text(tags), (
        "spec/authority.json differs from the spec's tags: run python tools/gen_authority_index.py"
    )
    index = authority.read_index(SPEC / authority.INDEX_FILE)
    assert list(index) == sorted(index)
    assert set(index) == set(tags)
    assert {tag.authority for tag in tags.values()} <= set(authority.AUTHORITIES)


def test_each_definition_line_has_one_tag_right_after_its_id() -> None:
    """A second bracket tag, or a tag elsewhere on the line, is not an authority tag."""
    twice = re.compile(r"^\s*- \*\*[A-Z]+-[0-9]+\*\* \[[^\]]*\] \[(seed:|anchor|code:|kit)", re.M)
    for path in sorted(SPEC.glob("*.md")) + sorted(SPEC.glob("profiles/*.md")):
        assert not twice.search(path.read_text(encoding="utf-8")), path.name


def _decision_rows(path: Path) -> list[str]:
    """The rows of a decisions table (`| Dn | …` in spec/README.md, `| Gn | …` in a chapter)."""
    text = path.read_text(encoding="utf-8")
    return [line for line in text.splitlines() if DECISION_ROW.match(line)]


def test_kit_decisions_named_in_tags_are_rows_of_the_decisions_table() -> None:
    """`[kit, Dn]` names a decision of spec/README.md's table, `[kit, Xn]` in a profile chapter
    one of that chapter's table (PROFILE-7); every row has the six columns."""
    rows = _decision_rows(SPEC / "README.md")
    for chapter in sorted(SPEC.glob("profiles/*.md")):
        rows += _decision_rows(chapter)
    ids = {DECISION_ROW.match(row).group(1) for row in rows}  # type: ignore[union-attr]
    for row in rows:
        cells = re.split(r"(?<!\\)\|", row.strip())[1:-1]
        assert len(cells) == 6, row
        allowed, status = cells[4].strip(), cells[5].strip()
        if status.startswith("kept"):  # a kept decision names the allowance that permits it
            assert re.match(r"\((a|b|c)\)", allowed), row
    tags = authority.spec_tags(SPEC).values()
    named = {t.decision for t in tags if t.decision}
    assert named and named <= ids, sorted(named - ids)
    for tag in tags:  # a profile's own decision is named only by that profile's chapter
        if tag.decision and not tag.decision.startswith("D"):
            assert tag.decision in {DECISION_ROW.match(r).group(1)  # type: ignore[union-attr]
                                    for r in _decision_rows(SPEC / tag.file)}, tag


def test_a_code_tag_is_used_only_in_its_own_profile_chapter() -> None:
    """PROFILE-7: `[code:NAME]` is the second authority of profile NAME alone; the core and
    the other profiles cannot cite a system's code."""
    for tag in authority.spec_tags(SPEC).values():
        if authority.family(tag.authority) == "code":
            name = tag.authority.split(":", 1)[1]
            assert tag.file == f"profiles/{name}.md", tag


@pytest.mark.parametrize(
    ("body", "expected"),
    [("anchor", ("anchor", None)), ("seed:004", ("seed:004", None)), ("kit, D12", ("kit", "D12")),
     ("code:engram", ("code:engram", None)), ("code:gbrain", ("code:gbrain", None)),
     ("kit, G1", ("kit", "G1"))],
)
def test_parse_tag_accepts_the_shared_format(body: str, expected: tuple[str, str | None]) -> None:
    assert authority.parse_tag(body) == expected


@pytest.mark.parametrize(
    "body", ["Kit", "seed:005", "seed", "anchor, D1", "kit, 12", "kit, D1, D2", "",
             "code", "code:", "code:lucene", "code:engram, D1", "kit, g1"]
)
def test_parse_tag_refuses_anything_else(body: str) -> None:
    with pytest.raises(ValueError):
        authority.parse_tag(body)


def _spec(tmp_path: Path, text: str) -> Path:
    spec = tmp_path / "spec"
    spec.mkdir()
    (spec / "x.md").write_text(text, encoding="utf-8")
    return spec


def test_a_missing_or_bad_tag_is_reported_with_file_and_line(tmp_path: Path) -> None:
    spec = _spec(tmp_path, "# X\n\n- **X-1** [kit] one.\n- **X-2** two.\n")
    with pytest.raises(authority.AuthorityError, match=r"^x\.md:4: clause X-2 has no authority"):
        authority.spec_tags(spec)
    (spec / "x.md").write_text("# X\n\n- **X-1** [kit] one.\n- **X-2** [anchr] two.\n")
    with pytest.raises(authority.AuthorityError, match=r"^x\.md:4: clause X-2: unknown"):
        authority.spec_tags(spec)
    (spec / "x.md").write_text("- **X-1** [kit] one.\n- **X-2** [seed:001] two.\n")
    tags = authority.spec_tags(spec)
    assert authority.index_text(tags) == '{\n "X-1": "kit",\n "X-2": "seed:001"\n}\n'


def test_a_malformed_index_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "authority.json"
    path.write_text('{"X-1": "kitt"}', encoding="utf-8")
    with pytest.raises(authority.AuthorityError, match="unknown authority 'kitt'"):
        authority.read_index(path)
    path.write_text("[]", encoding="utf-8")
    with pytest.raises(authority.AuthorityError, match="must be a JSON object"):
        authority.read_index(path)


# -- counting --------------------------------------------------------------------------------

INDEX = {"A-1": "seed:000", "A-2": "seed:002", "B-1": "anchor", "C-1": "kit",
         "E-1": "code:engram", "G-1": "code:gbrain"}


def test_tally_counts_a_case_under_every_authority_it_cites() -> None:
    """PROTO-48: one case citing a seed clause and a kit clause counts under both; a clause
    missing from the index adds nothing."""
    judged = [
        (["A-1", "C-1"], True),
        (["A-1", "A-2"], False),
        (["B-1"], True),
        (["B-1", "C-1"], False),
        (["Z-9"], False),
    ]
    assert authority.tally(judged, INDEX) == {
        "seed": {"passed": 1, "total": 2},
        "seed:000": {"passed": 1, "total": 2},
        "seed:002": {"passed": 0, "total": 1},
        "anchor": {"passed": 1, "total": 2},
        "kit": {"passed": 1, "total": 2},
    }


def test_tally_counts_a_system_code_under_code_and_under_its_own_name() -> None:
    """PROTO-48, PROFILE-7: `code` appears once a judged case cites a system's code, with one
    entry per system cited, after the anchor and before the kit."""
    judged = [(["E-1", "C-1"], True), (["G-1"], False), (["E-1", "G-1"], True)]
    counts = authority.tally(judged, INDEX)
    assert counts == {
        "seed": {"passed": 0, "total": 0},
        "anchor": {"passed": 0, "total": 0},
        "code": {"passed": 2, "total": 3},
        "code:engram": {"passed": 2, "total": 2},
        "code:gbrain": {"passed": 1, "total": 2},
        "kit": {"passed": 1, "total": 1},
    }
    assert list(counts) == ["seed", "anchor", "code", "code:engram", "code:gbrain", "kit"]
    assert authority.summary_line(counts) == "authority: code 2/3, kit 1/1"
    assert authority.selects("code", ["E-1"], INDEX)
    assert authority.selects("code:gbrain", ["G-1"], INDEX)
    assert not authority.selects("code:engram", ["G-1", "C-1"], INDEX)
    authority.check_selector("code:engram")
    with pytest.raises(ValueError, match="unknown authority 'code:lucene'"):
        authority.check_selector("code:lucene")


def test_summary_line_groups_thousands_and_leaves_out_empty_families() -> None:
    counts = {"seed": {"passed": 0, "total": 0}, "anchor": {"passed": 1020, "total": 1033},
              "kit": {"passed": 360, "total": 401}}
    assert authority.summary_line(counts) == "authority: anchor 1,020/1,033, kit 360/401"
    assert authority.summary_line(authority.tally([], INDEX)) == ""


def test_clause_list_names_the_authority_beside_each_known_clause() -> None:
    assert clause_list(["A-1", "Z-9", "C-1"], INDEX) == "A-1 [seed:000], Z-9, C-1 [kit]"


# -- selection -------------------------------------------------------------------------------


def test_select_by_authority_matches_the_cases_citing_it() -> None:
    """PROTO-23: `authority:NAME` selects every case citing a clause of that authority."""
    suite = load_all()
    index = authority.index_for()
    for name in ("kit", "anchor", "seed", "seed:000"):
        chosen = {c.id for c in select(suite, [f"authority:{name}"])}
        expected = {
            c.id for c in suite
            if any(index.get(cid) == name or authority.family(index.get(cid, "")) == name
                   for cid in c.clauses)
        }
        assert chosen == expected and chosen, name
    seeds: set[str] = set()
    for seed in authority.SEEDS:
        try:
            seeds |= {c.id for c in select(suite, [f"authority:{seed}"])}
        except SelectionError:  # no case cites a clause of this seed
            continue
    assert {c.id for c in select(suite, ["authority:seed"])} == seeds


def test_select_by_an_unknown_authority_is_a_usage_error() -> None:
    with pytest.raises(SelectionError, match="unknown authority 'kits'"):
        select(load_all(), ["authority:kits"])


def test_hrc_list_selects_by_authority(capsys: pytest.CaptureFixture[str]) -> None:
    """`hrc list --select authority:seed:002` lists exactly the cases citing a seed 002 clause."""
    index = authority.index_for()
    assert cli.main(["list", "--json", "--select", "authority:seed:002"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert rows
    assert all(any(index.get(c) == "seed:002" for c in row["clauses"]) for row in rows)
    assert cli.main(["list", "--select", "authority:seed:9"]) == 2
    assert "unknown authority 'seed:9'" in capsys.readouterr().err


# -- hrc run ---------------------------------------------------------------------------------


def _run(tmp_path: Path, adapter: list[str], *extra: str) -> list[str]:
    golden = write_tiny_golden(tmp_path)
    return ["run", "--golden", str(golden), "--adapter", shlex.join(adapter),
            "--timeout", "0.5", "--handshake-timeout", "2", *extra]


def test_run_names_authorities_in_the_failure_block_and_counts_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """PROTO-48: the failure block shows each clause's authority; the summary line and the
    JSON report count passed/total per family over the judged cases."""
    report = tmp_path / "report.json"
    argv = _run(tmp_path, fake("always_wrong"), "--report-json", str(report))
    assert cli.main(argv) == 1
    out = capsys.readouterr().out
    index = authority.index_for()
    assert f"clauses:  TEXT-5 [{index['TEXT-5']}]" in out
    document = json.loads(report.read_text(encoding="utf-8"))
    schema_validator("report.schema.json").validate(document)
    judged = [(c["clauses"], c["status"] == "passed") for c in document["cases"]
              if c["status"] not in ("not_applicable", "xfail", "not_run")]
    assert document["authority"] == authority.tally(judged, index)
    expected: dict[str, list[int]] = {}
    for clauses, passed in judged:
        for fam in {authority.family(index[c]) for c in clauses}:
            expected.setdefault(fam, [0, 0])
            expected[fam][0] += passed
            expected[fam][1] += 1
    line = next(x for x in out.splitlines() if x.startswith("authority: "))
    shown = dict(part.split(" ") for part in line.removeprefix("authority: ").split(", "))
    assert shown == {fam: f"{p}/{t}" for fam, (p, t) in expected.items()}
    assert out.rstrip("\n").splitlines()[-1].startswith("hrc: ")


def test_run_selects_by_authority(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`hrc run --select authority:NAME` runs exactly the cases citing a clause of NAME."""
    index = authority.index_for()
    name = authority.family(index["OP-2"])
    report = tmp_path / "report.json"
    argv = _run(tmp_path, fake("good"), "--quiet", "--select", f"authority:{name}",
                "--report-json", str(report))
    assert cli.main(argv) == 0
    ids = {c["id"] for c in json.loads(report.read_text(encoding="utf-8"))["cases"]}
    assert "tiny/length/not-a-string" in ids
    assert all(any(authority.family(index[c]) == name for c in case.clauses)
               for case in load_all(root=tmp_path / "golden") if case.id in ids)
    capsys.readouterr()
    assert cli.main(_run(tmp_path / "x", fake("good"), "--select", "authority:nobody")) == 2
    assert "unknown authority 'nobody'" in capsys.readouterr().err


def test_a_malformed_index_beside_the_golden_is_one_error_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A suite whose spec/authority.json is malformed stops `hrc run` and `hrc list` with one
    `hrc COMMAND: error:` line and exit 2 (PROTO-44), never a traceback."""
    argv = _run(tmp_path, fake("good"), "--quiet")
    (tmp_path / "spec").mkdir()
    (tmp_path / "spec" / authority.INDEX_FILE).write_text('{"TEXT-5": "anchr"}', encoding="utf-8")
    assert cli.main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("hrc run: error:") and "anchr" in err[0]
    assert cli.main(["list", "--golden", str(tmp_path / "golden")]) == 2
    assert capsys.readouterr().err.startswith("hrc list: error:")
