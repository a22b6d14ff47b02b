"""pytest plugin: `pytest --hrc-adapter "CMD"` runs each golden case as a test item.

Items are added under one synthetic collector during collection (before `-k`/`-m`
deselection, so both work on case ids), share one adapter session, and report:
a mismatch as a failure naming the field, a not-applicable case as an explicit skip with its
reason, and a case listed in `--hrc-expected-failures` as a strict xfail. A first item,
`hrc-data-files`, fails when the adapter loaded stale or unknown spec/data files and warns
when its hello reports none (PROTO-29, PROTO-30). A profile case carries its profile's
capability (`profile:NAME`) as a keyword. Without `--hrc-adapter` the plugin does nothing.

`--hrc-only` collects nothing from test files (no test module is even imported), so a port's
repository, or this one, runs the golden cases alone. A failing case's line in pytest's short
summary (`-r f`) names the status and the first differing field, like `hrc run` does.
"""

from __future__ import annotations

import shlex
import warnings
from pathlib import Path
from typing import Any

import pytest
from _pytest._code.code import ReprFileLocation, TerminalRepr
from _pytest._io import TerminalWriter

from conformance.common.printable import printable
from conformance.judging.cases import Case, CaseFileError, case_files, load_all
from conformance.judging.suite import Suite
from conformance.running.results import CaseResult, RunOptions
from conformance.running.runner import AdapterSession, check_data
from reference.data import kit_root

_SESSION = pytest.StashKey[AdapterSession]()
_SUITE = pytest.StashKey[Suite]()


def _suite(config: pytest.Config) -> Suite:
    """The suite of `--hrc-golden`, built once per pytest run and read by every item."""
    suite = config.stash.get(_SUITE, None)
    if suite is None:
        golden = config.getoption("--hrc-golden")
        suite = Suite.at(Path(golden) if golden else None)
        config.stash[_SUITE] = suite
    return suite


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("hrc", "hybrid-retrieval conformance")
    group.addoption(
        "--hrc-adapter",
        action="store",
        default=None,
        help="command line of the port's adapter; golden cases become test items",
    )
    group.addoption(
        "--hrc-golden", action="store", default=None, help="golden case directory (default: kit)"
    )
    group.addoption(
        "--hrc-timeout", action="store", type=float, default=5.0, help="per-case timeout (5 s)"
    )
    group.addoption(
        "--hrc-only",
        action="store_true",
        default=False,
        help="run only the golden cases: collect nothing from test files",
    )
    group.addoption(
        "--hrc-expected-failures",
        action="store",
        default=None,
        help="YAML list of {id, reason, link?}: strict xfail",
    )


class HrcCaseFailure(Exception):
    """A golden case did not pass; carries the runner's result."""

    def __init__(self, result: CaseResult) -> None:
        super().__init__(result.message or result.status)
        self.result = result


def summary_line(result: CaseResult) -> str:
    """The short-summary text of a failing case: status, then the first differing field."""
    mismatch = result.mismatch
    if mismatch is not None:
        text = (
            f"at {mismatch.path or '/'}: {mismatch.reason}: expected {mismatch.expected!r}, "
            f"got {mismatch.actual!r}"
        )
    else:
        text = (result.message or result.status).splitlines()[0] if result.message else ""
    return printable(f"[{result.status}] {text}".rstrip())


class HrcFailureRepr(TerminalRepr):
    """A failure block whose `reprcrash` message is the summary line (pytest's `-r f`, JUnit)."""

    def __init__(self, text: str, path: Path, line: int, message: str) -> None:
        self.text = text
        self.reprcrash = ReprFileLocation(str(path), line, message)

    def toterminal(self, tw: TerminalWriter) -> None:
        for line in self.text.splitlines():
            tw.line(line)


class HrcSuite(pytest.Collector):
    """Synthetic collector holding one item per golden case."""

    def __init__(self, *, cases: list[Case], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.cases = cases

    def collect(self) -> list[pytest.Item]:
        data: list[pytest.Item] = [HrcDataItem.from_parent(self, name=DATA_ITEM)]
        return data + [
            HrcCaseItem.from_parent(self, name=case.id, case=case) for case in self.cases
        ]


DATA_ITEM = "hrc-data-files"


class HrcDataFailure(Exception):
    """The adapter loaded stale or unknown spec/data files (PROTO-29)."""


class HrcDataItem(pytest.Item):
    """The data check: the hello's dataFiles against the kit's spec/data (PROTO-29, PROTO-30)."""

    def runtest(self) -> None:
        hello = _session(self.config).handshake()
        check = check_data(hello, _suite(self.config).data)
        if check is None:
            pytest.skip("no adapter hello: the handshake failed (see the cases)")
        if check.status == "unreported":
            warnings.warn(
                "hrc: the adapter's hello reports no dataFiles (PROTO-30); stale or empty "
                "spec/data cannot be detected",
                UserWarning,
                stacklevel=1,
            )
            return
        if check.failed:
            raise HrcDataFailure(
                "\n".join(f.describe() for f in check.problems()) + f"\n{check.summary()}"
            )

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        if isinstance(excinfo.value, HrcDataFailure):
            return f"DATA CHECK FAILED (PROTO-29):\n{excinfo.value}"
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[Path, int, str]:
        return Path("spec/data"), 0, f"hrc: {DATA_ITEM}"


class HrcCaseItem(pytest.Item):
    """One golden case run through the shared adapter session."""

    def __init__(self, *, case: Case, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.case = case
        for word in (*case.tags, case.stage, case.op, *case.requires):
            self.keywords[word] = True  # `-k` can select by tag, stage or op

    def runtest(self) -> None:
        session = _session(self.config)
        result = session.run_case(self.case)
        if session.aborted is not None:  # PROTO-40: one error, not a failure per case
            message, stderr = session.aborted
            tail = "".join(f"\n  | {line}" for line in stderr)
            pytest.exit(f"hrc: error: {message}{tail}", returncode=2)
        if result.status == "passed":
            return
        if result.status == "not_applicable":
            pytest.skip(f"not applicable: {result.message}")
        raise HrcCaseFailure(result)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        if isinstance(excinfo.value, HrcCaseFailure):
            from conformance.judging.authority import index_for
            from conformance.reports.report import failure_block

            parts = ["hrc", "run", "--adapter", self.config.getoption("--hrc-adapter")]
            golden = self.config.getoption("--hrc-golden")
            if golden:
                parts += ["--golden", golden]
            repro = shlex.join(parts)
            index = index_for(_suite(self.config).spec)
            result = excinfo.value.result
            path, line, _ = self.reportinfo()
            return HrcFailureRepr(
                failure_block(result, repro, authorities=index).rstrip("\n"), Path(path),
                (line or 0) + 1,
                summary_line(result),
            )
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[Path, int, str]:
        path = Path(self.case.file)
        if not path.is_absolute():
            path = kit_root() / path
        return path, self.case.line - 1, f"hrc: {self.case.id}"


def _session(config: pytest.Config) -> AdapterSession:
    session = config.stash.get(_SESSION, None)
    if session is None:
        from conformance.judging.known_ops import known_operations
        from conformance.running.runner import adapter_argv

        try:
            argv = adapter_argv(config.getoption("--hrc-adapter"))
        except ValueError as exc:
            raise pytest.UsageError(f"hrc: error: {exc}") from exc
        options = RunOptions(timeout=config.getoption("--hrc-timeout"))
        known = known_operations(_suite(config).spec)
        session = AdapterSession(argv, options, known)
        config.stash[_SESSION] = session
    return session


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(
    session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
) -> None:
    adapter = config.getoption("--hrc-adapter", default=None)
    if not adapter:
        return
    from conformance.judging import expectations

    listed = config.getoption("--hrc-expected-failures")
    try:
        where = _suite(config)
        cases = load_all(case_files(where.golden), suite=where)
        expected = expectations.load(Path(listed), (c.id for c in cases)) if listed else {}
    except (CaseFileError, expectations.ExpectationsError) as exc:
        raise pytest.UsageError(f"hrc: {exc}") from exc
    suite = HrcSuite.from_parent(session, name="hrc-golden", cases=cases)
    new_items = suite.collect()
    if expected:
        for item in new_items:
            entry = expected.get(item.name)
            if entry is not None:
                item.add_marker(pytest.mark.xfail(reason=entry.reason, strict=True))
    items.extend(new_items)


def misplaced_root(config: pytest.Config) -> Path | None:
    """The rootdir pytest would have chosen, when `--hrc-adapter PATH` (a separate value)
    moved it (issue 38): pytest picks its rootdir before this plugin is loaded, so it reads
    the value as a test path and roots itself at the common parent of the porter's folder and
    the adapter (`..::` node ids, "collected 0 items", `.pytest_cache` outside the folder).
    None when the rootdir is where it would be without that value."""
    args = list(config.invocation_params.args)
    if not any(a in ("--hrc-adapter", "--hrc-golden", "--hrc-expected-failures") for a in args):
        return None
    try:
        from _pytest.config.findpaths import determine_setup

        paths = list(config.known_args_namespace.file_or_dir)
        expected = determine_setup(
            inifile=config.known_args_namespace.inifilename,
            override_ini=config.known_args_namespace.override_ini,
            args=paths,
            rootdir_cmd_arg=config.known_args_namespace.rootdir or None,
            invocation_dir=config.invocation_params.dir,
        )[0]
    except (ImportError, TypeError, AttributeError, ValueError):  # another pytest's internals
        return None
    return Path(expected) if Path(expected) != Path(config.rootpath) else None


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("--hrc-only", default=False) and not config.getoption(
        "--hrc-adapter", default=None
    ):
        raise pytest.UsageError("hrc: --hrc-only needs --hrc-adapter CMD")
    moved = misplaced_root(config)
    if moved is not None:
        config.issue_config_time_warning(pytest.PytestConfigWarning(
            f"hrc: pytest read the value of an --hrc-* option as a test path and rooted itself "
            f"at {config.rootpath} instead of {moved} (node ids, .pytest_cache and conftest "
            "lookup follow the rootdir): write --hrc-adapter=CMD, --hrc-golden=DIR (with '=')"
        ), stacklevel=2)


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """`--hrc-only`: no test file is collected (or imported); only the golden cases run."""
    if config.getoption("--hrc-only", default=False) and config.getoption(
        "--hrc-adapter", default=None
    ):
        return True
    return None


def pytest_unconfigure(config: pytest.Config) -> None:
    session = config.stash.get(_SESSION, None)
    if session is not None:
        session.close()
