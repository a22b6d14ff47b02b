"""`hrc run`: run the golden suite against an adapter."""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path
from typing import Any

from conformance.adapters import protocol
from conformance.common import signals
from conformance.judging.cases import CaseFileError, case_files, load_all
from conformance.judging.expectations import ExpectationsError
from conformance.judging.selection import SelectionError, select
from conformance.judging.suite import Suite
from conformance.running import build_step
from conformance.running.results import NOT_RUN, RunOptions
from conformance.running.runner import AdapterCommandError, adapter_argv, run_suite

_positive = build_step.positive_seconds


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError("must be >= 0")
    return value


def _at_least_one(text: str) -> int:
    value = _count(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be >= 1")
    return value


def register(subparsers: Any) -> None:
    """Add `hrc run`."""
    p: argparse.ArgumentParser = subparsers.add_parser(
        "run",
        help="run golden cases against an adapter",
        description="Run golden cases against a port's adapter (spec/adapter-protocol.md). "
        "Exit 0 when nothing failed, 1 when a case failed, 2 on usage or case-file errors.",
    )
    p.add_argument("--adapter", metavar="CMD", help="adapter command line (default: the reference)")
    p.add_argument(
        "--select",
        action="append",
        default=[],
        metavar="PATTERN",
        help="case id, id glob, id prefix, tag, stage, op, clause id or authority:NAME "
        "(seed, seed:000..seed:004, anchor, code, code:engram, code:gbrain, kit; "
        "repeatable; any matches)",
    )
    p.add_argument("--golden", type=Path, metavar="DIR", help="golden case directory")
    p.add_argument(
        "--failed-from",
        type=Path,
        metavar="REPORT",
        help="run only the cases that failed in REPORT (a --report-json of an earlier run; "
        "with --select, the failed cases the selection holds)",
    )
    p.add_argument("--report-json", type=Path, metavar="PATH", help="write the JSON report")
    p.add_argument("--junit", type=Path, metavar="PATH", help="write a JUnit XML report")
    p.add_argument("--timeout", type=_positive, default=5.0, metavar="S", help="per case (5)")
    p.add_argument(
        "--handshake-timeout", type=_positive, default=30.0, metavar="S", help="hello (30)"
    )
    p.add_argument("--restart-budget", type=_count, default=20, metavar="N", help="(20)")
    build_step.add_arguments(p)
    p.add_argument(
        "--max-line-bytes",
        type=_count,
        default=protocol.DEFAULT_MAX_LINE_BYTES,
        metavar="N",
        help="longest accepted protocol line (16 MiB)",
    )
    p.add_argument(
        "--expected-failures", type=Path, metavar="FILE", help="YAML list of {id, reason, link?}"
    )
    p.add_argument("--quiet", action="store_true", help="no progress; one line per failure")
    p.add_argument(
        "--require",
        action="append",
        default=[],
        metavar="WHAT",
        help="fail unless covered: all, stage:NAME, op:NAME or a capability (repeatable, "
        "comma-separated; PROTO-42)",
    )
    p.add_argument(
        "--maxfail",
        type=_at_least_one,
        metavar="N",
        help="stop after N failing cases; the rest are not run (PROTO-40)",
    )
    p.add_argument(
        "-x",
        "--exitfirst",
        dest="maxfail",
        action="store_const",
        const=1,
        help="stop after the first failing case (--maxfail 1)",
    )
    p.add_argument(
        "--update-expected-failures",
        type=Path,
        metavar="FILE",
        help="write FILE listing every failing case, each with a placeholder reason a human "
        "must replace",
    )
    p.set_defaults(func=cmd_run)


def repro_prefix(args: argparse.Namespace) -> str:
    """`hrc run ...` with the options that matter to reproduce one case."""
    parts = ["hrc", "run"]
    if args.adapter is not None:
        parts += ["--adapter", args.adapter]
    if args.golden is not None:
        parts += ["--golden", str(args.golden)]
    if args.timeout != 5.0:
        parts += ["--timeout", f"{args.timeout:g}"]
    return shlex.join(parts)


def cmd_run(args: argparse.Namespace) -> int:
    from conformance.common import errors
    from conformance.judging import authority, expectations, known_ops
    from conformance.reports import junit, report, tally
    from conformance.reports import update_expected as update
    from conformance.running import require

    where = Suite.at(args.golden)
    try:
        argv = adapter_argv(args.adapter)
        suite = load_all(case_files(where.golden), suite=where)
        chosen = select(suite, args.select, authority.index_for(where.spec))
        if args.failed_from is not None:
            again = set(tally.failed_ids(args.failed_from))
            chosen = [case for case in chosen if case.id in again]
        expected = (
            expectations.load(
                args.expected_failures,
                (c.id for c in suite),
                allow_placeholder=args.update_expected_failures is not None,
            )
            if args.expected_failures is not None
            else {}
        )
        known = known_ops.known_operations(where.spec, (c.op for c in suite))
        requirements = require.parse(args.require)
        require.check_names(requirements, suite, known, where.spec)
        # Outputs are checked before the suite runs, not after (PROTO-44).
        for path, what in ((args.report_json, "--report-json"), (args.junit, "--junit"),
                           (args.update_expected_failures, "--update-expected-failures")):
            if path is not None:
                errors.check_writable(path, what)
    except (CaseFileError, SelectionError, AdapterCommandError, ExpectationsError,
            authority.AuthorityError, tally.FailedFromError) as exc:
        return errors.emit("run", str(exc))
    options = RunOptions(
        timeout=args.timeout,
        handshake_timeout=args.handshake_timeout,
        restart_budget=args.restart_budget,
        max_line_bytes=args.max_line_bytes,
    )
    build_step.prepare(args, argv, "run", sys.stderr)  # before the handshake (its own limit)
    progress = None if args.quiet else report.Progress(len(chosen), sys.stderr)
    run = run_suite(
        chosen,
        argv,
        options,
        expected,
        progress.update if progress is not None else None,
        data_dir=where.data,
        known_ops=known,
        maxfail=args.maxfail,
    )
    if progress is not None:
        progress.finish()
    if run.hello is not None and run.aborted is None:
        run.requirements = require.evaluate(requirements, chosen, run.hello)
    suite_info = report.SuiteInfo.for_cases(suite, where, args.golden)
    if run.aborted is not None:
        errors.emit("run", report.aborted_error(run))
    out = sys.stdout
    rerun = (f"{repro_prefix(args)} --failed-from {shlex.quote(str(args.report_json))}"
             if args.report_json is not None else None)
    out.write(report.render_text(run, suite_info, repro_prefix(args), quiet=args.quiet,
                                 rerun=rerun))
    out.flush()
    document = report.build(run, suite_info)
    if args.report_json is not None:
        report.write_json(args.report_json, document)
    if args.junit is not None:
        junit.write(args.junit, run)
    # A cut run would list only the failures it reached: the file is left as it was.
    if args.update_expected_failures is not None and run.aborted is None and not run.interrupted:
        written = update.write(args.update_expected_failures, run, dict(expected))
        print(f"hrc run: wrote {written} expected failure(s) to {args.update_expected_failures}; "
              f"replace every reason {update.PLACEHOLDER!r} before using it", file=sys.stderr)
    if run.aborted is not None:
        return errors.USAGE
    if run.interrupted:
        not_run = run.counts()[NOT_RUN]
        print(f"hrc run: interrupted ({signals.cause()}); {not_run} selected case(s) not run",
              file=sys.stderr)
        return signals.exit_status()
    return 0 if run.ok else 1
