"""What the README's demo comments and corpus/README.md say each demo query shows, checked on the
reference pipeline over the demo corpus (issue 38, item 4: "the reranker is skipped" for a query
whose trace said `1 agreement, fired=False, reranked`, and "the recap leaves the top 10" for a
recap in 4th place). Every `hrc search --db demo.db "…"` line of the README's demo block needs
a checker here, so a new claim cannot go unchecked."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from conformance import cli

ROOT = Path(__file__).resolve().parent.parent
DEMO_LINE = re.compile(r'^hrc search --db demo\.db "([^"]+)"[^#\n]*#\s*(.+)$', re.M)


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("demo") / "demo.db"
    assert cli.main(["index", str(ROOT / "corpus" / "demo"), "--db", str(path)]) == 0
    return path


_ANSWERS: dict[str, Any] = {}


def search(db: Path, query: str, capsys: pytest.CaptureFixture[str]) -> Any:
    if query not in _ANSWERS:
        capsys.readouterr()
        assert cli.main(["search", "--db", str(db), query, "--json"]) == 0
        _ANSWERS[query] = json.loads(capsys.readouterr().out)
    return _ANSWERS[query]


def paths(answer: Any) -> list[str]:
    return [r["path"] for r in answer["results"]]


def rungs(answer: Any) -> list[tuple[str, int]]:
    return [(a["rung"], a["hits"]) for a in answer["trace"]["bm25"]["attempts"] if a["searched"]]


def _ladder_rescue(a: Any, comment: str) -> None:
    assert "strongest_term rescues a dead AND" in comment
    assert rungs(a)[0] == ("initial", 0) and rungs(a)[-1][0] == "strongest_term"
    assert rungs(a)[-1][1] > 0


def _trigram(a: Any, comment: str) -> None:
    assert "every FTS rung fails, trigram_fuzzy finds kubernetes" in comment
    *fts, last = rungs(a)
    assert all(hits == 0 for _, hits in fts) and last[0] == "trigram_fuzzy" and last[1] > 0
    assert any("kubernetes" in p for p in paths(a)[:3])


def _fired(a: Any, comment: str) -> None:
    assert "agree at 2 of the top 3 positions, the reranker is skipped" in comment
    assert a["trace"]["unanimity"] == {"evaluated": True, "agreements": 2, "fired": True}
    assert a["trace"]["rerank"]["outcome"] == "unanimity"


def _not_fired(a: Any, comment: str) -> None:
    assert "agree at 1 position: reranked" in comment
    assert a["trace"]["unanimity"] == {"evaluated": True, "agreements": 1, "fired": False}
    assert a["trace"]["rerank"]["outcome"] == "reranked"


def _tea(a: Any, comment: str) -> None:
    assert "user-preference tea notes jump to the top (x2.35)" in comment
    assert [p.startswith("memory/global/user-preference-tea") for p in paths(a)[:2]] == [True] * 2
    boosted = {x["id"].split("#")[0]: x["multiplier"] for x in a["trace"]["intent"]["adjusted"]}
    assert boosted["memory/global/user-preference-tea.md"] == 2.35


def _postgres(a: Any, comment: str) -> None:
    assert "the dated fact beats the plan; the recap drops to 4th (x0.45)" in comment
    order = paths(a)
    plan = order.index("projects/postgres/postgres-upgrade-plan.md")
    assert order[0] == "memory/facts/fact-postgres-16-upgrade.md" and plan > 0
    assert order.index("projects/postgres/weekly-recap-2024-w18.md") == 3
    damped = {x["id"].split("#")[0]: x["multiplier"] for x in a["trace"]["intent"]["adjusted"]}
    assert damped["projects/postgres/weekly-recap-2024-w18.md"] == 0.45


CHECKS: dict[str, Callable[[Any, str], None]] = {
    "kubernetes AND helicopter": _ladder_rescue,
    "kubernets": _trigram,
    "helm charts": _fired,
    "sourdough starter": _not_fired,
    "recommend a tea": _tea,
    "have I completed the postgres upgrade": _postgres,
}


@cache
def demo_lines() -> list[tuple[str, str]]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index("## The demo corpus"):]
    return DEMO_LINE.findall(section[:section.index("\n## ", 1)])


def test_every_demo_comment_of_the_readme_has_a_checker() -> None:
    commented = {query for query, _ in demo_lines()}
    assert commented == set(CHECKS)


@pytest.mark.parametrize("query", sorted(CHECKS))
def test_the_readme_demo_comment_holds(
    query: str, db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (comment,) = [c for q, c in demo_lines() if q == query]
    CHECKS[query](search(db, query, capsys), comment)


def test_corpus_readme_names_the_queries_that_fire_unanimity(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = (ROOT / "corpus" / "README.md").read_text(encoding="utf-8")
    said = text[text.index("Observed with the reference pipeline"):]
    said = said[:said.index("checks each of these")]
    fire, rest = said.split("also fire unanimity", 1)
    for query in re.findall(r"`([^`]+)`", fire):
        if query in ("hybrid", "hrc-lexical-v1"):
            continue
        assert search(db, query, capsys)["trace"]["unanimity"]["fired"], query
    for query in re.findall(r"`([^`]+)`", rest.split("do not", 1)[0]):
        assert not search(db, query, capsys)["trace"]["unanimity"]["fired"], query
