"""Directory indexer: files → documents → chunks (spec/backends.md BACKEND-12..19).

Reading and chunking happen before any write, and all writes share one transaction, so an
unreadable file leaves the index untouched (BACKEND-13, BACKEND-19). Re-indexing skips
documents whose content hash is unchanged (BACKEND-18).
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from reference.backends.embedder import HashEmbedder
from reference.backends.lexical_reranker import LexicalReranker
from reference.backends.sqlite_fts import SqliteIndex
from reference.backends.vector import MemoryVectorStore
from reference.data import kit_root
from reference.profiles.gbrain.edges_table import EdgesTable
from reference.text import WHITESPACE, normalise
from reference.types import Candidate, IndexError_

SUFFIXES = (".md", ".txt")
CHUNK_MAX = 1000  # BACKEND-16: code points per chunk, unless one block alone is longer
SUMMARY_MAX = 200  # BACKEND-15: code points of the summary
MAX_FILE_BYTES = 16 * 1024 * 1024  # BACKEND-12: a larger file is skipped with a warning
BLOCK_SEPARATOR = "\n\n"
_HEADING = re.compile(r"#{1,6}[ \t]")


class IndexingError(IndexError_):
    """A file could not be read or decoded; the message names the file (BACKEND-13)."""


@dataclass(frozen=True)
class Block:
    """A normalised paragraph or heading line of a document (BACKEND-14)."""

    text: str
    heading: bool


@dataclass(frozen=True)
class Document:
    """A parsed file: relative path, content hash, title, summary and chunks."""

    path: str
    content_hash: str
    title: str
    summary: str
    chunks: tuple[Candidate, ...]
    #: the decoded text, for the gbrain profile's link extraction (its edges table)
    text: str = ""


@dataclass
class IndexReport:
    """What a (re)indexing run did, each list sorted by path (TEXT-9)."""

    added: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    chunks_written: int = 0
    #: one line per file not indexed and why (BACKEND-12), in listing order.
    skipped: list[str] = field(default_factory=list)

    def counts(self) -> dict[str, int]:
        """The four document counts, for printing and tests."""
        return {
            "added": len(self.added),
            "updated": len(self.updated),
            "unchanged": len(self.unchanged),
            "removed": len(self.removed),
        }


def _is_blank(line: str) -> bool:
    return all(ch in WHITESPACE for ch in line)


def is_heading(line: str) -> bool:
    """BACKEND-14: a line starting with 1–6 `#` and then a space or a tab."""
    return _HEADING.match(line) is not None


def heading_text(line: str) -> str:
    """The normalised text of a heading line, without its leading `#` run."""
    return normalise(line.lstrip("#"))


def split_blocks(text: str) -> list[Block]:
    """BACKEND-14: blank lines end a block; a heading line is a block by itself."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    blocks: list[Block] = []
    current: list[str] = []

    def flush() -> None:
        if current:
            joined = normalise("\n".join(current))
            if joined:
                blocks.append(Block(joined, heading=False))
            current.clear()

    for line in text.split("\n"):
        if _is_blank(line):
            flush()
        elif is_heading(line):
            flush()
            joined = normalise(line)
            blocks.append(Block(joined, heading=True))
        else:
            current.append(line)
    flush()
    return blocks


def title_of(blocks: Sequence[Block], path: str) -> str:
    """BACKEND-15: text of the first heading with non-empty text, else the file stem."""
    for block in blocks:
        if block.heading:
            title = heading_text(block.text)
            if title:
                return title
    name = path.rsplit("/", 1)[-1]
    return name.rsplit(".", 1)[0]


def summary_of(blocks: Sequence[Block]) -> str:
    """BACKEND-15: the first non-heading block cut to 200 code points, minus a final space."""
    for block in blocks:
        if not block.heading:
            cut = block.text[:SUMMARY_MAX]
            return cut[:-1] if cut.endswith(" ") else cut
    return ""


def chunk_texts(blocks: Sequence[Block]) -> list[str]:
    """BACKEND-16: greedy packing of whole blocks, joined by a blank line, up to CHUNK_MAX."""
    chunks: list[str] = []
    current = ""
    for block in blocks:
        if not current:
            current = block.text
        elif len(current) + len(BLOCK_SEPARATOR) + len(block.text) <= CHUNK_MAX:
            current = current + BLOCK_SEPARATOR + block.text
        else:
            chunks.append(current)
            current = block.text
    if current:
        chunks.append(current)
    return chunks


def content_hash(data: bytes) -> str:
    """BACKEND-18: lowercase hex SHA-256 of the file's bytes."""
    return hashlib.sha256(data).hexdigest()


def parse_document(path: str, data: bytes) -> Document:
    """BACKEND-13..17: decode (strict UTF-8, one leading BOM dropped) and chunk one file."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise IndexingError(f"{path}: not valid UTF-8 ({exc.reason} at byte {exc.start})") from exc
    if text.startswith("\ufeff"):
        text = text[1:]
    blocks = split_blocks(text)
    title = title_of(blocks, path)
    summary = summary_of(blocks)
    chunks = tuple(
        Candidate(id=f"{path}#{i}", path=path, title=title, summary=summary, content=body)
        for i, body in enumerate(chunk_texts(blocks))
    )
    return Document(path, content_hash(data), title, summary, chunks, text)


def list_files(root: Path, skipped: list[str] | None = None) -> list[tuple[str, Path]]:
    """BACKEND-12: (relative `/` path, file) for every *.md and *.txt that is a
    regular file inside the root, sorted by code point.

    Names starting with `.` are skipped; symbolic links to directories are not followed. A
    symbolic link is kept only when it resolves to a regular file inside the root; it, and
    anything that is not a regular file (FIFO, device, socket), is otherwise skipped and a
    one-line reason is appended to `skipped`. A name that is not valid UTF-8 fails the run.
    """
    if not root.is_dir():
        raise IndexingError(f"{root}: not a directory")
    inside = os.path.realpath(root)
    found: list[tuple[str, Path]] = []
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        dirnames[:] = [d for d in dirnames if not d.startswith(".")]
        for name in filenames:
            if name.startswith(".") or not name.endswith(SUFFIXES):
                continue
            full = Path(dirpath) / name
            rel = full.relative_to(root).as_posix()
            try:
                rel.encode("utf-8")
            except UnicodeEncodeError:
                shown = rel.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
                raise IndexingError(f"{shown}: file name is not valid UTF-8") from None
            reason = _not_indexable(full, inside)
            if reason is not None:
                if skipped is not None:
                    skipped.append(f"{rel}: skipped, {reason}")
                continue
            found.append((rel, full))
    found.sort(key=lambda item: item[0].encode("utf-8"))
    return found


def _not_indexable(full: Path, inside: str) -> str | None:
    """Why `full` is not read (BACKEND-12), or None for a regular file inside the root."""
    try:
        info = os.lstat(full)
        if stat.S_ISLNK(info.st_mode):
            target = os.path.realpath(full)
            if os.path.commonpath([inside, target]) != inside:
                return "a symbolic link that leaves the folder"
            info = os.stat(target)
    except (OSError, ValueError):
        return None  # reading it fails and names the file (BACKEND-13)
    if not stat.S_ISREG(info.st_mode):
        return "not a regular file"
    if info.st_size > MAX_FILE_BYTES:
        return f"larger than {MAX_FILE_BYTES} bytes"
    return None


def read_bounded(full: Path, rel: str) -> bytes | None:
    """The bytes of a regular file, or None when it is not one or grew past MAX_FILE_BYTES
    since it was listed (opened without blocking and checked again on the open handle)."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(os.path.realpath(full), flags)
    except OSError as exc:
        raise IndexingError(f"{rel}: cannot read ({exc.strerror or exc})") from exc
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        chunks: list[bytes] = []
        size = 0
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                return b"".join(chunks)
            size += len(chunk)
            if size > MAX_FILE_BYTES:
                return None
            chunks.append(chunk)
    except OSError as exc:
        raise IndexingError(f"{rel}: cannot read ({exc.strerror or exc})") from exc
    finally:
        os.close(fd)


def read_documents(
    root: Path, skipped: list[str] | None = None, skip_undecodable: bool = False
) -> list[Document]:
    """Read and parse every file under root; any unreadable file raises IndexingError, and so
    does a file that is not UTF-8 unless `skip_undecodable` (BACKEND-13: `hrc index` skips it
    with a warning, when `skipped` collects the warnings)."""
    docs: list[Document] = []
    for rel, full in list_files(root, skipped):
        data = read_bounded(full, rel)
        if data is None:
            if skipped is not None:
                skipped.append(f"{rel}: skipped, changed while indexing (BACKEND-12)")
            continue
        try:
            docs.append(parse_document(rel, data))
        except IndexingError as exc:
            if not (skip_undecodable and skipped is not None):
                raise
            skipped.append(f"{exc} (BACKEND-13): skipped")
    return docs


def index_directory(
    root: Path,
    index: SqliteIndex,
    vectors: MemoryVectorStore | None = None,
    skip_undecodable: bool = False,
) -> IndexReport:
    """Index root into `index` (and `vectors`, if given) incrementally (BACKEND-12..19).

    Every file is read first; the writes then run in one transaction. The vector store is
    updated only after the index has committed.
    """
    report = IndexReport()
    docs = read_documents(Path(root), report.skipped, skip_undecodable)
    known = index.document_hashes()
    changed: list[Document] = []
    with index.transaction():
        links = EdgesTable(index.connection())  # profile gbrain: edges beside the chunks
        for doc in docs:
            old = known.get(doc.path)
            if old is None or old != doc.content_hash or links.created:
                links.write(doc.path, doc.text)
            if old == doc.content_hash:
                report.unchanged.append(doc.path)
                continue
            (report.added if old is None else report.updated).append(doc.path)
            index.upsert_document(doc.path, doc.chunks, doc.content_hash)
            report.chunks_written += len(doc.chunks)
            changed.append(doc)
        present = {doc.path for doc in docs}
        for path in sorted(known, key=lambda p: p.encode("utf-8")):
            if path not in present:
                index.remove_document(path)
                links.remove(path)
                report.removed.append(path)
    if vectors is not None:
        for doc in changed:
            vectors.upsert_document(doc.path, doc.chunks)
        vectors.remove_documents(report.removed)
    return report


def corpus_dir(name: str) -> Path:
    """Directory of a corpus shipped with the kit (`corpus/<name>`, e.g. `demo`)."""
    if not name or "/" in name or name.startswith("."):
        raise IndexingError(f"bad corpus name {name!r}")
    path = kit_root() / "corpus" / name
    if not path.is_dir():
        raise IndexingError(f"corpus {name!r} not found at {path}")
    return path


@dataclass
class CorpusBackends:
    """The real backends of `search_corpus` over a shipped corpus (BACKEND-41)."""

    index: SqliteIndex
    embedder: HashEmbedder
    vectors: MemoryVectorStore
    reranker: LexicalReranker
    report: IndexReport


def open_corpus(name: str) -> CorpusBackends:
    """BACKEND-41: a fresh in-memory index, hash-embedder vectors and hrc-lexical-v1."""
    index = SqliteIndex(":memory:")
    embedder = HashEmbedder()
    vectors = MemoryVectorStore(embedder)
    report = index_directory(corpus_dir(name), index, vectors)
    return CorpusBackends(index, embedder, vectors, LexicalReranker(), report)
