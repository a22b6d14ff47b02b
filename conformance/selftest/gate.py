"""Run the golden suite against every mutant through the adapter protocol and score the suite.

A mutant is *killed* when at least one case fails against it (any outcome that fails a run,
PROTO-24), and *survives* when every case passes: a surviving mutant is a missing golden case.
The unmodified reference adapter runs alongside as the control: if it fails, kills mean nothing.
A mutant that passes no case and gives no plain wrong answer either (only crashes, errors or
timeouts) is *stillborn*: its patch broke the adapter, not the behaviour it meant to break, and it
fails the gate like a survivor.

Every broken port must be killed by at least two distinct cases (a case and its derived
`#canonical` twin count as one), and every clause must have a broken port, or for a core clause
a recorded reason why not (`unguarded.py`): otherwise the port is *weak*, or the clause
*unguarded*, and the gate fails (issue 25; benchmarks/mutation/README.md).

By default a mutant's run stops once it has the two killers it needs, with the cases that
cite the mutant's clause run first: the verdict is the same as a whole run's (a run is only
continued when its killers leave the stillborn or the weak question open), at a fraction of the
time. `first_kill=False` runs every case and counts every killer.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from conformance.adapters.adapter_process import python_command
from conformance.common import atomic_write
from conformance.judging.cases import Case
from conformance.judging.clauses import defined_clauses
from conformance.running.results import FAILING, RunOptions
from conformance.running.runner import REFERENCE_ADAPTER_MODULE, run_suite
from conformance.selftest import unguarded
from conformance.selftest.broken_ports import MUTANTS
from conformance.selftest.mutant_adapter import MODULE as MUTANT_MODULE

CONTROL = "(reference)"
SHOWN_KILLERS = 3
#: distinct killing cases every broken port needs (issue 25): one case is one input away from a
#: port that passes.
KILLERS_NEEDED = 2


def base_id(case_id: str) -> str:
    """The YAML case a derived case comes from: `x#canonical` counts as `x`."""
    return case_id.split("#", 1)[0]


@dataclass(frozen=True)
class Outcome:
    """What the suite did to one adapter (a mutant, or the control)."""

    name: str
    clause: str
    description: str
    counts: dict[str, int]
    #: ids of the cases that failed the run, in suite order.
    killers: tuple[str, ...] = ()
    duration_ms: float = 0.0
    messages: dict[str, str] = field(default_factory=dict)
    #: False when the run stopped once it had its killers (`killers` is then a prefix).
    complete: bool = True
    #: distinct killing cases the port needs (`KILLERS_NEEDED`); 1 for the control.
    needed: int = 1

    @property
    def killed(self) -> bool:
        return bool(self.killers)

    @property
    def distinct_killers(self) -> int:
        """Killing cases, a case and its `#canonical` twin counted once."""
        return len({base_id(k) for k in self.killers})

    @property
    def weak(self) -> bool:
        """Killed, but by fewer distinct cases than its clause needs."""
        return self.killed and self.distinct_killers < self.needed

    @property
    def stillborn(self) -> bool:
        """Nothing passed and nothing was merely wrong: the adapter itself is broken."""
        return self.counts.get("passed", 0) == 0 and self.counts.get("failed", 0) == 0

    @property
    def verdict(self) -> str:
        if self.name == CONTROL:
            return "clean" if not self.killers else "BROKEN"
        if self.stillborn:
            return "STILLBORN"
        if self.weak:
            return "WEAK"
        return "killed" if self.killed else "SURVIVED"

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "clause": self.clause,
            "description": self.description,
            "verdict": self.verdict,
            "failing": len(self.killers),
            "distinctKillers": self.distinct_killers,
            "needed": self.needed,
            "counts": dict(self.counts),
            "killers": list(self.killers),
            "complete": self.complete,
            "firstMessages": dict(self.messages),
            "durationMs": self.duration_ms,
        }


@dataclass(frozen=True)
class GateResult:
    """The control and every mutant, in registry order."""

    control: Outcome
    mutants: list[Outcome]
    #: clauses no registered broken port cites and unguarded.tsv does not explain (checked when
    #: every port ran).
    unguarded: tuple[str, ...] = ()

    @property
    def survivors(self) -> list[Outcome]:
        return [m for m in self.mutants if not m.killed]

    @property
    def stillborn(self) -> list[Outcome]:
        return [m for m in self.mutants if m.killed and m.stillborn]

    @property
    def weak(self) -> list[Outcome]:
        return [m for m in self.mutants if m.weak and not m.stillborn]

    @property
    def ok(self) -> bool:
        return (not self.control.killers and not self.survivors and not self.stillborn
                and not self.weak and not self.unguarded)

    def to_json(self) -> dict[str, Any]:
        killed = sum(1 for m in self.mutants if m.killed and not m.stillborn and not m.weak)
        return {
            "summary": {
                "mutants": len(self.mutants),
                "killed": killed,
                "survived": len(self.survivors),
                "stillborn": len(self.stillborn),
                "weak": len(self.weak),
                "unguardedClauses": list(self.unguarded),
                "controlClean": not self.control.killers,
                "ok": self.ok,
            },
            "control": self.control.to_json(),
            "mutants": [m.to_json() for m in self.mutants],
        }


def mutant_argv(name: str) -> list[str]:
    """The adapter command line that serves mutant `name`."""
    return [*python_command(MUTANT_MODULE), name]


def clause_first(cases: Sequence[Case], clause: str) -> list[Case]:
    """The cases citing `clause` first, then the others, each group in suite order; inside a
    group, derived `#canonical` cases after the YAML ones, so the first killers are distinct."""
    citing = [c for c in cases if clause in c.clauses]
    others = [c for c in cases if clause not in c.clauses]
    out: list[Case] = []
    for group in (citing, others):
        out += [c for c in group if base_id(c.id) == c.id]
        out += [c for c in group if base_id(c.id) != c.id]
    return out


def run_one(
    name: str,
    argv: Sequence[str],
    cases: Sequence[Case],
    options: RunOptions | None = None,
    first_kill: bool = False,
    needed: int | None = None,
) -> Outcome:
    """Run the cases against one adapter and summarise the result.

    With `first_kill`, a mutant's cases run clause-first and stop once `needed` cases failed
    (default `KILLERS_NEEDED`), unless nothing has passed or plainly failed by
    then, or the failures are fewer distinct cases than needed: only the whole run can tell a
    stillborn mutant (nothing but crashes) from a killed one, or a weak one from a killed one,
    so that run goes on to the end.
    """
    known = MUTANTS.get(name)
    need = needed if needed is not None else (KILLERS_NEEDED if known else 1)
    run = None
    if first_kill and known is not None:
        run = run_suite(clause_first(cases, known.clause), argv, options, maxfail=need)
        counts = run.counts()
        early = [r.case.id for r in run.results if r.status in FAILING]
        if counts.get("passed", 0) == 0 and counts.get("failed", 0) == 0:
            run = None  # possibly stillborn: decide on the whole run below
        elif len(early) >= need and len({base_id(i) for i in early}) < need:
            run = None  # stopped on a case and its twin: count distinct killers on the whole run
    complete = run is None
    if run is None:
        run = run_suite(cases, argv, options)
    failing = [r for r in run.results if r.status in FAILING]
    messages = {r.case.id: f"[{r.status}] {r.message}" for r in failing[:SHOWN_KILLERS]}
    return Outcome(
        name=name,
        clause=known.clause if known else "",
        description=known.description if known else "the unmodified reference adapter",
        counts=run.counts(),
        killers=tuple(r.case.id for r in failing),
        duration_ms=run.duration_ms,
        messages=messages,
        complete=complete or len(failing) < need,
        needed=need if known else 1,
    )


def run_gate(
    cases: Sequence[Case],
    names: Sequence[str] | None = None,
    workers: int = 2,
    options: RunOptions | None = None,
    on_done: Callable[[Outcome], None] | None = None,
    first_kill: bool = True,
) -> GateResult:
    """The control and every selected mutant, each in its own adapter, `workers` at a time.

    The control always runs every case; a mutant stops at its first killer with `first_kill`.
    """
    chosen = list(MUTANTS) if names is None else list(names)
    unknown = [n for n in chosen if n not in MUTANTS]
    if unknown:
        raise KeyError(f"unknown mutant(s): {', '.join(unknown)}")
    jobs: list[tuple[str, list[str]]] = [(CONTROL, python_command(REFERENCE_ADAPTER_MODULE))]
    jobs += [(n, mutant_argv(n)) for n in chosen]

    def job(item: tuple[str, list[str]]) -> Outcome:
        outcome = run_one(item[0], item[1], cases, options, first_kill)
        if on_done is not None:
            on_done(outcome)
        return outcome

    with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
        outcomes = list(pool.map(job, jobs))
    return GateResult(
        control=outcomes[0],
        mutants=outcomes[1:],
        unguarded=unguarded_clauses() if names is None else (),
    )


def unguarded_clauses(
    defined: frozenset[str] | None = None, recorded: dict[str, str] | None = None
) -> tuple[str, ...]:
    """The clauses no registered broken port cites and `unguarded.tsv` does not explain, in
    spec order (every profile clause needs a port: the tests refuse a profile clause listed)."""
    if defined is None:
        defined = frozenset(defined_clauses())
    listed = unguarded.load_recorded() if recorded is None else recorded
    return unguarded.unguarded(defined, (m.clause for m in MUTANTS.values()), listed)


# -- rendering ---------------------------------------------------------------------------------


def _failing_text(outcome: Outcome) -> str:
    """How many cases failed; `2+` when the run stopped once it had its killers."""
    return f"{len(outcome.killers)}" + ("" if outcome.complete else "+")


def _verdict_lines(summary: dict[str, Any]) -> list[str]:
    """The closing lines shared by the text and Markdown tables."""
    lines = []
    if summary["unguardedClauses"]:
        lines.append(
            "clauses without a broken port or a recorded reason (conformance/selftest/"
            "unguarded.tsv): " + ", ".join(summary["unguardedClauses"])
        )
    weak = f", {summary['weak']} weak (killed by one case only)"
    lines.append(
        f"{summary['killed']} killed, {summary['survived']} survived, "
        f"{summary['stillborn']} stillborn" + (weak if summary["weak"] else "")
        + f" of {summary['mutants']} mutants"
    )
    return lines


def _killers_text(outcome: Outcome) -> str:
    shown = ", ".join(outcome.killers[:SHOWN_KILLERS])
    more = len(outcome.killers) - SHOWN_KILLERS
    return shown + (f" (+{more} more)" if more > 0 else "")


def render_text(result: GateResult) -> str:
    """A plain table, one mutant a line, then a verdict line."""
    rows = [
        (m.name, m.clause, m.verdict, _failing_text(m), _killers_text(m)) for m in result.mutants
    ]
    header = ("mutant", "clause", "verdict", "failing", "first killing cases")
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(4)]
    lines = []
    for row in [header, *rows]:
        cells = [row[i].ljust(widths[i]) for i in range(4)]
        lines.append("  ".join([*cells, row[4]]).rstrip())
    summary = result.to_json()["summary"]
    lines.append("")
    control = "clean" if summary["controlClean"] else "FAILED (kills are meaningless)"
    lines.append(f"control (reference adapter): {control}")
    verdict = _verdict_lines(summary)
    lines += [*verdict[:-1], "hrc selftest: " + verdict[-1]]
    return "\n".join(lines) + "\n"


def render_markdown(result: GateResult) -> str:
    """The same table in Markdown, for docs and CI summaries."""
    lines = [
        "| mutant | clause | what is wrong | verdict | failing cases | first killing cases |",
        "|---|---|---|---|---|---|",
    ]
    for m in result.mutants:
        killers = ", ".join(f"`{k}`" for k in m.killers[:SHOWN_KILLERS])
        lines.append(
            f"| `{m.name}` | {m.clause} | {m.description.replace('|', '/')} | {m.verdict} "
            f"| {_failing_text(m)} | {killers} |"
        )
    summary = result.to_json()["summary"]
    lines.append("")
    verdict = _verdict_lines(summary)
    lines += verdict[:-1]
    lines.append(verdict[-1] + "; control " + ("clean." if summary["controlClean"] else "FAILED."))
    return "\n".join(lines) + "\n"


def write_json(path: Path, result: GateResult) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write.write_text(path, json.dumps(result.to_json(), indent=2, ensure_ascii=False) + "\n")
