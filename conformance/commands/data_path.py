"""`hrc data-path`: where the installed kit keeps spec/data, for ports in other repositories.

A port in its own repository pins the kit (the command `hrc pin` prints: a clone at tag
`vX.Y.Z`, or a wheel) and
loads the data files from the directory this prints, so its hello's `dataFiles` hashes match
the kit it is tested against (PROTO-28, PROTO-29). Works from a clone and from a wheel.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from conformance.common import errors
from reference.data import SpecDataError


def describe() -> dict[str, Any]:
    """Kit and spec versions, the kit's directories and the SHA-256 of every data file."""
    from conformance.common.version import kit_version
    from conformance.judging.datafiles import kit_hashes
    from conformance.judging.suite import kit_suite
    from reference import SPEC_VERSION

    kit = kit_suite()
    return {
        "kitVersion": kit_version(),
        "specVersion": SPEC_VERSION,
        "data": str(kit.data),
        "spec": str(kit.spec),
        "golden": str(kit.golden),
        "schemas": str(kit.schemas),
        "files": kit_hashes(kit.data),
    }


def register(subparsers: Any) -> None:
    p: argparse.ArgumentParser = subparsers.add_parser(
        "data-path",
        help="print where the installed kit keeps spec/data",
        description="Print the directory holding the kit's spec/data files (one line), or with "
        "--json the kit and spec versions, the kit's directories and each data file's SHA-256.",
    )
    p.add_argument("--json", action="store_true", help="versions, directories and file hashes")
    p.set_defaults(func=cmd_data_path)


def cmd_data_path(args: argparse.Namespace) -> int:
    try:
        info = describe()
    except SpecDataError as exc:
        return errors.emit("data-path", str(exc))
    if args.json:
        sys.stdout.write(json.dumps(info, indent=2, ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(info["data"] + "\n")
    return 0
