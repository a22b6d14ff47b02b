"""`hrc index` and `hrc search`: the reference pipeline on a real SQLite FTS5 index.

I/O lives here; the pipeline and backends do the work (spec/pipeline.md, spec/backends.md).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from reference.intent_table import DEFAULT_TABLE, TABLES
from reference.modes import MODES


def register(subparsers: Any) -> None:
    """Add the `index` and `search` sub-commands to the hrc parser."""
    p = subparsers.add_parser("index", help="index a folder of Markdown/text files into SQLite")
    p.add_argument("directory", type=Path, help="folder to index (*.md and *.txt, recursively)")
    p.add_argument("--db", required=True, type=Path, help="SQLite database to create or update")
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
    s.add_argument("--trace", action="store_true", help="also print the full trace")
    s.add_argument("--json", action="store_true", help="print {results, trace} as JSON")
    s.set_defaults(func=cmd_search)


def _fail(message: str, status: int = 2) -> int:
    print(f"hrc: error: {message}", file=sys.stderr)
    return status


def cmd_index(args: argparse.Namespace) -> int:
    """Index a folder; incremental, and nothing half-written when a file cannot be read."""
    from reference.backends.indexer import IndexingError, index_directory
    from reference.backends.sqlite_fts import SqliteIndex
    from reference.types import IndexError_

    root: Path = args.directory
    if not root.is_dir():
        return _fail(f"not a directory: {root}")
    db: Path = args.db
    if db.parent and not db.parent.exists():
        return _fail(f"folder of the database does not exist: {db.parent}")
    existed = db.exists()
    try:
        index = SqliteIndex(db)
    except IndexError_ as exc:
        return _fail(str(exc), 1)
    try:
        report = index_directory(root, index)
    except (IndexingError, IndexError_) as exc:
        index.close()
        if not existed and db.exists():
            os.unlink(db)  # nothing half-written: a failed first run leaves no database
        return _fail(str(exc), 1)
    counts = report.counts()
    index.close()
    summary = ", ".join(f"{v} {k}" for k, v in counts.items())
    print(f"indexed {root} into {db}: {summary}")
    return 0


def _format_table(results: list[dict[str, Any]]) -> str:
    if not results:
        return "no results"
    rows = [("#", "score", "rerank", "path", "title")]
    for i, r in enumerate(results, 1):
        rerank = "" if r["rerankScore"] is None else f"{r['rerankScore']:.4f}"
        rows.append((str(i), f"{r['score']:.6f}", rerank, r["path"], r["title"]))
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
        f"query: {trace['query']['expression'] or '(nothing searchable)'}",
    ]
    for a in bm25["attempts"]:
        what = f"{a['hits']} hits" if a["searched"] else f"skipped ({a['skip']})"
        if a["error"]:
            what = f"error: {a['error']['message']}"
        out.append(f"  rung {a['rung']:<20} {a['expression'] or '-':<40} {what}")
    vector = trace["vector"]
    out.append(f"vector: {vector['hits']} hits" if vector["ran"] else "vector: off")
    intent = trace["intent"]
    if intent["label"]:
        out.append(f"intent: {intent['label']}, {len(intent['adjusted'])} results reweighted")
    u = trace["unanimity"]
    if u["evaluated"]:
        out.append(f"unanimity: {u['agreements']} agreements, fired={u['fired']}")
    out.append(f"rerank: {trace['rerank']['outcome']}")
    return "\n".join(out)


def cmd_search(args: argparse.Namespace) -> int:
    """Search an existing index; bad input gets a one-line error and a non-zero exit."""
    from reference.backends.embedder import HashEmbedder
    from reference.backends.lexical_reranker import LexicalReranker
    from reference.backends.sqlite_fts import SqliteIndex
    from reference.backends.vector import MemoryVectorStore
    from reference.pipeline import Backends, search
    from reference.types import IndexError_, InvalidInput

    db: Path = args.db
    if not db.is_file():
        return _fail(f"database not found: {db} (create it with `hrc index DIR --db {db}`)")
    request = {
        "query": args.query,
        "mode": args.mode,
        "topK": args.top_k,
        "candidateK": args.candidate_k,
        "rerankTopN": args.rerank_top_n,
        "rerank": not args.no_rerank,
        "intentTable": args.intent_table,
    }
    try:
        index = SqliteIndex(db)
    except IndexError_ as exc:
        return _fail(str(exc), 1)
    try:
        embedder = None if args.no_embedder else HashEmbedder()
        vectors = (
            None if embedder is None else MemoryVectorStore.from_chunks(index.chunks(), embedder)
        )
        backends = Backends(index=index, embedder=embedder, vectors=vectors,
                            reranker=LexicalReranker())
        results, trace = search(request, backends)
    except InvalidInput as exc:
        return _fail(str(exc))
    except IndexError_ as exc:
        return _fail(str(exc), 1)
    finally:
        index.close()
    if args.json:
        print(json.dumps({"results": results, "trace": trace}, ensure_ascii=False, indent=2))
        return 0
    print(_format_table(results))
    if args.trace:
        print()
        print(_format_trace_summary(trace))
        print()
        print(json.dumps(trace, ensure_ascii=False, indent=2))
    return 0
