"""Mutation score of the reference's algorithm modules, driven by the golden suite only.

Copies the kit (reference/, conformance/, spec/, golden/, schemas/, corpus/ and
tests/test_golden_reference.py, nothing else from tests/) into a scratch directory, removes the
`@cache` decorators of the mutated modules there (see strip_caches), writes a mutmut
configuration and runs mutmut 3, so the working tree is never touched. Then it
groups mutmut's verdicts by module and writes `results.json` and, with --show-survivors, the
diff of every surviving mutant to `survivors.txt` (both next to this file unless --out says
otherwise).

    python benchmarks/mutation/run.py                      # every module, no time limit
    python benchmarks/mutation/run.py --modules reference/rrf.py --time-budget 600

Run through `tox -e mutation`. Too slow for every commit (about 30 minutes on two cores).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent

MODULES = [
    "reference/rrf.py",
    "reference/ladder.py",
    "reference/trigram.py",
    "reference/intent.py",
    "reference/unanimity.py",
    "reference/rerank.py",
    "reference/strongest.py",
    "reference/text.py",
    "reference/query/parse.py",
    "reference/query/compile.py",
    "reference/query/aliases.py",
    "reference/query/stopwords.py",
    "reference/query/sanitise.py",
    "reference/modes.py",
    "reference/request.py",
]
COPIED_DIRS = ["reference", "conformance", "spec", "golden", "schemas", "corpus"]
DRIVER_TEST = "tests/test_golden_reference.py"
RESULT_LINE = re.compile(r"^\s*(\S+__mutmut_\d+): (.+)$")


def strip_caches(path: Path) -> None:
    """Drop `@cache` from a module of the scratch copy (same results, recomputed every call).

    mutmut runs, for each mutant, only the tests that called the mutated function during its
    stats run. A cached table (intent rules, stopwords, the P∪S ranges) is built by the first
    test only, so a mutant in the code that builds it would be checked against that one test.
    """
    text = path.read_text(encoding="utf-8")
    path.write_text(re.sub(r"(?m)^@cache\n", "", text), encoding="utf-8")


def prepare(workdir: Path, modules: list[str], max_children: int) -> None:
    """A clean copy of the kit plus a mutmut config that mutates `modules` only."""
    for name in COPIED_DIRS:
        shutil.copytree(
            ROOT / name, workdir / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc")
        )
    for module in modules:
        strip_caches(workdir / module)
    (workdir / "tests").mkdir()
    shutil.copy2(ROOT / DRIVER_TEST, workdir / DRIVER_TEST)
    indent = "\n    "
    config = (
        "[mutmut]\n"
        "source_paths = reference/\n"
        f"only_mutate = {indent.join(modules)}\n"
        f"also_copy = {indent.join(n + '/' for n in COPIED_DIRS if n != 'reference')}\n"
        f"pytest_add_cli_args_test_selection = {DRIVER_TEST}\n"
        "pytest_add_cli_args = -p\n    no:cacheprovider\n"
        # Workers fork from a server that never ran a test: the reference caches its spec
        # tables (@cache), and a worker forked after a run would never execute the mutated
        # code that builds them, so such mutants would "survive" without being tested.
        "process_isolation = forkserver\n"
    )
    (workdir / "setup.cfg").write_text(config, encoding="utf-8")


def run_mutmut(workdir: Path, max_children: int, budget: float | None, log: Path) -> bool:
    """Run mutmut; True when it finished, False when the time budget stopped it."""
    cmd = ["mutmut", "run", "--max-children", str(max_children)]
    with log.open("w", encoding="utf-8") as out:
        proc = subprocess.Popen(
            cmd, cwd=workdir, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
        try:
            proc.wait(timeout=budget)
            return True
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
            return False


def module_of(mutant: str) -> str:
    """`reference.rrf.x_fuse__mutmut_3` -> `reference/rrf.py` (methods: `xǁClassǁm`)."""
    parts = mutant.split(".")
    for i, part in enumerate(parts):
        if part.startswith(("x_", "xǁ")):
            return "/".join(parts[:i]) + ".py"
    return "/".join(parts[:-1]) + ".py"


def collect(workdir: Path) -> dict[str, str]:
    """mutant name -> verdict (killed, survived, timeout, no tests, not checked, ...)."""
    done = subprocess.run(
        ["mutmut", "results", "--all", "true"], cwd=workdir, capture_output=True, text=True
    )
    verdicts: dict[str, str] = {}
    for line in done.stdout.splitlines():
        match = RESULT_LINE.match(line)
        if match:
            verdicts[match.group(1)] = match.group(2).strip()
    return verdicts


def show(workdir: Path, mutant: str) -> str:
    done = subprocess.run(["mutmut", "show", mutant], cwd=workdir, capture_output=True, text=True)
    return done.stdout


#: Functions that only validate the shipped spec data files (spec/data/*.json). The files are
#: fixed, so no golden case can feed them another table: a mutant that makes such a validator
#: more lenient is unobservable through any operation (one that makes it stricter is killed).
SPEC_DATA_VALIDATORS = {
    "reference.intent.x_check_portable",
    "reference.intent.x__parse",
    "reference.intent.x__names",
    "reference.query.stopwords.x_stopword_set",
    "reference.text.x__punct_symbol_ranges",
}
ERROR_LINE = re.compile(r"\braise\b|\b(?:InvalidInput|SpecDataError|ValueError|IndexError_)\(")


def classify(mutant: str, diff: str) -> str:
    """Why a survivor may be equivalent: `message`, `spec-data`, or `review` (look at it)."""
    if mutant.split("__mutmut_")[0] in SPEC_DATA_VALIDATORS:
        return "spec-data"
    removed = [
        line[1:]
        for line in diff.splitlines()
        if line.startswith("-") and not line.startswith("---")
    ]
    if removed and all(ERROR_LINE.search(line) for line in removed):
        return "message"  # only the text of an error changed: messages are free text (OP-2)
    return "review"


def summarise(verdicts: dict[str, str], modules: list[str]) -> dict[str, dict[str, int]]:
    table: dict[str, Counter[str]] = defaultdict(Counter)
    for mutant, verdict in verdicts.items():
        table[module_of(mutant)][verdict] += 1
    out: dict[str, dict[str, int]] = {}
    for module in modules:
        counts = table.get(module, Counter())
        # a timeout counts as killed: the suite noticed (mutmut's own convention).
        killed = counts["killed"] + counts["timeout"]
        checked = killed + counts["survived"] + counts["no tests"] + counts["suspicious"]
        out[module] = {
            "total": sum(counts.values()),
            "checked": checked,
            "killed": killed,
            "survived": counts["survived"],
            "noTests": counts["no tests"],
            "notChecked": counts["not checked"],
            "other": sum(counts.values()) - checked - counts["not checked"],
        }
    return out


def _row(module: str, row: Mapping[str, int]) -> str:
    """killed/checked, the raw score, and the score without the equivalent classes."""
    checked, killed = row["checked"], row["killed"]
    equivalent = row.get("equivalentMessage", 0) + row.get("equivalentSpecData", 0)
    raw = 100.0 * killed / checked if checked else 0.0
    adjusted = 100.0 * killed / (checked - equivalent) if checked > equivalent else 0.0
    pair = f"{killed}/{checked}"
    return f"{module:<28} {pair:>14}  {raw:5.1f}%  {adjusted:7.1f}%  {row.get('toReview', 0)}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--modules", nargs="+", default=MODULES, metavar="PATH")
    parser.add_argument("--workdir", type=Path, help="scratch directory (default: a temp dir)")
    parser.add_argument("--keep", action="store_true", help="keep the scratch directory")
    parser.add_argument("--max-children", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--time-budget", type=float, metavar="S", help="stop mutmut after S s")
    parser.add_argument("--out", type=Path, default=HERE, help="where results.json goes")
    parser.add_argument("--show-survivors", action="store_true", help="write survivors.txt")
    args = parser.parse_args(argv)

    unknown = [m for m in args.modules if not (ROOT / m).is_file()]
    if unknown:
        parser.error(f"no such module: {', '.join(unknown)}")
    scratch = args.workdir or Path(tempfile.mkdtemp(prefix="hrc-mutation-"))
    scratch.mkdir(parents=True, exist_ok=True)
    if any(scratch.iterdir()):
        parser.error(f"{scratch} is not empty")
    prepare(scratch, args.modules, args.max_children)
    started = time.monotonic()
    finished = run_mutmut(scratch, args.max_children, args.time_budget, args.out / "mutmut.log")
    elapsed = round(time.monotonic() - started, 1)
    verdicts = collect(scratch)
    table = summarise(verdicts, args.modules)
    survivors = sorted(m for m, v in verdicts.items() if v == "survived")
    diffs = {m: show(scratch, m) for m in survivors}
    categories = {m: classify(m, diffs[m]) for m in survivors}
    for module, row in table.items():
        mine = [m for m in survivors if module_of(m) == module]
        row["equivalentMessage"] = sum(1 for m in mine if categories[m] == "message")
        row["equivalentSpecData"] = sum(1 for m in mine if categories[m] == "spec-data")
        row["toReview"] = sum(1 for m in mine if categories[m] == "review")
    document = {
        "tool": "mutmut 3 (python benchmarks/mutation/run.py)",
        "driver": DRIVER_TEST,
        "finished": finished,
        "seconds": elapsed,
        "modules": table,
        "survivors": {m: categories[m] for m in survivors},
    }
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "results.json").write_text(json.dumps(document, indent=2) + "\n", "utf-8")
    if args.show_survivors:
        text = "\n".join(f"# category: {categories[m]}\n{diffs[m]}" for m in survivors)
        (args.out / "survivors.txt").write_text(text, "utf-8")
    print(f"{'module':<28} {'killed/checked':>14}  {'raw':>6}  {'adjusted':>8}  review")
    total = Counter[str]()
    for module, row in table.items():
        print(_row(module, row))
        total.update(row)
    state = "finished" if finished else "STOPPED by the time budget (partial)"
    print(_row("all", total) + f"  {state}")
    if not args.keep and args.workdir is None:
        shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
