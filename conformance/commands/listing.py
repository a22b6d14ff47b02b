"""`hrc list`: the cases a selection holds, with ids, operations and clauses, without running.

The same `--select` and `--golden` as `hrc run` (PROTO-23); a selection matching nothing and a
missing or empty golden folder are errors here too (PROTO-41). `--json` prints one object per
case for tools.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from conformance.common import errors
from conformance.common.printable import printable
from conformance.judging.authority import AuthorityError, index_for
from conformance.judging.cases import CaseFileError, case_files, load_all
from conformance.judging.selection import SelectionError, select
from conformance.judging.suite import Suite


def register(subparsers: Any) -> None:
    p: argparse.ArgumentParser = subparsers.add_parser(
        "list",
        help="list golden cases (id, op, clauses) without running them",
        description="List the cases a selection holds: id, operation, clauses and where each "
        "is defined. Exit 2 when the golden folder is missing or empty or a pattern matches "
        "nothing.",
    )
    p.add_argument(
        "--select", action="append", default=[], metavar="PATTERN",
        help="as for `hrc run`: id, glob, prefix, tag, stage, op, clause id or authority:NAME",
    )
    p.add_argument("--golden", type=Path, metavar="DIR", help="golden case directory")
    p.add_argument("--json", action="store_true", help="one JSON object per line")
    p.set_defaults(func=cmd_list)


def cmd_list(args: argparse.Namespace) -> int:
    try:
        where = Suite.at(args.golden)
        suite = load_all(case_files(where.golden), suite=where)
        chosen = select(suite, args.select, index_for(where.spec))
    except (CaseFileError, SelectionError, AuthorityError) as exc:
        return errors.emit("list", str(exc))
    out = sys.stdout
    for case in chosen:
        if args.json:
            row = {"id": case.id, "op": case.op, "stage": case.stage,
                   "clauses": list(case.clauses), "requires": list(case.requires),
                   "source": f"{case.file}:{case.line}"}
            out.write(json.dumps(row, ensure_ascii=False) + "\n")
        else:
            out.write(printable(f"{case.id}  {case.op}  {', '.join(case.clauses)}") + "\n")
    if not args.json:
        noun = "case" if len(chosen) == 1 else "cases"
        ops = len({c.op for c in chosen})
        out.write(f"{len(chosen)} {noun}, {ops} operation{'' if ops == 1 else 's'}\n")
    return 0
