"""`hrc bundle`: every golden case in one JSON file, for ports that run cases in-process.

Each case carries `hash`, the SHA-256 of the canonical JSON of `{"input", "expect"}` (keys
sorted, no spaces, UTF-8, numbers as Python's shortest repr). The hash is an opaque change
detector computed by the kit: compare hashes between releases to see which expectations
changed; ports need not recompute it. The bundle also lists the suite's profiles with their
versions (a case's `profile` names its own, PROFILE-3) and `dataFiles`, the SHA-256 of every
spec/data file, so an in-process harness can run the data check itself (PROTO-29).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from conformance.common import atomic_write, errors
from conformance.judging.cases import Case, CaseFileError, case_files, load_all, suite_profiles
from conformance.judging.datafiles import kit_hashes
from conformance.judging.suite import Suite, kit_suite

BUNDLE_FORMAT = 1


def canonical_json(value: Any) -> str:
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    )


def case_hash(case: Case) -> str:
    payload = canonical_json({"input": case.input, "expect": case.expect})
    return "sha256:" + hashlib.sha256(payload.encode("utf-8")).hexdigest()


def build(cases: list[Case], suite: Suite | None = None) -> dict[str, Any]:
    from conformance.adapters.protocol import PROTOCOL_VERSION
    from conformance.common.version import kit_version
    from reference import SPEC_VERSION

    entries = []
    for case in cases:
        entry = case.to_json()
        entry["hash"] = case_hash(case)
        entries.append(entry)
    return {
        "format": BUNDLE_FORMAT,
        "specVersion": SPEC_VERSION,
        "protocol": PROTOCOL_VERSION,
        "kitVersion": kit_version(),
        "profiles": suite_profiles(cases, suite),
        "dataFiles": kit_hashes((suite or kit_suite()).data),
        "caseCount": len(entries),
        "cases": entries,
    }


def register(subparsers: Any) -> None:
    p: argparse.ArgumentParser = subparsers.add_parser(
        "bundle",
        help="write every case to one JSON file",
        description="Flatten the golden suite into one JSON file with the spec version and a "
        "content hash per case.",
    )
    p.add_argument(
        "-o", "--output", default="golden.json", metavar="PATH", help="file, or - for stdout"
    )
    p.add_argument("--golden", type=Path, metavar="DIR", help="golden case directory")
    p.set_defaults(func=cmd_bundle)


def cmd_bundle(args: argparse.Namespace) -> int:
    try:
        if args.output != "-":
            errors.check_writable(Path(args.output), "-o")
        suite = Suite.at(args.golden)
        cases = load_all(case_files(suite.golden), suite=suite)
    except (CaseFileError, errors.HrcError) as exc:
        return errors.emit("bundle", str(exc))
    document = build(cases, suite)
    text = json.dumps(document, ensure_ascii=False, indent=1, allow_nan=False) + "\n"
    if args.output == "-":
        sys.stdout.write(text)
    else:
        try:
            atomic_write.write_text(Path(args.output), text)  # PROTO-49
        except OSError as exc:
            return errors.emit("bundle", f"cannot write {errors.os_message(exc, args.output)}")
        print(f"hrc bundle: wrote {len(cases)} cases to {args.output}", file=sys.stderr)
    return 0
