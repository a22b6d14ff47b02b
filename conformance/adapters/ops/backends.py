"""Reference handlers of the backend operations (spec/operations.md; spec/backends.md).

Each operation exposes one pinned backend rule to a port, piece by piece: the FNV-1a hash and
the `hrc-hash-v1` embedder (BACKEND-20..24), file → document → chunk (BACKEND-12..17),
incremental (re)indexing (BACKEND-8..13, 18, 19, 26), the FTS5 index (BACKEND-1..7), the exact
vector order (BACKEND-25..31) and the `hrc-lexical-v1` reranker (BACKEND-33..35). Inputs are
validated here; a bad input raises InvalidInput (OP-2), a backend failure IndexError_.
"""

from __future__ import annotations

import base64
import binascii
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from conformance.adapters.ops import JSON, operation
from reference.types import (
    Candidate,
    InvalidInput,
    candidate_from_json,
    candidates_from_json,
    optional,
    present,
    whole_number,
)

DEFAULT_LIMIT = 60  # the pipeline's default candidateK (PIPE-4), the `limit` of BACKEND-5/29
MAX_VECTOR_LENGTH = 256  # explicit vectors: at most the dimension of hrc-hash-v1
MAX_COMPONENT = 1 << 16  # explicit components in [0, 2^16): dot² · |c|² < 2^120 fits 128 bits


# -- input helpers -----------------------------------------------------------------------------


def _string(inp: Mapping[str, Any], name: str, where: str = "") -> str:
    value: Any = inp.get(name)
    if not isinstance(value, str):
        raise InvalidInput(f"{where}{name} must be a string, got {type(value).__name__}")
    return value


def _utf8(text: str, what: str) -> bytes:
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise InvalidInput(f"{what} is not valid Unicode (lone surrogate)") from exc


def _list(inp: Mapping[str, Any], name: str, where: str = "") -> list[Any]:
    value: Any = inp.get(name)
    if not isinstance(value, list):
        raise InvalidInput(f"{where}{name} must be a list, got {type(value).__name__}")
    return value


def _object(value: Any, what: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise InvalidInput(f"{what} must be an object, got {type(value).__name__}")
    return value


def _limit(inp: Mapping[str, Any], where: str = "") -> int:
    """BACKEND-5, BACKEND-29, OP-4: a whole number >= 1 (2.0 counts as 2)."""
    return whole_number(optional(inp, "limit", DEFAULT_LIMIT), f"{where}limit")


def _file_bytes(obj: Mapping[str, Any], what: str) -> bytes:
    """A file's bytes: exactly one of `text` (encoded as UTF-8) and `base64`."""
    has_text, has_b64 = present(obj, "text"), present(obj, "base64")
    if has_text == has_b64:
        raise InvalidInput(f"{what} needs exactly one of text and base64")
    if has_text:
        return _utf8(_string(obj, "text", f"{what}."), f"{what}.text")
    raw = _string(obj, "base64", f"{what}.")
    try:
        return base64.b64decode(raw, validate=True)
    except (binascii.Error, ValueError) as exc:
        raise InvalidInput(f"{what}.base64 is not valid base64: {exc}") from exc


def _unique_ids(chunks: Sequence[Candidate], what: str) -> None:
    seen: set[str] = set()
    for c in chunks:
        if c.id in seen:
            raise InvalidInput(f"{what}: duplicate id {c.id!r}")
        seen.add(c.id)


def _candidates(inp: Mapping[str, Any], name: str, *, chunk: bool) -> list[Candidate]:
    out = candidates_from_json(_list(inp, name), name, chunk=chunk)
    _unique_ids(out, name)
    return out


def _hit_json(c: Candidate, score: float) -> JSON:
    return {**c.to_json(), "score": score}


def _chunk_json(c: Candidate) -> JSON:
    return {
        "id": c.id,
        "path": c.path,
        "title": c.title,
        "summary": c.summary,
        "content": c.content,
    }


# -- hrc-hash-v1 (BACKEND-20..24) ------------------------------------------------------------


@operation("fnv1a")
def op_fnv1a(inp: JSON) -> JSON:
    """BACKEND-22: 32-bit FNV-1a of the text's UTF-8 bytes, and its bucket (mod 256)."""
    from reference.backends.embedder import DIMENSION, fnv1a_32

    h = fnv1a_32(_utf8(_string(inp, "text"), "text"))
    return {"hash": h, "bucket": h % DIMENSION}


@operation("embed_features")
def op_embed_features(inp: JSON) -> JSON:
    """BACKEND-21: the features of a text, in order, with multiplicity."""
    from reference.backends.embedder import features

    text = _string(inp, "text")
    _utf8(text, "text")
    return {"features": features(text)}


@operation("embed")
def op_embed(inp: JSON) -> JSON:
    """BACKEND-20..23: the hrc-hash-v1 vector as its non-zero [bucket, count] pairs."""
    from reference.backends.embedder import HashEmbedder

    text = _string(inp, "text")
    _utf8(text, "text")
    embedder = HashEmbedder()
    counts = embedder.embed_counts(text)
    return {
        "dimension": embedder.dimension,
        "counts": [[b, n] for b, n in enumerate(counts) if n != 0],
    }


# -- files, documents, chunks (BACKEND-12..19) -------------------------------------------------


@operation("chunk_document")
def op_chunk_document(inp: JSON) -> JSON:
    """BACKEND-13..18: decode, split, title, summary, pack and hash one file."""
    from reference.backends.indexer import parse_document

    path = _string(inp, "path")
    if path == "":
        raise InvalidInput("path must not be empty")
    _utf8(path, "path")
    doc = parse_document(path, _file_bytes(inp, "input"))
    return {
        "title": doc.title,
        "summary": doc.summary,
        "hash": doc.content_hash,
        "chunks": [{"id": c.id, "content": c.content} for c in doc.chunks],
    }


def _check_relative_path(path: str, what: str) -> None:
    if path == "":
        raise InvalidInput(f"{what}: path must not be empty")
    _utf8(path, f"{what}: path")
    if "\\" in path or "\x00" in path:
        raise InvalidInput(f"{what}: path must not contain a backslash or NUL")
    for part in path.split("/"):
        if part in ("", ".", ".."):
            raise InvalidInput(
                f"{what}: path {path!r} must be relative, with no empty, '.' or '..' segment"
            )


def _batch(raw: Any, what: str) -> dict[str, bytes]:
    if not isinstance(raw, list):
        raise InvalidInput(f"{what} must be a list of files")
    files: dict[str, bytes] = {}
    for i, item in enumerate(raw):
        at = f"{what}[{i}]"
        obj = _object(item, at)
        path = _string(obj, "path", f"{at}.")
        _check_relative_path(path, at)
        if path in files:
            raise InvalidInput(f"{at}: duplicate path {path!r}")
        files[path] = _file_bytes(obj, at)
    for path in files:
        parts = path.split("/")
        for n in range(1, len(parts)):
            if "/".join(parts[:n]) in files:
                raise InvalidInput(f"{what}: {'/'.join(parts[:n])!r} is both a file and a folder")
    return files


def _first_undecodable(root: Path) -> str | None:
    """BACKEND-13: the first file, in processing order (BACKEND-12), that fails to decode."""
    from reference.backends.indexer import list_files

    for rel, full in list_files(root):
        try:
            full.read_bytes().decode("utf-8")
        except (OSError, UnicodeDecodeError):
            return rel
    return None


def _searches(inp: JSON, name: str) -> list[tuple[str, int]]:
    out: list[tuple[str, int]] = []
    for i, item in enumerate(_list(inp, name) if present(inp, name) else []):
        at = f"{name}[{i}]."
        obj = _object(item, f"{name}[{i}]")
        key = "expression" if name == "searches" else "query"
        text = _string(obj, key, at)
        _utf8(text, f"{at}{key}")
        out.append((text, _limit(obj, at)))
    return out


@operation("index_documents")
def op_index_documents(inp: JSON) -> JSON:
    """BACKEND-8..13, 18, 19, 26: incremental runs over successive file sets, then searches.

    Each batch is the complete set of files under the root for one run. The files are written
    to a temporary folder and indexed by the reference indexer into one index and one vector
    store that persist across the batches.
    """
    from reference.backends.embedder import HashEmbedder
    from reference.backends.indexer import IndexingError, index_directory
    from reference.backends.sqlite_fts import SqliteIndex
    from reference.backends.vector import MemoryVectorStore

    batches = [_batch(raw, f"batches[{i}]") for i, raw in enumerate(_list(inp, "batches"))]
    searches = _searches(inp, "searches")
    vector_searches = _searches(inp, "vectorSearches")
    runs: list[JSON] = []
    with SqliteIndex(":memory:") as index, tempfile.TemporaryDirectory() as tmp:
        vectors = MemoryVectorStore(HashEmbedder())
        for n, files in enumerate(batches):
            root = Path(tmp) / f"run{n}"
            root.mkdir()
            for rel, data in files.items():
                target = root.joinpath(*rel.split("/"))
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(data)
            try:
                report = index_directory(root, index, vectors)
            except IndexingError:
                runs.append(
                    {
                        "committed": False,
                        "failedPath": _first_undecodable(root),
                        "added": [],
                        "updated": [],
                        "unchanged": [],
                        "removed": [],
                    }
                )
                continue
            runs.append(
                {
                    "committed": True,
                    "failedPath": None,
                    "added": report.added,
                    "updated": report.updated,
                    "unchanged": report.unchanged,
                    "removed": report.removed,
                }
            )
        chunks = [_chunk_json(c) for c in index.chunks()]
        bm25_out = [
            {"hits": [_hit_json(h.candidate, h.score) for h in index.search_bm25_scored(e, k)]}
            for e, k in searches
        ]
        vector_out: list[JSON] = []
        if vector_searches:
            embedder = HashEmbedder()
            for query, k in vector_searches:
                hits = vectors.search_scored(embedder.embed_counts(query), k)
                vector_out.append({"hits": [_vector_hit_json(h) for h in hits]})
    return {"runs": runs, "chunks": chunks, "searches": bm25_out, "vectorSearches": vector_out}


# -- the FTS5 index (BACKEND-1..7) -------------------------------------------------------------


@operation("fts_search")
def op_fts_search(inp: JSON) -> JSON:
    """BACKEND-1..7: index the chunks as rows of the pinned table, answer the pinned query."""
    from reference.backends.sqlite_fts import SqliteIndex

    chunks = _candidates(inp, "chunks", chunk=True)
    expression = _string(inp, "expression")
    _utf8(expression, "expression")
    limit = _limit(inp)
    by_path: dict[str, list[Candidate]] = {}
    for c in chunks:
        _utf8(c.id + c.path + c.title + c.summary + c.content, f"chunk {c.id!r}")
        by_path.setdefault(c.path, []).append(c)
    with SqliteIndex(":memory:") as index:
        with index.transaction():
            for path, group in by_path.items():
                index.upsert_document(path, group)
        hits = index.search_bm25_scored(expression, limit)
    return {"hits": [_hit_json(h.candidate, h.score) for h in hits]}


# -- the exact vector store (BACKEND-25..31) ---------------------------------------------------


def _int_vector(value: Any, what: str) -> list[int]:
    if not isinstance(value, list) or not 1 <= len(value) <= MAX_VECTOR_LENGTH:
        raise InvalidInput(f"{what} must be a list of 1 to {MAX_VECTOR_LENGTH} integers")
    out = [whole_number(x, f"{what} component", minimum=0) for x in value]
    if any(x >= MAX_COMPONENT for x in out):
        raise InvalidInput(f"{what}: components must be integers in [0, 2^16)")
    return out


def _vector_hit_json(hit: Any) -> JSON:
    return {
        "id": hit.candidate.id,
        "path": hit.candidate.path,
        "dot": hit.dot,
        "similarity": hit.similarity,
    }


@operation("vector_search")
def op_vector_search(inp: JSON) -> JSON:
    """BACKEND-24..31: exact-integer cosine order over hrc-hash-v1 (or given) vectors."""
    from reference.backends.embedder import HashEmbedder
    from reference.backends.vector import MemoryVectorStore

    embedder = HashEmbedder()
    if present(inp, "query") == present(inp, "queryVector"):
        raise InvalidInput("vector_search needs exactly one of query and queryVector")
    if present(inp, "query"):
        query = _string(inp, "query")
        _utf8(query, "query")
        q = embedder.embed_counts(query)
    else:
        q = _int_vector(inp.get("queryVector"), "queryVector")
    limit = _limit(inp)
    rows: list[tuple[Candidate, list[int]]] = []
    seen: set[str] = set()
    for i, item in enumerate(_list(inp, "chunks")):
        at = f"chunks[{i}]"
        obj = _object(item, at)
        try:
            cand = candidate_from_json(obj)
        except InvalidInput as exc:
            raise InvalidInput(f"{at}: {exc}") from exc
        if cand.id in seen:
            raise InvalidInput(f"chunks: duplicate id {cand.id!r}")
        seen.add(cand.id)
        if present(obj, "vector") and present(obj, "content"):
            raise InvalidInput(f"{at} needs exactly one of content and vector")
        if present(obj, "vector"):
            vec = _int_vector(obj["vector"], f"{at}.vector")
        elif isinstance(obj.get("content"), str):
            _utf8(cand.content, f"{at}.content")
            vec = embedder.embed_counts(cand.content)
        else:
            raise InvalidInput(f"{at} needs exactly one of content and vector")
        if len(vec) != len(q):
            raise InvalidInput(
                f"{at}: vector has {len(vec)} components, the query vector {len(q)}"
            )
        rows.append((cand, vec))
    store = MemoryVectorStore(embedder, exact=True)
    for cand, vec in rows:
        store.add(cand, vec)
    return {"hits": [_vector_hit_json(h) for h in store.search_scored(q, limit)]}


# -- hrc-lexical-v1 (BACKEND-33..35) -----------------------------------------------------------


@operation("lexical_rerank")
def op_lexical_rerank(inp: JSON) -> JSON:
    """BACKEND-33..35: one {id, score} per head item, in head order."""
    from reference.backends.lexical_reranker import LexicalReranker

    query = _string(inp, "query")
    _utf8(query, "query")
    head = _candidates(inp, "head", chunk=False)
    entries = LexicalReranker().rerank(query, head)
    return {"results": [{"id": e.id, "score": e.score} for e in entries]}
