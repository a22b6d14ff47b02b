"""TREC files for `hrc eval`: qrels (`qid 0 docid rel`), runs (`qid Q0 docid rank score tag`)
and the kit's query list (`qid<TAB>text`). Malformed lines are `file:line: message`.

Judgements and runs are the inputs of spec/metrics.md (METRIC-1); a run read from a file is
ordered by its rank column, which trec_eval ignores in favour of the score (see the chapter);
`order="trec_eval"` reads it in trec_eval's order instead.

What a line is, exactly (issue 29): the file is a regular file of at most MAX_FILE_BYTES of
strict UTF-8; a line ends at LF (a CR before it is dropped); blank lines and lines whose
first non-blank character is `#` are skipped. Fields are separated by runs of spaces and tabs;
no other whitespace or control character may appear in a line. An integer (relevance, rank)
is an optional `-` and ASCII digits, at most 2^31 - 1 in size; a score is a finite decimal
number (`-1.5`, `2e-3`; not NaN, not infinite, not beyond binary64 such as `1e400`).
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Mapping, Sequence
from pathlib import Path

from conformance.common import input_files
from reference.types import MAX_INTEGER


class EvalFileError(ValueError):
    """A malformed input file; str() is `file:line: message` (exit status 2)."""

    def __init__(self, path: Path | str, line: int | None, message: str) -> None:
        super().__init__(f"{path}:{line}: {message}" if line is not None else f"{path}: {message}")


#: The largest TREC or query file read (a run of 7 million lines fits).
MAX_FILE_BYTES = 512 * 1024 * 1024
_SEPARATORS = re.compile(r"[ \t]+")
_INTEGER = re.compile(r"-?[0-9]+")
_NUMBER = re.compile(r"-?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")


def read_lines(path: Path, free_text: bool = False) -> list[tuple[int, str]]:
    """Numbered lines of a bounded regular UTF-8 file, without blank lines and `#` comments.
    A control character other than tab is an error; so is whitespace other than spaces and
    tabs, unless `free_text` (the query list, whose text is the query as written)."""
    try:
        text = input_files.read_text(path, MAX_FILE_BYTES)
    except input_files.InputFileError as exc:
        raise EvalFileError(path, exc.line, exc.message) from None
    out = []
    for n, line in enumerate(input_files.split_lines(text), 1):
        for ch in line:
            if ch == "\t" or ch == " ":
                continue
            if unicodedata.category(ch) == "Cc" or (ch.isspace() and not free_text):
                raise EvalFileError(
                    path, n, f"character U+{ord(ch):04X} in a line (fields are separated by "
                    "spaces and tabs only)"
                )
        if line.strip(" \t") and not line.lstrip(" \t").startswith("#"):
            out.append((n, line))
    return out


def fields(line: str) -> list[str]:
    """The fields of a TREC line: separated by runs of spaces and tabs."""
    return _SEPARATORS.split(line.strip(" \t"))


def _int(path: Path, n: int, text: str, what: str) -> int:
    if not _INTEGER.fullmatch(text):
        raise EvalFileError(
            path, n, f"{what} must be an integer (ASCII digits, optional -), got {text!r}"
        )
    if len(text.lstrip("-")) > 10 or abs(int(text)) > MAX_INTEGER:
        raise EvalFileError(path, n, f"{what} {text} is out of range (|{what}| <= 2^31 - 1)")
    return int(text)


def _score(path: Path, n: int, text: str) -> float:
    value = float(text) if _NUMBER.fullmatch(text) else math.nan
    if not math.isfinite(value):
        raise EvalFileError(
            path, n, f"score must be a number (finite, in decimal form), got {text!r}"
        )
    return value


def read_qrels(path: Path) -> dict[str, dict[str, int]]:
    """`qid iter docid rel` per line (iter is ignored, as trec_eval does); a repeated
    (qid, docid) pair is an error rather than a silent overwrite."""
    out: dict[str, dict[str, int]] = {}
    for n, line in read_lines(path):
        parts = fields(line)
        if len(parts) != 4:
            raise EvalFileError(path, n, f"expected 4 fields `qid 0 docid rel`, got {len(parts)}")
        qid, _, doc, rel = parts
        judged = out.setdefault(qid, {})
        if doc in judged:
            raise EvalFileError(path, n, f"document {doc!r} judged twice for query {qid!r}")
        judged[doc] = _int(path, n, rel, "relevance")
    return out


#: `--order`: the rank column (METRIC-3, the default) or trec_eval's re-sort by score.
ORDERS = ("rank", "trec_eval")


def trec_eval_order(entries: Sequence[tuple[str, float]]) -> list[str]:
    """trec_eval's order of one query's (docid, score) entries: score descending, ties by
    docid descending (byte order of the UTF-8 text, as its strcmp); the rank column is not
    used."""
    by_doc = sorted(entries, key=lambda e: e[0].encode("utf-8"), reverse=True)
    return [doc for doc, _ in sorted(by_doc, key=lambda e: e[1], reverse=True)]  # stable


def read_run(path: Path, order: str = "rank") -> dict[str, list[str]]:
    """`qid Q0 docid rank score tag` per line; each query's documents ordered by rank (unique
    per query), or with `order="trec_eval"` as trec_eval orders them (`trec_eval_order`).
    Repeated documents are kept: METRIC-3 counts the first."""
    ranked: dict[str, dict[int, tuple[str, float]]] = {}
    for n, line in read_lines(path):
        parts = fields(line)
        if len(parts) != 6:
            raise EvalFileError(
                path, n, f"expected 6 fields `qid Q0 docid rank score tag`, got {len(parts)}"
            )
        qid, _, doc, rank_text, score, _ = parts
        rank = _int(path, n, rank_text, "rank")
        value = _score(path, n, score)
        ranks = ranked.setdefault(qid, {})
        if rank in ranks:
            raise EvalFileError(path, n, f"rank {rank} used twice for query {qid!r}")
        ranks[rank] = (doc, value)
    if order == "trec_eval":
        return {q: trec_eval_order([r[i] for i in sorted(r)]) for q, r in ranked.items()}
    return {q: [r[i][0] for i in sorted(r)] for q, r in ranked.items()}


def read_queries(path: Path) -> dict[str, str]:
    """`qid<TAB>query text` per line; ids are unique and the text is not empty."""
    out: dict[str, str] = {}
    for n, line in read_lines(path, free_text=True):
        qid, tab, text = line.partition("\t")
        if not tab or not qid.strip() or not text.strip():
            raise EvalFileError(path, n, "expected `qid<TAB>query text`")
        if qid in out:
            raise EvalFileError(path, n, f"query id {qid!r} given twice")
        out[qid] = text.strip()
    return out


def format_run(run: Mapping[str, Sequence[str]], tag: str) -> str:
    """A TREC run: ranks from 1 and a strictly decreasing score (n + 1 - rank), so that
    trec_eval, which sorts by score, reads the same order (spec/metrics.md)."""
    lines = []
    for qid in sorted(run):
        docs = run[qid]
        for rank, doc in enumerate(docs, 1):
            lines.append(f"{qid} Q0 {doc} {rank} {len(docs) + 1 - rank} {tag}")
    return "".join(line + "\n" for line in lines)


