"""Benchmark: how close `hrc run` is to the protocol's floor (issue 40). Not a test.

    python benchmarks/runner_speed.py [--rounds N] [--json PATH] [--skip-ports]

Everything is measured in ONE run, interleaved (round 1 of every row, then round 2, ...), and
each row keeps its best round, so a shared machine's drift hits all rows alike. Each row is one
child process; its cost is the CPU time (user + system) of that process and all its children
(`resource.getrusage(RUSAGE_CHILDREN)` before and after), not wall time.

Children run with bytecode caching on (PYTHONDONTWRITEBYTECODE removed), as an installed kit
runs; the recording run writes the caches before any row is measured.

Rows:
- `python3 -c pass`: a bare interpreter start (the start-up baseline).
- `hrc --version`, `hrc list`: the kit's start-up.
- `pipe echo`: a minimal Python driver sends every recorded `run` line through a pipe to an
  adapter that answers each line with one fixed line without parsing it.
- `replay floor`: the same driver against the replay adapter, which parses each run message
  and answers the recorded result for it (JSON in, JSON out, nothing else).
- `hrc run, replay adapter`: the whole runner against that same zero-work replay adapter.
- `hrc run, reference | JS port | Go port`: the three implementations as CI runs them.

The answers are recorded first, once, from the reference adapter (`--record-from` picks
another adapter command): a recording proxy sits between `hrc run` and the adapter and writes
every run request with its answer to a JSON-lines file. Ratios are printed against the floor
and against the bare interpreter.

Against a release: `--against REV=LABEL` (default `58cb1a4=3.1.0`, the commit README's 3.1.0
numbers were taken at; repeatable; `--against none` for none) exports REV with `git archive`
and measures its `hrc --version`, `hrc run, reference` and `hrc regen --check` rows in the same
interleaved run, as "ROW (at LABEL)"; `--mutants` adds `hrc selftest mutants --workers 2` here
and at each release (minutes each, so measured in the first round only). The speed-ups of
`hrc regen --check` and `hrc selftest mutants` against 3.1.0 are issue 40's targets (>= 2x).

The same file is the echo and replay adapters and the driver: `--echo`, `--replay FILE`,
`--drive FILE -- CMD...`, `--record FILE -- CMD...` (internal modes). `--baseline DIR` adds
the hrc rows of another checkout (e.g. `git archive main | tar -x -C DIR`, run with this
interpreter; the kit is imported from the working directory) to the same interleaved run.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
ME = str(Path(__file__).resolve())
PY = sys.executable
REFERENCE = f"{shlex.quote(PY)} -m conformance.adapter_reference"
HRC = [PY, "-m", "conformance.cli"]


# --- internal modes: echo adapter, replay adapter, recording proxy, pipe driver -----------

def _key(message: dict[str, Any]) -> str:
    """A run request without its seq, as the replay table's key."""
    rest = {k: v for k, v in message.items() if k != "seq"}
    return json.dumps(rest, sort_keys=True, ensure_ascii=False)


def echo_adapter() -> int:
    """Answers `hello` with a hello and every other line with one fixed result line."""
    out = sys.stdout.buffer
    hello = json.dumps({"type": "hello", "protocol": 1, "name": "echo", "version": "0",
                        "specVersion": "0", "capabilities": []}).encode() + b"\n"
    fixed = b'{"type":"result","seq":0,"output":{}}\n'
    stdin = sys.stdin.buffer
    first = stdin.readline()
    if first:
        out.write(hello)
        out.flush()
    for line in stdin:
        if line.startswith(b'{"type":"bye"') or line.startswith(b'{"type": "bye"'):
            break
        out.write(fixed)
        out.flush()
    return 0


def replay_adapter(path: Path) -> int:
    """Answers from a recording: its hello, then the recorded answer of each run request."""
    hello = ""
    table: dict[str, list[dict[str, Any]]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        if "hello" in row:
            hello = row["hello"]
        else:
            table.setdefault(_key(row["request"]), []).append(row["answer"])
    used: dict[str, int] = {}
    out = sys.stdout
    for line in sys.stdin:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            out.write(hello + "\n")
        elif kind == "bye":
            break
        else:
            key = _key(message)
            answers = table.get(key)
            if not answers:
                answer: dict[str, Any] = {"type": "error", "kind": "internal_error",
                                          "message": "not recorded"}
            else:
                answer = answers[min(used.get(key, 0), len(answers) - 1)]
                used[key] = used.get(key, 0) + 1
            out.write(json.dumps({**answer, "seq": message.get("seq")}) + "\n")
        out.flush()
    return 0


def record_proxy(path: Path, command: list[str]) -> int:
    """Stands between the runner and `command`, appending every exchange to `path`."""
    child = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert child.stdin is not None and child.stdout is not None
    with path.open("a", encoding="utf-8") as log:
        for line in sys.stdin:
            child.stdin.write(line.encode())
            child.stdin.flush()
            message = json.loads(line)
            if message.get("type") == "bye":
                break
            answer = child.stdout.readline().decode()
            sys.stdout.write(answer)
            sys.stdout.flush()
            if message.get("type") == "hello":
                log.write(json.dumps({"hello": answer.rstrip("\n")}) + "\n")
            else:
                log.write(json.dumps({"request": message, "answer": json.loads(answer)}) + "\n")
    child.stdin.close()
    return child.wait()


def drive(path: Path, command: list[str]) -> int:
    """The floor: hello, every recorded run line through the pipe, each answer read back."""
    requests = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    lines = [json.dumps({**row["request"], "seq": i}) + "\n"
             for i, row in enumerate(r for r in requests if "request" in r)]
    child = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert child.stdin is not None and child.stdout is not None
    child.stdin.write('{"type":"hello","protocol":1}\n')
    child.stdin.flush()
    json.loads(child.stdout.readline())
    for line in lines:
        child.stdin.write(line)
        child.stdin.flush()
        json.loads(child.stdout.readline())
    child.stdin.write('{"type":"bye"}\n')
    child.stdin.close()
    return child.wait()


# --- measurement ---------------------------------------------------------------------------

#: Children run as an installed kit runs: bytecode caches written and reused. (A shell with
#: PYTHONDONTWRITEBYTECODE set would make every start compile the kit from source.)
CHILD_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def cpu_of(argv: list[str], env: dict[str, str] | None = None,
           cwd: Path | None = None) -> tuple[float, int]:
    """CPU seconds (user + system) of `argv` and its children, and its exit status."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run(argv, cwd=cwd or ROOT, stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL, env=CHILD_ENV if env is None else env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    used = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return used, proc.returncode


def rows_to_run(recording: Path, skip_ports: bool, mutants: bool = False) -> dict[str, list[str]]:
    replay = f"{shlex.quote(PY)} {shlex.quote(ME)} --replay {shlex.quote(str(recording))}"
    run = [*HRC, "run", "--quiet"]
    rows = {
        "python3 -c pass": [PY, "-c", "pass"],
        "hrc --version": [*HRC, "--version"],
        "hrc list": [*HRC, "list"],
        "pipe echo": [PY, ME, "--drive", str(recording), "--", PY, ME, "--echo"],
        "replay floor": [PY, ME, "--drive", str(recording), "--", *shlex.split(replay)],
        "hrc run, replay adapter": [*run, "--adapter", replay],
        "hrc run, reference": run,
        "hrc regen --check": [*HRC, "regen", "--check"],
    }
    if mutants:
        rows["hrc selftest mutants"] = [*HRC, "selftest", "mutants", "--workers", "2"]
    if not skip_ports and shutil.which("node"):
        rows["hrc run, JS port"] = [*run, "--adapter", "node ports/js/adapter.mjs",
                                    "--expected-failures", "ports/js/expected-failures.yaml"]
    if not skip_ports and (ROOT / "ports/go/bin/adapter").is_file():
        rows["hrc run, Go port"] = [*run, "--adapter", "ports/go/bin/adapter",
                                    "--expected-failures", "ports/go/expected-failures.yaml"]
    return rows


#: (row, baseline) pairs whose ratio is printed, with the issue's target when it has one
#: (met when the ratio is at most the target; a speed-up target below as its inverse).
RATIOS: list[tuple[str, str, float | None]] = [
    ("hrc run, replay adapter", "replay floor", 2.0),
    ("replay floor", "pipe echo", None),
    ("hrc --version", "python3 -c pass", 5.0),
    ("hrc list", "python3 -c pass", None),
    ("hrc run, Go port", "hrc run, replay adapter", 1.2),
    ("hrc run, JS port", "hrc run, replay adapter", None),
    ("hrc run, reference", "hrc run, replay adapter", 1.5),
]


#: Rows measured again in --baseline's checkout, as "ROW (baseline)".
BASELINE_ROWS = ("hrc --version", "hrc list", "hrc run, replay adapter", "hrc run, reference",
                 "hrc run, JS port", "hrc run, Go port", "hrc regen --check",
                 "hrc selftest mutants")

#: Rows measured again at each --against release, as "ROW (at LABEL)" (its suite differs,
#: so rows that replay this checkout's answers or need its built ports are left out).
RELEASE_ROWS = ("hrc --version", "hrc run, reference", "hrc regen --check",
                "hrc selftest mutants")

#: The release issue 40 measures against, and the speed-ups it asks of it.
RELEASE = "58cb1a4=3.1.0"
RELEASE_TARGETS = {"hrc regen --check": 2.0, "hrc selftest mutants": 2.0}

#: What a release row's work is counted in: its suite grew, so its speed-up is per unit.
UNIT_OF = {"hrc run, reference": "cases", "hrc regen --check": "cases",
           "hrc selftest mutants": "mutants"}


def units(root: Path) -> dict[str, int]:
    """The cases and broken ports of the checkout at `root` (a release's suite is smaller)."""
    def count(*args: str) -> int:
        out = subprocess.run([*HRC, *args], cwd=root, env=CHILD_ENV, capture_output=True,
                             text=True, check=False).stdout
        return sum(1 for line in out.splitlines() if line.strip())
    return {"cases": count("list") - 1, "mutants": count("selftest", "mutants", "--list")}


#: Rows that take minutes: measured in the first round only.
SLOW_ROWS = ("hrc selftest mutants",)


def export(rev: str, into: Path) -> Path:
    """`git archive` of `rev` of this checkout, unpacked into `into`."""
    into.mkdir(parents=True)
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev], check=True,
                             capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def measure(rounds: int, record_from: str, skip_ports: bool,
            baseline: Path | None = None, against: tuple[str, ...] = (),
            mutants: bool = False) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="hrc-runner-speed-") as tmp:
        recording = Path(tmp) / "answers.jsonl"
        proxy = (f"{shlex.quote(PY)} {shlex.quote(ME)} --record {shlex.quote(str(recording))}"
                 f" -- {record_from}")
        subprocess.run([*HRC, "run", "--quiet", "--adapter", proxy], cwd=ROOT, env=CHILD_ENV,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        cases = sum(1 for line in recording.read_text().splitlines() if '"request"' in line)
        mine = rows_to_run(recording, skip_ports, mutants)
        rows = {name: (argv, ROOT) for name, argv in mine.items()}
        others: list[tuple[str, Path, tuple[str, ...]]] = []
        work = {"": units(ROOT)}
        if baseline is not None:
            others.append(("baseline", baseline, BASELINE_ROWS))
        for spec in against:
            rev, _, label = spec.partition("=")
            others.append((f"at {label or rev}", export(rev, Path(tmp) / f"rev-{rev}"),
                           RELEASE_ROWS))
            work[f"at {label or rev}"] = units(others[-1][1])
        for label, root, names in others:
            subprocess.run([*HRC, "run", "--quiet"], cwd=root,
                           env=CHILD_ENV, capture_output=True, check=False)  # its caches
            for name in names:
                if name in rows:
                    rows[f"{name} ({label})"] = (rows[name][0], root)
        best: dict[str, float] = {}
        status: dict[str, int] = {}
        for round_ in range(rounds):
            for name, (argv, cwd) in rows.items():
                if round_ and name.split(" (")[0] in SLOW_ROWS:
                    continue
                used, code = cpu_of(argv, cwd=cwd)
                best[name] = min(best.get(name, used), used)
                status[name] = code
    ratios = []
    pairs = RATIOS + [(f"{name} (baseline)", name, None) for name in BASELINE_ROWS]
    for spec in against:
        label = spec.partition("=")[2] or spec
        pairs += [(f"{name} (at {label})", name,
                   RELEASE_TARGETS.get(name) if spec == RELEASE else None)
                  for name in RELEASE_ROWS]
    for row, base, target in pairs:
        if row in best and base in best and best[base] > 0:
            value = best[row] / best[base]
            speed_up = " (at " in row  # a release's time over this one's: at least target
            raw = value
            unit = UNIT_OF.get(base) if speed_up else None
            if unit is not None:  # per unit of work: the release's suite was smaller
                there = work[row.split(" (", 1)[1].rstrip(")")][unit]
                value = raw * work[""][unit] / there if there else raw
            ratios.append({"row": row, "baseline": base, "ratio": value, "raw_ratio": raw,
                           "per": unit, "target": target,
                           "at_least": speed_up,
                           "met": None if target is None else (
                               value >= target if speed_up else value <= target)})
    return {"rounds": rounds, "run_messages": cases, "record_from": record_from, "work": work,
            "against": list(against), "cpu_seconds": best, "exit": status, "ratios": ratios}


def _use_root(root: Path) -> None:
    """Measure another checkout (e.g. main, for a before/after) with this interpreter."""
    global ROOT
    ROOT = root


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["--echo"]:
        return echo_adapter()
    if args[:1] == ["--replay"]:
        return replay_adapter(Path(args[1]))
    if args[:1] in (["--record"], ["--drive"]) and args[2:3] == ["--"]:
        mode = record_proxy if args[0] == "--record" else drive
        return mode(Path(args[1]), args[3:])
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="best of N (3)")
    parser.add_argument("--record-from", default=REFERENCE, metavar="CMD",
                        help="adapter whose answers the replay adapter repeats (the reference)")
    parser.add_argument("--skip-ports", action="store_true", help="no JS and Go rows")
    parser.add_argument("--json", type=Path, help="also write the results as JSON here")
    parser.add_argument("--root", type=Path, default=ROOT,
                        help="kit checkout to measure, run with its own interpreter (this one)")
    parser.add_argument("--baseline", type=Path, metavar="DIR",
                        help="another checkout (e.g. an export of main) whose hrc rows are "
                        "measured in the same run; ratios say baseline / this")
    parser.add_argument("--against", action="append", metavar="REV=LABEL",
                        help=f"a release to measure in the same run ({RELEASE}; repeatable; "
                        "'none' for none)")
    parser.add_argument("--mutants", action="store_true",
                        help="add hrc selftest mutants --workers 2 (minutes per checkout)")
    opts = parser.parse_args(args)
    _use_root(opts.root.resolve())
    against = tuple(a for a in (opts.against or [RELEASE]) if a != "none")
    result = measure(opts.rounds, opts.record_from, opts.skip_ports,
                     opts.baseline.resolve() if opts.baseline else None, against,
                     opts.mutants)
    print(f"{result['run_messages']:,} run messages, best of {opts.rounds}, CPU s "
          "(process + children)")
    print("| row | CPU (s) | exit |")
    print("|---|---:|---:|")
    for name, used in result["cpu_seconds"].items():
        print(f"| {name} | {used:.3f} | {result['exit'][name]} |")
    print()
    print("| ratio | value | target |")
    print("|---|---:|---|")
    for r in result["ratios"]:
        target = "" if r["target"] is None else (
            f"{'≥' if r['at_least'] else '≤'} {r['target']:g}× "
            f"{'met' if r['met'] else 'missed'}")
        per = f" per {r['per'][:-1]} (raw {r['raw_ratio']:.2f}×)" if r.get("per") else ""
        print(f"| {r['row']} / {r['baseline']} | {r['ratio']:.2f}×{per} | {target} |")
    if opts.json:
        opts.json.write_text(json.dumps(result, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    raise SystemExit(main())
