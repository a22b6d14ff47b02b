"""JUnit XML for CI dashboards: one <testcase> per golden case.

Mapping: `failed` and `xpass` are <failure>; `errored`, `crashed`, `timed_out` and
`protocol_violation` are <error> with the outcome as its type; `not_applicable` and `xfail`
are <skipped> with the reason. A failed data check (PROTO-29) adds one more <testcase>,
`hrc-data-files`, with a <failure>, so a dashboard is red whenever `hrc run` exits 1; the check's
status is also a suite property. Characters XML 1.0 cannot carry (golden inputs contain NUL and
other controls) are written as \\uXXXX. A testcase's `file` is the case file's path relative to
the working directory (the porter's repository, where the CI runs), or absolute when the kit is
installed outside it; never relative to the kit (issue 38).
"""

from __future__ import annotations

import json
import os
import re
import xml.etree.ElementTree as ET
from pathlib import Path

from conformance.common import atomic_write, signals
from conformance.common.printable import printable
from conformance.running.results import CaseResult, RunResult
from reference.data import kit_root

_FAILURE = frozenset({"failed", "xpass"})
_ERROR = frozenset({"errored", "crashed", "timed_out", "protocol_violation"})
_SKIPPED = frozenset({"not_applicable", "xfail", "not_run"})
_NOT_XML = re.compile("[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def xml_safe(text: str) -> str:
    """Escape every character XML 1.0 forbids as \\uXXXX."""
    return _NOT_XML.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def file_attribute(case_file: str, cwd: Path | None = None) -> str:
    """`case_file` (relative to the kit, or absolute) as a path from `cwd` (default: the
    working directory) when it lies under it, else as an absolute path."""
    path = Path(case_file)
    if not path.is_absolute():
        path = kit_root() / path
    path = Path(os.path.abspath(path))
    here = Path(os.path.abspath(cwd if cwd is not None else Path.cwd()))
    try:
        return path.relative_to(here).as_posix()
    except ValueError:
        return path.as_posix()


def _detail(result: CaseResult) -> str:
    case = result.case
    lines = [f"{case.description}", f"case: {case.file}:{case.line}"]
    lines.append(f"clauses: {', '.join(case.clauses)}")
    if result.mismatch is not None:
        mm = result.mismatch
        lines.append(f"at {mm.path or '/'}: {mm.reason}")
        lines.append(f"expected: {json.dumps(mm.expected, ensure_ascii=False)}")
        lines.append(f"actual:   {json.dumps(mm.actual, ensure_ascii=False)}")
    elif result.message:
        lines.append(printable(result.message))
    return xml_safe("\n".join(lines))


def to_element(run: RunResult) -> ET.Element:
    counts = run.counts()
    data_failed = run.data_check is not None and run.data_check.failed
    aborted = run.aborted is not None or run.interrupted
    suites = ET.Element("testsuites", name="hrc")
    suite = ET.SubElement(
        suites,
        "testsuite",
        name="hrc",
        tests=str(len(run.results) + data_failed + aborted),
        failures=str(sum(counts[s] for s in _FAILURE) + data_failed),
        errors=str(sum(counts[s] for s in _ERROR) + aborted),
        skipped=str(sum(counts[s] for s in _SKIPPED)),
        time=f"{run.duration_ms / 1000:.3f}",
        timestamp=run.started_at,
    )
    if run.hello is not None:
        props = ET.SubElement(suite, "properties")
        for name, value in (
            ("adapter", run.hello.name),
            ("adapterVersion", run.hello.version),
            ("specVersion", run.hello.spec_version),
        ):
            ET.SubElement(props, "property", name=name, value=xml_safe(printable(value)))
        if run.data_check is not None:
            ET.SubElement(props, "property", name="dataCheck", value=run.data_check.status)
    for result in run.results:
        case = result.case
        tc = ET.SubElement(
            suite,
            "testcase",
            classname=f"hrc.{case.stage or 'golden'}",
            name=case.id,
            file=file_attribute(case.file),
            line=str(case.line),
            time=f"{result.duration_ms / 1000:.3f}",
        )
        message = xml_safe(printable(result.message or result.status))
        if result.status in _FAILURE:
            el = ET.SubElement(tc, "failure", message=message, type=result.status)
            el.text = _detail(result)
        elif result.status in _ERROR:
            el = ET.SubElement(tc, "error", message=message, type=result.status)
            el.text = _detail(result)
        elif result.status in _SKIPPED:
            ET.SubElement(tc, "skipped", message=message, type=result.status)
        if result.stderr and result.status != "passed":
            err = ET.SubElement(tc, "system-err")
            err.text = xml_safe("\n".join(printable(line) for line in result.stderr))
    if data_failed and run.data_check is not None:
        tc = ET.SubElement(suite, "testcase", classname="hrc.data", name="hrc-data-files")
        el = ET.SubElement(
            tc, "failure", message=xml_safe(run.data_check.summary()), type="data_check"
        )
        el.text = xml_safe("\n".join(f.describe() for f in run.data_check.problems()))
    if run.aborted is not None:  # PROTO-40: one error for the adapter, the cases are not run
        tc = ET.SubElement(suite, "testcase", classname="hrc.adapter", name="hrc-adapter-start")
        message, stderr = run.aborted
        el = ET.SubElement(tc, "error", message=xml_safe(printable(message)), type="aborted")
        el.text = xml_safe("\n".join(printable(line) for line in stderr))
    if run.interrupted:  # PROTO-40: the run was cut by Ctrl-C; the rest is not run
        tc = ET.SubElement(suite, "testcase", classname="hrc.run", name="hrc-interrupted")
        ET.SubElement(tc, "error", message=f"the run was interrupted ({signals.cause()}); "
                      f"{counts['not_run']} case(s) not run", type="interrupted")
    return suites


def write(path: Path, run: RunResult) -> None:
    tree = ET.ElementTree(to_element(run))
    ET.indent(tree)
    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_write.open_binary(path) as fh:  # PROTO-49
        tree.write(fh, encoding="utf-8", xml_declaration=True)
