"""What a run tells people and machines: progress, failure blocks, summary, JSON report.

The text output ends with the footer `hrc: N passed, N failed, N skipped` alone on its line
(PROTO-24); the JSON report validates against schemas/report.schema.json and carries
`"complete": true` so a truncated file is never mistaken for a clean run (PROTO-26).
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from conformance.adapters.protocol import PROTOCOL_VERSION
from conformance.common import atomic_write, input_files
from conformance.common.printable import printable
from conformance.common.version import kit_version
from conformance.judging import authority
from conformance.judging import profiles as profiles_mod
from conformance.judging.cases import Case, suite_profiles
from conformance.judging.schemas import schema_validator
from conformance.judging.suite import Suite
from conformance.reports import tally
from conformance.running import not_applicable
from conformance.running.results import FAILING, OUTCOMES, SKIPPED, CaseResult, RunResult

REPORT_VERSION = 1
REPORT_SCHEMA = "report.schema.json"
_STATUS_CHAR = {
    "passed": ".",
    "failed": "F",
    "errored": "E",
    "crashed": "C",
    "timed_out": "T",
    "protocol_violation": "P",
    "not_applicable": "n",
    "xfail": "x",
    "xpass": "X",
    "not_run": "-",
}
#: Outcomes where the adapter's stderr helps explain what happened.
_SHOW_STDERR = frozenset({"errored", "crashed", "timed_out", "protocol_violation"})


@dataclass(frozen=True)
class SuiteInfo:
    spec_version: str
    case_count: int
    golden: str
    #: profile name -> version, for every profile the suite has cases of (PROFILE-2).
    profiles: dict[str, str] = field(default_factory=dict)
    #: clause id -> authority, from the suite's spec/authority.json (PROTO-48).
    authorities: Mapping[str, str] = field(default_factory=dict)
    #: a `golden/` in the working directory that this run does not read, as a warning.
    shadowed: str | None = None

    @classmethod
    def for_cases(cls, cases: list[Case], suite: Suite, given: Path | None) -> SuiteInfo:
        """What the report says of `suite`; `given` is `--golden` as typed (None: the kit's)."""
        from conformance.judging.golden_dir import shadowed_golden
        from reference import SPEC_VERSION

        index = authority.index_for(suite.spec)
        return cls(SPEC_VERSION, len(cases), str(suite.golden), suite_profiles(cases, suite),
                   index, shadowed_golden(given))

    def header(self, selected: int) -> str:
        """`golden: DIR (N of M cases, spec X)`: which suite ran."""
        return (f"golden: {self.golden} ({selected} of {self.case_count} cases, "
                f"spec {self.spec_version})")


def footer(counts: dict[str, int], data_failed: bool = False, unmet: int = 0) -> str:
    """The CI-parsed last line (PROTO-24); a failed data check and each unmet `--require`
    count as one failure (PROTO-42); cases never run are counted after it (PROTO-40)."""
    passed = counts.get("passed", 0)
    failed = sum(counts.get(s, 0) for s in FAILING) + (1 if data_failed else 0) + unmet
    skipped = sum(counts.get(s, 0) for s in SKIPPED)
    line = f"hrc: {passed} passed, {failed} failed, {skipped} skipped"
    not_run = counts.get("not_run", 0)
    return line + (f", {not_run} not run" if not_run else "")


def summary(
    counts: dict[str, int], data_failed: bool = False, unmet: int = 0, aborted: bool = False
) -> dict[str, Any]:
    """Outcome counts; `ok` is false when a case failed the run, the data check failed, a
    requirement was not met or the adapter could not be used (PROTO-40, 42)."""
    out: dict[str, Any] = {"total": sum(counts.values())}
    for status in OUTCOMES:
        out[status] = counts.get(status, 0)
    out["skipped"] = sum(counts.get(s, 0) for s in SKIPPED)
    out["ok"] = (
        not data_failed and not unmet and not aborted
        and not any(counts.get(s, 0) for s in FAILING)
    )
    out["footer"] = footer(counts, data_failed, unmet)
    return out


def authority_counts(run: RunResult, suite: SuiteInfo) -> dict[str, dict[str, int]]:
    """PROTO-48: passed/total per authority over the cases the run judged (passed or failing;
    skipped and not run cases are not judged), a case under every authority it cites."""
    judged = ((r.case.clauses, r.status == "passed") for r in run.results
              if r.status == "passed" or r.status in FAILING)
    return authority.tally(judged, suite.authorities)


def run_summary(run: RunResult) -> dict[str, Any]:
    """The summary of a whole run."""
    data_failed = run.data_check is not None and run.data_check.failed
    unmet = sum(not v.met for v in run.requirements)
    return summary(run.counts(), data_failed, unmet, run.aborted is not None or run.interrupted)


def _spec_warnings(run: RunResult, suite: SuiteInfo) -> list[str]:
    warnings: list[str] = [suite.shadowed] if suite.shadowed else []
    if run.hello is not None:
        theirs = run.hello.spec_version.split(".")[0]
        ours = suite.spec_version.split(".")[0]
        if theirs != ours:
            warnings.append(
                f"adapter implements spec {run.hello.spec_version}, "
                f"the suite is spec {suite.spec_version} (different major version)"
            )
        if run.data_check is not None and run.data_check.status == "unreported":
            warnings.append(
                "adapter hello reports no dataFiles (PROTO-30): stale or empty spec/data "
                "in the port cannot be detected"
            )
        warnings += profile_warnings(run, suite)
    return warnings


def profile_warnings(run: RunResult, suite: SuiteInfo) -> list[str]:
    """Profile declarations that do not line up with the suite's profiles (PROTO-31)."""
    hello = run.hello
    if hello is None:
        return []
    out: list[str] = []
    declared = {
        name
        for cap in hello.capabilities
        if (name := profiles_mod.name_of_capability(cap)) is not None
    }
    for name in sorted(declared | set(hello.profiles)):
        theirs = hello.profiles.get(name)
        ours = suite.profiles.get(name)
        if name not in declared:
            out.append(f"adapter gives a version for profile {name!r} but does not declare "
                       f"capability 'profile:{name}'")
        elif theirs is None:
            out.append(f"adapter declares profile:{name} without its version in `profiles`")
        elif ours is not None and profiles_mod.major(theirs) != profiles_mod.major(ours):
            out.append(f"adapter implements profile {name} {theirs}, the suite has {ours} "
                       "(different major version)")
    return out


def profile_results(run: RunResult, suite: SuiteInfo) -> list[dict[str, Any]]:
    """Per profile of the suite: version, whether the port declared it, outcome counts."""
    hello = run.hello
    out: list[dict[str, Any]] = []
    for name, version in sorted(suite.profiles.items()):
        counts = dict.fromkeys(OUTCOMES, 0)
        for result in run.results:
            if result.case.profile == name:
                counts[result.status] += 1
        entry: dict[str, Any] = {
            "name": name,
            "version": version,
            "declared": hello is not None
            and profiles_mod.capability(name) in hello.capabilities,
        }
        if hello is not None and name in hello.profiles:
            entry["portVersion"] = hello.profiles[name]
        entry["summary"] = summary(counts)
        out.append(entry)
    return out


def case_json(result: CaseResult) -> dict[str, Any]:
    case = result.case
    out: dict[str, Any] = {
        "id": case.id,
        "status": result.status,
        "stage": case.stage,
        "op": case.op,
        "durationMs": result.duration_ms,
        "source": f"{case.file}:{case.line}",
        "clauses": list(case.clauses),
    }
    if result.message is not None:
        out["message"] = result.message
    if result.mismatch is not None:
        out["mismatch"] = {
            "path": result.mismatch.path,
            "reason": result.mismatch.reason,
            "expected": result.mismatch.expected,
            "actual": result.mismatch.actual,
        }
    if result.response is not None:
        out.update(result.response)
    if result.stderr:
        out["stderr"] = list(result.stderr)
    if result.underlying is not None:
        out["underlying"] = result.underlying
    if result.expected_failure is not None:
        ef: dict[str, Any] = {"reason": result.expected_failure.reason}
        if result.expected_failure.link is not None:
            ef["link"] = result.expected_failure.link
        out["expectedFailure"] = ef
    return out


def build(run: RunResult, suite: SuiteInfo) -> dict[str, Any]:
    """The JSON report of a run (schemas/report.schema.json)."""
    adapter: dict[str, Any] = {"command": list(run.argv)}
    if run.hello is not None:
        adapter.update(run.hello.to_json())
    adapter["restarts"] = run.restarts
    adapter["events"] = list(run.events)
    document: dict[str, Any] = {
        "hrc": {
            "reportVersion": REPORT_VERSION,
            "kitVersion": kit_version(),
            "protocol": PROTOCOL_VERSION,
        },
        "startedAt": run.started_at,
        "durationMs": run.duration_ms,
        "options": {
            "timeout": run.options.timeout,
            "handshakeTimeout": run.options.handshake_timeout,
            "restartBudget": run.options.restart_budget,
            "maxLineBytes": run.options.max_line_bytes,
        },
        "adapter": adapter,
        "suite": {
            "specVersion": suite.spec_version,
            "caseCount": suite.case_count,
            "selected": len(run.results),
            "golden": suite.golden,
        },
        "summary": run_summary(run),
        "warnings": _spec_warnings(run, suite),
    }
    if suite.authorities:
        document["authority"] = authority_counts(run, suite)
    if run.aborted is not None:
        document["aborted"] = {"message": run.aborted[0], "stderr": list(run.aborted[1])}
    if run.interrupted:
        document["interrupted"] = True
    if run.requirements:
        document["require"] = [v.to_json() for v in run.requirements]
    if run.data_check is not None:
        document["dataCheck"] = run.data_check.to_json()
    if suite.profiles:
        document["profiles"] = profile_results(run, suite)
    document["cases"] = [case_json(r) for r in run.results]
    document["complete"] = True
    return document


class ReportError(ValueError):
    """A report file is unreadable, invalid or incomplete."""


def validate(document: Any) -> None:
    """Raise ReportError when `document` is not a complete, valid report."""
    errors = sorted(schema_validator(REPORT_SCHEMA).iter_errors(document), key=str)
    if errors:
        err = errors[0]
        where = "/".join(str(p) for p in err.absolute_path) or "(root)"
        raise ReportError(f"not a valid hrc report at {where}: {err.message}")


def load(path: Path) -> dict[str, Any]:
    """Read and validate a report; an incomplete report is an error (PROTO-26)."""
    try:
        document = input_files.load_json(path)  # bounded, strict, nesting checked (issue 29)
    except input_files.InputFileError as exc:
        where = f"{path}:{exc.line}" if exc.line is not None else f"{path}"
        raise ReportError(f"{where}: cannot read report: {exc.message}") from None
    if isinstance(document, dict) and document.get("complete") is not True:
        raise ReportError(f"{path}: incomplete report (no \"complete\": true); the run was cut")
    try:
        validate(document)
    except ReportError as exc:
        raise ReportError(f"{path}: {exc}") from exc
    assert isinstance(document, dict)
    return document


def write_json(path: Path, document: dict[str, Any]) -> None:
    """Validate, then stream to a temporary file and rename (a reader never sees half a
    report; no second in-memory copy of it is made, PROTO-39)."""
    validate(document)
    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_write.open_text(path) as fh:  # PROTO-49: whole or not at all, never via a link
        try:
            json.dump(document, fh, ensure_ascii=False, indent=1, allow_nan=False)
        except UnicodeEncodeError:
            # A lone surrogate has no UTF-8 form (PROTO-2); escaped, the report stays
            # valid JSON.
            fh.seek(0)
            fh.truncate()
            json.dump(document, fh, ensure_ascii=True, indent=1, allow_nan=False)
        fh.write("\n")


# -- text ------------------------------------------------------------------------------------


def visible(value: Any, limit: int = 300) -> str:
    """JSON text of `value` with invisible and combining characters escaped as \\uXXXX."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    out: list[str] = []
    for ch in text:
        cat = unicodedata.category(ch)
        if ch != " " and (cat[0] in "CZ" or cat in ("Mn", "Me")):
            code = ord(ch)
            out.append(f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}")
        else:
            out.append(ch)
    shown = "".join(out)
    return shown if len(shown) <= limit else shown[:limit] + f"… ({len(shown)} chars)"


def clause_list(clauses: Sequence[str], authorities: Mapping[str, str]) -> str:
    """`RRF-2 [anchor], RRF-6 [kit]`: each clause with its authority when known (PROTO-48)."""
    return ", ".join(f"{c} [{authorities[c]}]" if c in authorities else c for c in clauses)


def failure_block(
    result: CaseResult,
    repro: str,
    quiet: bool = False,
    authorities: Mapping[str, str] | None = None,
) -> str:
    """The text shown for one failing case, its clauses with their authority; raw adapter and
    case-file text is escaped (PROTO-37)."""
    case = result.case
    label = "XPASS" if result.status == "xpass" else "FAILED"
    where = printable(f"{case.file}:{case.line}")
    head = f"{label} [{result.status}] {printable(case.id)}"
    message = printable(result.message or "")
    if quiet:
        return f"{head} ({where}): {message}\n"
    lines = [
        head,
        f"  why:      {printable(case.description)}",
        f"  clauses:  {printable(clause_list(case.clauses, authorities or {}))}",
        f"  case:     {where}",
        f"  input:    {visible(case.input)}",
    ]
    if result.mismatch is not None:
        mm = result.mismatch
        lines.append(f"  at {printable(mm.path or '/')}: {printable(mm.reason)}")
        lines.append(f"    expected: {visible(mm.expected)}")
        lines.append(f"    actual:   {visible(mm.actual)}")
    elif result.message:
        lines.append(f"  {message}")
    if result.status in _SHOW_STDERR and result.stderr:
        lines.append(f"  adapter stderr (last {len(result.stderr)} lines):")
        lines.extend(f"    | {printable(line)}" for line in result.stderr)
    lines.append(f"  repro:    {printable(repro)} --select {printable(case.id)}")
    return "\n".join(lines) + "\n\n"


def render_text(
    run: RunResult, suite: SuiteInfo, repro: str, quiet: bool = False, rerun: str | None = None
) -> str:
    """Failure blocks, then one line per non-zero outcome, then the footer (PROTO-24).

    Every line but the footer carries escaped text only, so the footer is the one line that
    starts with `hrc: ` (PROTO-37)."""
    parts: list[str] = []
    if not quiet:
        parts.append(printable(suite.header(len(run.results))) + "\n")
    if run.hello is not None and not quiet:
        h = run.hello
        parts.append(
            printable(
                f"adapter: {h.name} {h.version} (spec {h.spec_version}, protocol {h.protocol}, "
                f"{len(h.operations)} operations)"
            )
            + "\n"
        )
        if run.data_check is not None:
            parts.append(f"data files: {printable(run.data_check.summary())}\n")
    for warning in _spec_warnings(run, suite):
        parts.append(f"warning: {printable(warning)}\n")
    for result in run.results:
        if result.status in FAILING:
            parts.append(failure_block(result, repro, quiet, suite.authorities))
    parts.append(aborted_block(run))
    parts.append(data_block(run))
    parts.append(require_block(run))
    parts.append(not_applicable.block(run.results))
    parts.append(profile_lines(run, suite))
    parts.append(tally.block(run.results, rerun))
    counts = run.counts()
    width = max(len(s) for s in OUTCOMES)
    for status in OUTCOMES:
        if counts[status]:
            note = " (skipped)" if status in SKIPPED else ""
            parts.append(f"  {status:<{width}} {counts[status]:>6}{note}\n")
    if run.restarts:
        parts.append(f"  adapter restarts: {run.restarts}\n")
    line = authority.summary_line(authority_counts(run, suite))
    if line:
        parts.append(f"{line}\n")
    parts.append(run_summary(run)["footer"] + "\n")
    return "".join(parts)


def aborted_block(run: RunResult) -> str:
    """PROTO-40: the adapter's stderr tail, once, when the run could not use the adapter (the
    error line itself goes to stderr, see `aborted_error`)."""
    if run.aborted is None or not run.aborted[1]:
        return ""
    stderr = run.aborted[1]
    lines = [f"adapter stderr (last {len(stderr)} lines):"]
    lines.extend(f"  | {printable(line)}" for line in stderr)
    return "\n".join(lines) + "\n"


def aborted_error(run: RunResult) -> str:
    """The one-line cause of an aborted run, with how many cases it left unrun."""
    assert run.aborted is not None
    count = run.counts()["not_run"]
    noun = "case" if count == 1 else "cases"
    return f"{run.aborted[0]}; {count} selected {noun} not run"


def require_block(run: RunResult) -> str:
    """Every unmet `--require` (PROTO-42), or ""."""
    unmet = [v for v in run.requirements if not v.met]
    if not unmet:
        return ""
    lines = ["REQUIREMENT NOT MET: the run does not cover what --require asks"]
    lines += [f"  {printable(v.describe())}" for v in unmet]
    return "\n".join(lines) + "\n\n"


def data_block(run: RunResult) -> str:
    """The data check when it failed: every stale or unknown file (PROTO-29)."""
    check = run.data_check
    if check is None or not check.failed:
        return ""
    lines = ["DATA CHECK FAILED: the adapter loaded spec/data files that differ from the kit's"]
    lines += [f"  {printable(f.describe())}" for f in check.problems()]
    lines.append(f"  data files: {printable(check.summary())}")
    return "\n".join(lines) + "\n\n"


def profile_lines(run: RunResult, suite: SuiteInfo) -> str:
    """One line per profile of the suite (version, declared or not, passed/failed/skipped),
    except that undeclared profiles none of whose cases ran share one line."""
    out = []
    undeclared = []
    for entry in profile_results(run, suite):
        s = entry["summary"]
        state = "declared" if entry["declared"] else "not declared"
        failed = s["total"] - s["passed"] - s["skipped"] - s["not_run"]
        if not entry["declared"] and s["total"] == s["skipped"]:
            undeclared.append(f"{entry['name']} {entry['version']}")  # nothing ran: one line
            continue
        not_run = f", {s['not_run']} not run" if s["not_run"] else ""  # as the footer (PROTO-40)
        out.append(
            f"  profile {entry['name']} {entry['version']} ({state}): {s['passed']} passed, "
            f"{failed} failed, {s['skipped']} skipped{not_run}\n"
        )
    if undeclared:
        out.append(f"  profiles not declared: {', '.join(undeclared)}\n")
    return "".join(out)


class Progress:
    """A counter on a terminal, a character per case otherwise (to `stream`, usually stderr)."""

    def __init__(self, total: int, stream: TextIO, width: int = 80) -> None:
        self.total = total
        self.stream = stream
        self.done = 0
        self.skipped_quietly = 0
        self.width = width
        isatty = getattr(stream, "isatty", None)
        self.tty = bool(isatty and isatty())

    def update(self, result: CaseResult) -> None:
        self.done += 1
        if result.status == "not_run":  # counted in the footer; nothing to watch (PROTO-40)
            self.skipped_quietly += 1
            return
        if self.tty:
            digits = len(str(self.total))
            self.stream.write(
                f"\r\x1b[K[{self.done:>{digits}}/{self.total}] {printable(result.case.id)}"
            )
        else:
            self.stream.write(_STATUS_CHAR.get(result.status, "?"))
            if self.done % self.width == 0:
                self.stream.write(f" {self.done}/{self.total}\n")
        self.stream.flush()

    def finish(self) -> None:
        if self.tty:
            self.stream.write("\r\x1b[K")
        elif (self.done - self.skipped_quietly) % self.width:
            self.stream.write("\n")
        self.stream.flush()
