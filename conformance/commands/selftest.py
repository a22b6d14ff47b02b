"""`hrc selftest mutants`: prove the golden suite rejects broken ports (conformance/selftest/).

Exit 0 when every mutant is killed and the reference passes, 1 when a mutant survives (or is
stillborn, or the reference fails), 2 on a usage error such as an unknown mutant name.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from conformance.common import errors
from conformance.judging.cases import CaseFileError, case_files, load_all
from conformance.judging.suite import Suite
from conformance.running.results import RunOptions


def register(subparsers: Any) -> None:
    """Add `hrc selftest` with its `mutants` sub-command."""
    p: argparse.ArgumentParser = subparsers.add_parser(
        "selftest",
        help="check that the golden suite rejects broken ports",
        description="Self-tests of the golden suite.",
    )
    sub = p.add_subparsers(dest="selftest_command", required=True, metavar="CHECK")
    m: argparse.ArgumentParser = sub.add_parser(
        "mutants",
        help="run the suite against every broken port; fail if one survives",
        description="Run the golden suite, through the adapter protocol, against every "
        "deliberately broken variant of the reference (conformance/selftest/broken_ports/). "
        "Exit 1 if any of them passes every case.",
    )
    m.add_argument(
        "--select", action="append", default=[], metavar="NAME", help="only these mutants"
    )
    m.add_argument("--list", action="store_true", help="list the mutants and exit")
    m.add_argument("--workers", type=int, default=3, metavar="N", help="adapters at once (3)")
    m.add_argument("--golden", type=Path, metavar="DIR", help="golden case directory")
    m.add_argument("--timeout", type=float, default=5.0, metavar="S", help="per case (5)")
    m.add_argument("--report-json", type=Path, metavar="PATH", help="write a JSON report")
    m.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    m.add_argument(
        "--all-killers",
        action="store_true",
        help="run every case against each mutant and count every killing case (slower; by "
        "default a mutant stops at its first killer, cases citing its clause first)",
    )
    m.set_defaults(func=cmd_mutants)


def cmd_mutants(args: argparse.Namespace) -> int:
    from conformance.selftest import gate
    from conformance.selftest.broken_ports import MUTANTS

    if args.list:
        for mutant in MUTANTS.values():
            print(f"{mutant.name}\t{mutant.clause}\t{mutant.description}")
        return 0
    unknown = [n for n in args.select if n not in MUTANTS]
    if unknown:
        return errors.emit("selftest mutants", f"unknown mutant(s): {', '.join(unknown)}")
    if args.workers < 1 or args.timeout <= 0:
        return errors.emit("selftest mutants", "--workers and --timeout must be positive")
    from conformance.selftest.broken_ports.patching import seam_problems

    problems = seam_problems(args.select or None)
    if problems:
        # a renamed reference function a broken port rebinds: the port is dead, not killed
        for line in problems:
            print(f"hrc selftest mutants: {line}", file=sys.stderr)
        return 1
    try:
        suite = Suite.at(args.golden)
        cases = load_all(case_files(suite.golden), suite=suite)
    except CaseFileError as exc:
        return errors.emit("selftest mutants", str(exc))

    def progress(outcome: gate.Outcome) -> None:
        print(f"  {outcome.verdict:<9} {outcome.name}", file=sys.stderr, flush=True)

    result = gate.run_gate(
        cases,
        args.select or None,
        workers=args.workers,
        options=RunOptions(timeout=args.timeout),
        on_done=progress,
        first_kill=not args.all_killers,
    )
    out = gate.render_markdown(result) if args.markdown else gate.render_text(result)
    sys.stdout.write(out)
    sys.stdout.flush()
    if args.report_json is not None:
        gate.write_json(args.report_json, result)
    return 0 if result.ok else 1
