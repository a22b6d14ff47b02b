"""`hrc eval`: retrieval quality of the reference pipeline on labelled queries (seed 004's
BrainBench table), TREC runs and qrels, a chart, and capture/replay for CI.

Metrics are spec/metrics.md (reference/metrics.py); documents are judged by path, so a
result list is the list of result paths (METRIC-3 keeps the first chunk of each document).
Exit statuses: 0 ok, 1 a replayed metric dropped more than allowed, 2 bad input.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from conformance.common import atomic_write, errors, input_files, strict_json
from conformance.reports import eval_trec
from conformance.reports.eval_chart import svg_chart
from conformance.reports.eval_trec import (
    ORDERS,
    EvalFileError,
    format_run,
    read_qrels,
    read_queries,
    read_run,
)
from reference import metrics

DEFAULT_MODES = ("bm25", "semantic", "hybrid")
HEADERS = {
    "precision": "P@{k}",
    "recall": "R@{k}",
    "reciprocalRank": "MRR",
    "ndcg": "nDCG@{k}",
    "hit": "Hit@{k}",
    "averagePrecision": "MAP",
}


class UsageError(Exception):
    """Bad arguments or files: one line on stderr, exit 2."""


# -- running the pipeline -----------------------------------------------------------------------

Searcher = Callable[[str, str, int], tuple[list[dict[str, Any]], dict[str, Any]]]


@contextmanager
def open_searcher(db: Path) -> Iterator[Searcher]:
    """The reference pipeline on the real backends `hrc search` uses (reference/cli.py)."""
    from reference.backends.embedder import HashEmbedder
    from reference.backends.lexical_reranker import LexicalReranker
    from reference.backends.sqlite_fts import SqliteIndex
    from reference.backends.vector import vectors_of_index
    from reference.pipeline import Backends, search
    from reference.types import IndexError_, InvalidInput

    if not db.is_file():
        raise UsageError(f"database not found: {db} (create it with `hrc index DIR --db {db}`)")
    try:
        index = SqliteIndex(db)
    except IndexError_ as exc:
        raise UsageError(str(exc)) from exc
    try:
        embedder = HashEmbedder()
        backends = Backends(
            index=index,
            embedder=embedder,
            vectors=vectors_of_index(index, embedder),  # BACKEND-25: stored, not re-embedded
            reranker=LexicalReranker(),
        )

        def run(query: str, mode: str, depth: int) -> tuple[list[dict[str, Any]], dict[str, Any]]:
            try:
                return search({"query": query, "mode": mode, "topK": depth}, backends)
            except (InvalidInput, IndexError_) as exc:
                raise UsageError(f"search {query!r} in mode {mode}: {exc}") from exc

        yield run
    finally:
        index.close()


@dataclass(frozen=True)
class Labelled:
    """The labelled set: query texts and judgements (qrels ids must all have a text)."""

    queries: dict[str, str]
    qrels: dict[str, dict[str, int]]


def load_labelled(qrels_path: Path, queries_path: Path | None) -> Labelled:
    """Qrels plus the query texts (default: `queries.tsv` next to the qrels file)."""
    qrels = read_qrels(qrels_path)
    qpath = queries_path or qrels_path.with_name("queries.tsv")
    if not qpath.is_file():
        raise UsageError(f"query texts not found: {qpath} (give --queries FILE)")
    queries = read_queries(qpath)
    for n, line in eval_trec.read_lines(qrels_path):
        parts = eval_trec.fields(line)
        if parts[0] not in queries:
            raise EvalFileError(qrels_path, n, f"unknown query id {parts[0]!r} (not in {qpath})")
    return Labelled(queries, qrels)


def progress(done: int, total: int, what: str) -> None:
    """A progress bar on stderr when it is a terminal; silent otherwise."""
    if not sys.stderr.isatty():
        return
    width = 30
    filled = width * done // max(total, 1)
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} {what:<12}")
    if done == total:
        sys.stderr.write("\n")
    sys.stderr.flush()


def run_modes(
    searcher: Searcher, labelled: Labelled, modes: Sequence[str], depth: int
) -> dict[str, dict[str, tuple[list[dict[str, Any]], dict[str, Any]]]]:
    """Every query (in id order) in every mode: mode -> qid -> (results, trace)."""
    out: dict[str, dict[str, tuple[list[dict[str, Any]], dict[str, Any]]]] = {}
    total = len(modes) * len(labelled.queries)
    done = 0
    for mode in modes:
        out[mode] = {}
        for qid in sorted(labelled.queries):
            out[mode][qid] = searcher(labelled.queries[qid], mode, depth)
            done += 1
            progress(done, total, mode)
    return out


def paths(results: Sequence[Mapping[str, Any]]) -> list[str]:
    """A result list as the document ids it is judged by: the paths, in order."""
    return [str(r["path"]) for r in results]


# -- output -------------------------------------------------------------------------------------


def format_number(value: float | None) -> str:
    return "-" if value is None else f"{value:.4f}"


def table(evaluations: Mapping[str, metrics.Evaluation], k: int, markdown: bool) -> str:
    """The seed's table: one row per mode, one column per metric."""
    head = ["mode", *[HEADERS[m].format(k=k) for m in metrics.MEASURES], "queries"]
    rows = [
        [mode, *[format_number(e.mean[m]) for m in metrics.MEASURES], str(len(e.queries))]
        for mode, e in evaluations.items()
    ]
    if markdown:
        lines = ["| " + " | ".join(head) + " |",
                 "|" + "|".join(["---"] + ["---:"] * (len(head) - 1)) + "|"]
        lines += ["| " + " | ".join(r) + " |" for r in rows]
        return "\n".join(lines)
    widths = [max(len(r[c]) for r in [head, *rows]) for c in range(len(head))]
    fmt = ["  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in
                     enumerate(zip(r, widths, strict=True))) for r in [head, *rows]]
    fmt.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(fmt)


def _write(path: Path, text: str) -> None:
    try:
        atomic_write.write_text(path, text)  # PROTO-49
    except OSError as exc:
        raise UsageError(f"cannot write {path}: {exc}") from exc


def _modes(text: str) -> list[str]:
    from reference.modes import MODES

    modes = [m.strip() for m in text.split(",") if m.strip()]
    bad = [m for m in modes if m not in MODES]
    if not modes or bad:
        raise UsageError(f"--modes: unknown mode(s) {', '.join(bad) or '(none)'}; "
                         f"choose from {', '.join(MODES)}")
    return modes


def _check_k(k: int) -> int:
    if not 1 <= k <= metrics.MAX_K:
        raise UsageError(f"--k must be between 1 and {metrics.MAX_K} (METRIC-1), got {k}")
    return k


def judgements_elsewhere(
    qrels: Mapping[str, Mapping[str, int]], documents: set[str], where: str
) -> str | None:
    """A warning when no judged document id is among `documents` (every metric is then 0,
    which reads like a bad system rather than qrels that name other documents), else None."""
    judged = {doc for docs in qrels.values() for doc in docs}
    if not judged or judged & documents:
        return None
    example = sorted(judged)[0]
    return (f"none of the {len(judged)} judged documents is {where} (e.g. {example!r}), so "
            "every metric is 0: qrels name documents by their path relative to the indexed "
            "folder, e.g. `notes/a.md`")


def tie_disagreements(by_rank: Mapping[str, Sequence[str]],
                      by_score: Mapping[str, Sequence[str]]) -> int:
    """How many queries a run ranks differently from trec_eval."""
    return sum(list(docs) != list(by_score.get(q, ())) for q, docs in by_rank.items())


def indexed_paths(db: Path) -> set[str]:
    """The document paths an index holds."""
    from reference.backends.sqlite_fts import SqliteIndex

    with SqliteIndex(db) as index:
        return set(index.document_hashes())


# -- commands -----------------------------------------------------------------------------------


def cmd_eval(args: argparse.Namespace) -> int:
    if args.db is None or args.qrels is None:
        raise UsageError("the following arguments are required: --db, --qrels")
    k = _check_k(args.k)
    modes = _modes(args.modes)
    labelled = load_labelled(args.qrels, args.queries)
    started = time.perf_counter()
    with open_searcher(args.db) as searcher:
        ran = run_modes(searcher, labelled, modes, args.depth or k)
    runs = {mode: {q: paths(r) for q, (r, _) in by_q.items()} for mode, by_q in ran.items()}
    evaluations = {mode: metrics.evaluate(run, labelled.qrels, k) for mode, run in runs.items()}
    print(table(evaluations, k, args.markdown))
    searches = len(modes) * len(labelled.queries)
    print(f"eval: {searches} searches in {time.perf_counter() - started:.1f} s", file=sys.stderr)
    unjudged = sorted({q for e in evaluations.values() for q in e.unjudged})
    if unjudged:
        print(f"eval: {len(unjudged)} queries without judgements not scored: "
              f"{', '.join(unjudged)}", file=sys.stderr)
    stray = judgements_elsewhere(labelled.qrels, indexed_paths(args.db), "in the index")
    if stray is not None:
        print(f"eval: warning: {stray}", file=sys.stderr)
    if args.json:
        doc = {"k": k, "modes": {m: e.to_json() for m, e in evaluations.items()}}
        _write(args.json, json.dumps(doc, indent=2, ensure_ascii=False) + "\n")
    if args.chart:
        labels = [HEADERS[m].format(k=k) for m in metrics.MEASURES]
        series = {mode: [e.mean[m] for m in metrics.MEASURES] for mode, e in evaluations.items()}
        _write(args.chart, svg_chart(f"hrc eval: {len(labelled.qrels)} labelled queries",
                                     labels, series))
    if args.write_runs:
        args.write_runs.mkdir(parents=True, exist_ok=True)
        for mode, run in runs.items():
            _write(args.write_runs / f"{mode}.run", format_run(run, f"hrc-{mode}"))
    return 0


def cmd_score(args: argparse.Namespace) -> int:
    """Score TREC run files against TREC qrels, no database needed."""
    k = _check_k(args.k)
    qrels = read_qrels(args.qrels)
    evaluations = {path.stem: metrics.evaluate(read_run(path, args.order), qrels, k)
                   for path in args.runs}
    print(table(evaluations, k, args.markdown))
    if args.order == "rank":
        for path in args.runs:
            differ = tie_disagreements(read_run(path), read_run(path, "trec_eval"))
            if differ:
                print(f"eval score: {path.stem}: note: in {differ} queries trec_eval ranks the "
                      "documents differently (it sorts by score, ties by docid descending, and "
                      "ignores the rank column); --order trec_eval reproduces its order",
                      file=sys.stderr)
    for name, e in evaluations.items():
        if e.unjudged:
            print(f"eval score: {name}: {len(e.unjudged)} queries without judgements not "
                  f"scored: {', '.join(e.unjudged)}", file=sys.stderr)
    retrieved = {doc for path in args.runs for docs in read_run(path).values() for doc in docs}
    stray = judgements_elsewhere(qrels, retrieved, "in any run")
    if stray is not None:
        print(f"eval score: warning: {stray}", file=sys.stderr)
    if args.json:
        doc = {"k": k, "modes": {m: e.to_json() for m, e in evaluations.items()}}
        _write(args.json, json.dumps(doc, indent=2, ensure_ascii=False) + "\n")
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    """Capture every labelled query with its results, trace and judgements (JSON lines)."""
    k = _check_k(args.k)
    modes = _modes(args.modes)
    labelled = load_labelled(args.qrels, args.queries)
    with open_searcher(args.db) as searcher:
        ran = run_modes(searcher, labelled, modes, args.depth or k)
    lines = []
    for mode, by_q in ran.items():
        for qid, (results, trace) in by_q.items():
            lines.append(json.dumps({
                "mode": mode, "id": qid, "query": labelled.queries[qid], "k": k,
                "depth": args.depth or k, "qrels": labelled.qrels.get(qid, {}),
                "results": [{"id": r["id"], "path": r["path"], "score": r["score"]}
                            for r in results],
                "trace": trace,
            }, ensure_ascii=False))
    _write(args.output, "".join(line + "\n" for line in lines))
    print(f"eval export: {len(lines)} captured searches written to {args.output}")
    return 0


@dataclass(frozen=True)
class Captured:
    mode: str
    id: str
    query: str
    k: int
    depth: int
    qrels: dict[str, int]
    paths: list[str]


def read_capture(path: Path) -> list[Captured]:
    """The lines `hrc eval export` wrote; a malformed line is `file:line: message`."""
    try:
        text = input_files.read_text(path, eval_trec.MAX_FILE_BYTES)
    except input_files.InputFileError as exc:
        raise EvalFileError(path, exc.line, exc.message) from None
    out = []
    for n, line in enumerate(input_files.split_lines(text), 1):
        if not line.strip():
            continue
        try:
            obj = strict_json.loads_strict(line)
            out.append(Captured(
                mode=str(obj["mode"]), id=str(obj["id"]), query=str(obj["query"]),
                k=int(obj["k"]), depth=int(obj["depth"]),
                qrels={str(d): int(r) for d, r in obj["qrels"].items()},
                paths=[str(r["path"]) for r in obj["results"]],
            ))
        except (ValueError, KeyError, TypeError, AttributeError, RecursionError) as exc:
            raise EvalFileError(path, n, f"not a captured search: {exc}") from None
    if not out:
        raise EvalFileError(path, 1, "no captured searches")
    from reference.modes import MODES

    for c in out:
        if c.mode not in MODES:
            raise UsageError(f"{path}: unknown mode {c.mode!r} in the capture")
        if c.k != next(o.k for o in out if o.mode == c.mode):
            raise UsageError(f"{path}: mode {c.mode} was captured with different k values")
    return out


def rank_changes(
    before: Sequence[str], after: Sequence[str], judged: Mapping[str, int]
) -> list[str]:
    """`path: 3 -> 1` for each relevant document whose rank moved (METRIC-3 ranks)."""
    old, new = metrics.dedupe(before), metrics.dedupe(after)
    out = []
    for doc in sorted(d for d, rel in judged.items() if rel > 0):
        a = old.index(doc) + 1 if doc in old else None
        b = new.index(doc) + 1 if doc in new else None
        if a != b:
            out.append(f"{doc}: {a or '-'} -> {b or '-'}")
    return out


def cmd_replay(args: argparse.Namespace) -> int:
    """Re-run captured searches; exit 1 when a mean metric drops by more than --max-drop."""
    captured = read_capture(args.against)
    failed: list[str] = []
    with open_searcher(args.db) as searcher:
        for mode in dict.fromkeys(c.mode for c in captured):
            group = [c for c in captured if c.mode == mode]
            k = group[0].k
            qrels = {c.id: c.qrels for c in group}
            before = {c.id: c.paths for c in group}
            after = {}
            for i, c in enumerate(group, 1):
                after[c.id] = paths(searcher(c.query, mode, c.depth)[0])
                progress(i, len(group), mode)
            old = metrics.evaluate(before, qrels, k)
            new = metrics.evaluate(after, qrels, k)
            old_rows = {r.query: r for r in old.queries}
            print(f"mode {mode}: {len(group)} queries")
            for row in new.queries:
                was = old_rows[row.query]
                deltas = [f"{HEADERS[m].format(k=k)} {row.value(m) - was.value(m):+.4f}"
                          for m in metrics.MEASURES if row.value(m) != was.value(m)]
                moves = rank_changes(before[row.query], after[row.query], qrels[row.query])
                if deltas or moves:
                    print(f"  {row.query}: {'; '.join(moves) or 'no rank change'}"
                          f"{' | ' + ', '.join(deltas) if deltas else ''}")
            for m in metrics.MEASURES:
                a, b = old.mean[m], new.mean[m]
                if a is None or b is None:
                    continue
                label = HEADERS[m].format(k=k)
                print(f"  mean {label:<8} {a:.4f} -> {b:.4f} ({b - a:+.4f})")
                if a - b > args.max_drop:
                    failed.append(f"{mode} {label} dropped {a - b:.4f} > {args.max_drop}")
    for line in failed:
        print(f"eval replay: FAIL {line}", file=sys.stderr)
    if not failed:
        print(f"eval replay: ok, no metric dropped more than {args.max_drop}")
    return 1 if failed else 0


def _guard(handler: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    def run(args: argparse.Namespace) -> int:
        try:
            return handler(args)
        except (UsageError, EvalFileError) as exc:
            return errors.emit("eval", str(exc))

    return run


def _common(p: argparse.ArgumentParser, *, db: bool = True, required: bool = True) -> None:
    # The bare `hrc eval` checks its own required options (cmd_eval): argparse would demand
    # them from `hrc eval replay` too.
    if db:
        p.add_argument("--db", type=Path, required=required,
                       help="database written by `hrc index`")
    p.add_argument("--qrels", type=Path, required=required,
                   help="TREC qrels: `qid 0 docid rel`")
    p.add_argument("--k", type=int, default=metrics.DEFAULT_K, help="cut-off (default 5)")


def _searching(p: argparse.ArgumentParser) -> None:
    p.add_argument("--queries", type=Path, help="`qid<TAB>text` (default: queries.tsv beside "
                   "the qrels)")
    p.add_argument("--modes", default=",".join(DEFAULT_MODES),
                   help="comma-separated modes (default bm25,semantic,hybrid)")
    p.add_argument("--depth", type=int, help="results per search (topK; default k)")


def register(subparsers: Any) -> None:
    """Add `hrc eval` with its `score`, `export` and `replay` sub-commands."""
    p = subparsers.add_parser("eval", help="retrieval quality on labelled queries (P@k, R@k, "
                              "MRR, nDCG@k, hit rate, MAP; spec/metrics.md)")
    sub = p.add_subparsers(dest="eval_command", metavar="[score|export|replay]")
    _common(p, required=False)
    _searching(p)
    p.add_argument("--json", type=Path, help="write the per-query and mean metrics as JSON")
    p.add_argument("--chart", type=Path, help="write a grouped bar chart (SVG)")
    p.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    p.add_argument("--write-runs", type=Path, dest="write_runs",
                   help="write one TREC run file per mode into this folder")
    p.set_defaults(func=_guard(cmd_eval))

    s = sub.add_parser(
        "score", help="score TREC run files against TREC qrels",
        description="Score TREC run files against TREC qrels. A run is ranked by its rank "
        "column (METRIC-3); trec_eval ignores that column and sorts by score, ties by docid "
        "descending, so on tied (or rank-contradicting) scores the two disagree: "
        "--order trec_eval reproduces trec_eval's order.",
    )
    s.add_argument("runs", type=Path, nargs="+", help="TREC run files")
    s.add_argument("--order", choices=ORDERS, default="rank",
                   help="rank: the rank column (default, METRIC-3); trec_eval: score "
                   "descending, ties by docid descending, as trec_eval")
    _common(s, db=False)
    s.add_argument("--json", type=Path)
    s.add_argument("--markdown", action="store_true")
    s.set_defaults(func=_guard(cmd_score))

    e = sub.add_parser("export", help="capture labelled searches with results and traces")
    _common(e)
    _searching(e)
    e.add_argument("-o", "--output", type=Path, required=True, help="JSON lines file to write")
    e.set_defaults(func=_guard(cmd_export))

    r = sub.add_parser("replay", help="re-run captured searches and report what moved")
    r.add_argument("--db", type=Path, required=True)
    r.add_argument("--against", type=Path, required=True, help="file written by `eval export`")
    r.add_argument("--max-drop", type=float, default=0.02, dest="max_drop",
                   help="fail when a mean metric drops by more than this (default 0.02)")
    r.set_defaults(func=_guard(cmd_replay))
