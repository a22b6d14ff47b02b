"""Teeth cases fail a broken port for the rule they name, not for an unrelated mistake.

Issue 9, section 5: a port that truncates the trigram rung wrongly AND reads the wrong text
must still fail a case *because of the truncation*; otherwise a port that lists its known
text-reading deviation as an expected failure hides the truncation bug too. Each row below
names a case, the mutant it must kill (the rule it cites) and unrelated mutants it must NOT
kill, so that its verdict rests on the named rule alone. The audit behind the list is in
changes/wp-defects.md.
"""

from __future__ import annotations

import pytest

from conformance.judging.cases import load_all
from conformance.selftest import gate

#: (case id, mutant it must kill, mutants whose mistake must not decide it)
INDEPENDENT: list[tuple[str, str, tuple[str, ...]]] = [
    ("trigram/teeth/default-candidate-k-is-60", "tri-default-candidate-k-10",
     ("tri-path-slugs", "tri-no-padding")),
    ("trigram/teeth/default-candidate-k-is-60", "tri-slugs-and-default-candidate-k-10",
     ("tri-path-slugs",)),
    ("ladder/teeth/trigram-bound-decides-alone", "ladder-trigram-ignores-candidate-k",
     ("tri-path-slugs", "tri-no-padding", "dsl-unquoted-barewords")),
    ("ladder/teeth/trigram-tokens-keep-repeats-row-only", "ladder-trigram-tokens-deduplicated",
     ("tri-path-slugs", "dsl-unquoted-barewords", "ladder-duplicates-skipped")),
    ("ladder/teeth/empty-chunk-list-searched-row-only", "ladder-no-chunks-when-none-listed",
     ("dsl-unquoted-barewords", "ladder-duplicates-skipped")),
    ("ladder/teeth/repeated-expression-searched-by-flags", "ladder-duplicates-skipped",
     ("dsl-unquoted-barewords", "ladder-force-refresh-skip-empty")),
    ("ladder/teeth/prefix-strongest-by-result", "ladder-strongest-prefix-keeps-star",
     ("dsl-unquoted-barewords", "ladder-continues-after-hit")),
    ("trigram/teeth/exactly-three-tenths-without-counts", "tri-threshold-strict",
     ("tri-no-padding", "tri-path-slugs")),
    ("trigram/teeth/exactly-three-tenths-without-counts", "tri-threshold-f32",
     ("tri-no-padding", "tri-path-slugs")),
    ("trigram/teeth/ties-by-path-alone", "tri-ties-by-position",
     ("tri-path-slugs", "tri-no-padding")),
    ("trigram/teeth/first-token-pair-slug-proof", "tri-best-pair-last-wins", ("tri-path-slugs",)),
]


@pytest.fixture(scope="module")
def outcomes() -> dict[str, frozenset[str]]:
    """The killers of every mutant named above, over the cases named above only."""
    wanted = {row[0] for row in INDEPENDENT}
    cases = [c for c in load_all() if c.id in wanted]
    assert {c.id for c in cases} == wanted
    names = sorted({row[1] for row in INDEPENDENT} | {m for row in INDEPENDENT for m in row[2]})
    result = gate.run_gate(cases, names, workers=2)
    assert result.control.killers == ()
    return {m.name: frozenset(m.killers) for m in result.mutants}


@pytest.mark.parametrize(("case", "target", "unrelated"), INDEPENDENT,
                         ids=[f"{r[0]}:{r[1]}" for r in INDEPENDENT])
@pytest.mark.slow
def test_teeth_case_is_decided_by_its_own_rule(
    outcomes: dict[str, frozenset[str]], case: str, target: str, unrelated: tuple[str, ...]
) -> None:
    """TRI-7, LADDER-13 (and the rules listed): the target fails the case, the others pass it."""
    assert case in outcomes[target], f"{target} passes {case}"
    assert [m for m in unrelated if case in outcomes[m]] == []
