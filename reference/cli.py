"""`hrc index` and `hrc search`: the reference pipeline on a real SQLite FTS5 index.

I/O lives here; the pipeline and backends do the work (spec/pipeline.md, spec/backends.md).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import unicodedata
from collections import Counter
from pathlib import Path
from typing import Any

from reference.intent_table import DEFAULT_TABLE, TABLES
from reference.modes import MODES


def register(subparsers: Any) -> None:
    """Add the `index` and `search` sub-commands to the hrc parser."""
    p = subparsers.add_parser("index", help="index a folder of Markdown/text files into SQLite")
    p.add_argument("directory", type=Path, help="folder to index (*.md and *.txt, recursively)")
    p.add_argument("--db", required=True, type=Path, help="SQLite database to create or update")
    p.add_argument("--lock-timeout", type=float, default=None, metavar="S", dest="lock_timeout",
                   help="give up (exit 2) when another run holds the index lock for S seconds "
                   "(default: wait)")
    p.add_argument("--links", action="store_true",
                   help="list every link to a page not indexed even when nothing changed")
    p.set_defaults(func=cmd_index)

    s = subparsers.add_parser("search", help="search an index with the reference pipeline")
    s.add_argument("query", help="the query (query DSL: AND, OR, NOT, \"phrases\", prefix*)")
    s.add_argument("--db", required=True, type=Path, help="database written by `hrc index`")
    s.add_argument("--mode", choices=MODES, default="auto")
    s.add_argument("--top-k", type=int, default=10, dest="top_k")
    s.add_argument("--candidate-k", type=int, default=60, dest="candidate_k")
    s.add_argument("--rerank-top-n", type=int, default=20, dest="rerank_top_n")
    s.add_argument("--no-embedder", action="store_true", help="run without the hash embedder")
    s.add_argument("--no-rerank", action="store_true", help="disable the lexical reranker")
    s.add_argument(
        "--intent-table",
        choices=TABLES,
        default=DEFAULT_TABLE,
        dest="intent_table",
        help="intent rule table (spec/intent.md INTENT-13)",
    )
    s.add_argument(
        "--fanout",
        action="store_true",
        help="the BM25 leg's first pass is the anchor's fanout of up to four derived queries "
        "(bm25Fanout, spec/fanout.md)",
    )
    s.add_argument("--trace", action="store_true", help="also print a readable view of the trace")
    s.add_argument("--json", action="store_true", help="print {results, trace} as JSON instead")
    s.set_defaults(func=cmd_search)


def shown(text: str) -> str:
    """`text` on one line, control/format/separator characters and lone surrogates escaped,
    so a file name or a query cannot write terminal escapes (PROTO-37's rule, here too)."""
    out = []
    for ch in text:
        if unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"):
            code = ord(ch)
            out.append(f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}")
        else:
            out.append(ch)
    return "".join(out)


def _fail(command: str, message: str, status: int = 2) -> int:
    """The one error line every hrc command writes: `hrc COMMAND: error: ...` (PROTO-44)."""
    print(f"hrc {command}: error: {shown(message)}", file=sys.stderr)
    return status


def _plural(count: int, noun: str, nouns: str | None = None) -> str:
    return f"{count} {noun if count == 1 else (nouns or noun + 's')}"


def _index_into(root: Path, db: Path, lock_timeout: float | None = None) -> tuple[Any, bool]:
    """Index `root` into `db`; (report, created). A first run builds a temporary database
    beside `db` and publishes it only when complete, so a failed or killed first run leaves
    no database and two racing first runs never delete each other's (BACKEND-19). What killed
    first runs left is removed first; a run that must wait for the lock says for whom."""
    from reference.backends import index_files
    from reference.backends.embedder import HashEmbedder
    from reference.backends.indexer import index_directory
    from reference.backends.sqlite_fts import SqliteIndex

    def run(index: SqliteIndex) -> Any:
        # BACKEND-19: in WAL mode a search running meanwhile reads the last committed index,
        # never "database is locked" (a rollback journal locks readers out at commit, and
        # for the rest of a transaction whose pages spilled). The mode is kept in the file.
        index.connection().execute("PRAGMA journal_mode = WAL")
        # BACKEND-25: vectors are written with their chunks, in the same transaction.
        with index.transaction():
            report = index_directory(root, index, skip_undecodable=True)
            index.store_missing_vectors()
            index.store_missing_words()  # TRI-1: the trigram rung loads them, never rebuilds
        return report

    for stale in index_files.remove_stale_temps(db):
        index_files.say_on_stderr(f"removed {shown(stale.name)}, left by a killed run")
    if not db.exists():
        with index_files.first_run_temp(db) as tmp:
            index = SqliteIndex(tmp, embedder=HashEmbedder(), store_words=True)
            try:
                report = run(index)
            finally:
                index.close()
            try:
                os.link(tmp, db)  # atomic, and never replaces a database another run made
                return report, True
            except FileExistsError:
                pass  # another first run won: index incrementally into its database
    with index_files.locked(db, lock_timeout, index_files.say_on_stderr):
        index = SqliteIndex(db, embedder=HashEmbedder(), store_words=True)
        try:
            return run(index), False
        finally:
            index.close()


def cmd_index(args: argparse.Namespace) -> int:
    """Index a folder; incremental, and nothing half-written when a file cannot be read."""
    from reference.backends.index_files import LockTimeout
    from reference.backends.indexer import IndexingError
    from reference.types import IndexError_

    root: Path = args.directory
    if not root.is_dir():
        return _fail("index", f"not a directory: {root}")
    db: Path = args.db
    if db.parent and not db.parent.exists():
        return _fail("index", f"folder of the database does not exist: {db.parent}")
    if args.lock_timeout is not None and not args.lock_timeout >= 0:
        return _fail("index", f"--lock-timeout must be at least 0, got {args.lock_timeout}")
    try:
        report, _ = _index_into(root, db, args.lock_timeout)  # non-UTF-8 files are skipped
    except LockTimeout as exc:
        return _fail("index", str(exc))
    except (IndexingError, IndexError_) as exc:
        return _fail("index", str(exc), 1)
    except OSError as exc:
        return _fail("index", f"cannot write the index {db}: {exc.strerror or exc}", 1)
    except MemoryError:
        return _fail("index", "out of memory while indexing; nothing was written", 1)
    for line in report.skipped:
        print(f"hrc index: warning: {shown(line)}", file=sys.stderr)
    if not (report.added or report.updated or report.unchanged):
        print(f"hrc index: warning: no *.md or *.txt file to index under {shown(str(root))}; "
              "the index is empty", file=sys.stderr)
    summary = ", ".join(f"{v} {k}" for k, v in report.counts().items())
    print(f"indexed {shown(str(root))} into {shown(str(db))}: {summary}")
    changed = bool(report.added or report.updated or report.removed)
    _print_links(db, listed=changed or args.links)
    return 0


def _print_links(db: Path, listed: bool = True) -> None:
    """Profile gbrain: the edges `hrc index` extracted; an edge to a missing page is kept and
    reported (spec/profiles/gbrain.md), one line each when `listed` (the index changed, or
    `--links`), else only counted: an unchanged re-index does not print them all again."""
    from reference.backends.sqlite_fts import SqliteIndex
    from reference.profiles.gbrain.edges_table import EdgesTable

    with SqliteIndex(db) as index:
        links = EdgesTable(index.connection()).summary()
    hint = "" if listed or not links.missing else " (unchanged; --links lists them)"
    print(f"links: {links.edges} edges, {len(links.missing)} to pages not indexed{hint}")
    for source, target, kind in links.missing if listed else ():
        print(f"  {shown(source)} -> {shown(target)} ({shown(kind)}): no such page")


def _where(result: dict[str, Any], paths: Counter[str]) -> str:
    """The path, or the chunk id when another row shows a chunk of the same file."""
    path, chunk = result["path"], str(result["id"])
    if paths[path] < 2:
        return str(path)
    return chunk if chunk.startswith(path) else f"{path} [{chunk}]"


def _format_table(results: list[dict[str, Any]]) -> str:
    if not results:
        return "no results"
    rows = [("#", "score", "rerank", "path", "title")]
    paths = Counter(r["path"] for r in results)
    for i, r in enumerate(results, 1):
        rerank = "" if r["rerankScore"] is None else f"{r['rerankScore']:.4f}"
        rows.append((str(i), f"{r['score']:.6f}", rerank, shown(_where(r, paths)),
                     shown(r["title"])))
    widths = [max(len(row[c]) for row in rows) for c in range(5)]
    lines = [
        "  ".join(cell.ljust(widths[c]) for c, cell in enumerate(row)).rstrip() for row in rows
    ]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def _format_trace_summary(trace: dict[str, Any]) -> str:
    bm25 = trace["bm25"]
    out = [
        f"mode: {trace['requestedMode']} -> {trace['effectiveMode']}"
        + (" (fell back to bm25)" if trace["fellBackToBM25"] else ""),
        f"query: {shown(trace['query']['expression']) or '(nothing searchable)'}",
    ]
    first_pass = bm25.get("firstPass")  # TRACE-17: the fanout's first-pass queries
    if first_pass is not None:
        out.append(f"first pass: {_plural(len(first_pass), 'query', 'queries')}")
        for p in first_pass:
            out.append(f"  {shown(p['expression']):<62} {_plural(p['hits'], 'hit')}")
    for a in bm25["attempts"]:
        what = f"{a['hits']} hits" if a["searched"] else f"skipped ({a['skip']})"
        if a["error"]:
            what = f"error: {shown(a['error']['message'])}"
        out.append(f"  rung {a['rung']:<20} {shown(a['expression']) or '-':<40} {what}")
    vector = trace["vector"]
    out.append(f"vector: {vector['hits']} hits" if vector["ran"] else "vector: off")
    graph = trace.get("graph")
    if graph is not None:
        out.append(f"graph: {graph['hits']} hits" if graph["ran"] else f"graph: {graph['skip']}")
    for i, variant in enumerate(trace.get("variants", [])):  # TRACE-16
        out.append(f"variant {i}: {shown(variant['query'])}: {variant['fusedHits']} fused")
    for name, member in sorted(trace.get("profiles", {}).items()):
        out.append(f"profile {name}: {shown(json.dumps(member, ensure_ascii=False))}")
    intent = trace["intent"]
    if intent["label"]:
        out.append(f"intent: {intent['label']}, {len(intent['adjusted'])} results reweighted")
    u = trace["unanimity"]
    if u["evaluated"]:
        out.append(f"unanimity: {_plural(u['agreements'], 'agreement')}, fired={u['fired']}")
    out.append(f"rerank: {trace['rerank']['outcome']}")
    return "\n".join(out)


def cmd_search(args: argparse.Namespace) -> int:
    """Search an existing index; bad input gets a one-line error and a non-zero exit."""
    from reference.backends.embedder import HashEmbedder
    from reference.backends.lexical_reranker import LexicalReranker
    from reference.backends.sqlite_fts import SqliteIndex
    from reference.backends.vector import vectors_of_index
    from reference.pipeline import Backends, search
    from reference.types import IndexError_, InvalidInput

    db: Path = args.db
    if not db.is_file():
        return _fail(
            "search", f"database not found: {db} (create it with `hrc index DIR --db {db}`)"
        )
    query: str = args.query
    if any("\ud800" <= ch <= "\udfff" for ch in query):
        # A byte that is not UTF-8 in argv arrives as a lone surrogate (surrogateescape).
        return _fail("search", "invalid_input: the query is not valid UTF-8")
    request = {
        "query": query,
        "mode": args.mode,
        "topK": args.top_k,
        "candidateK": args.candidate_k,
        "rerankTopN": args.rerank_top_n,
        "rerank": not args.no_rerank,
        "intentTable": args.intent_table,
        "bm25Fanout": args.fanout,
    }
    try:
        index = SqliteIndex(db)
    except IndexError_ as exc:
        return _fail("search", str(exc), 1)
    try:
        embedder = None if args.no_embedder else HashEmbedder()
        # BACKEND-25: the vectors `hrc index` stored; an older index is embedded here. A
        # bm25-mode search never reads them (MODE-4), so it does not load them.
        skip = embedder is None or args.mode == "bm25"
        vectors = None if skip or embedder is None else vectors_of_index(index, embedder)
        backends = Backends(index=index, embedder=embedder, vectors=vectors,
                            reranker=LexicalReranker())
        results, trace = search(request, backends)
    except InvalidInput as exc:
        return _fail("search", str(exc))
    except IndexError_ as exc:
        return _fail("search", str(exc), 1)
    finally:
        index.close()
    if args.json:
        print(json.dumps({"results": results, "trace": trace}, ensure_ascii=False, indent=2))
        return 0
    print(_format_table(results))
    if args.trace:  # the readable view; the whole trace as JSON is `--json`
        print()
        print(_format_trace_summary(trace))
    return 0
