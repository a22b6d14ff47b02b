"""Broken ports of the indexer's files, documents and chunks (spec/backends.md BACKEND-12..19)."""

from __future__ import annotations

from typing import Any

from conformance.selftest.broken_ports.patching import _mod, mutant, set_attr, swap


@mutant(
    "chunk-lone-cr-kept",
    "BACKEND-14",
    "only `\\r\\n` becomes `\\n`: a lone `\\r` (old Mac line end) does not end a line",
    seams=("reference.backends.indexer.split_blocks",),
)
def _chunk_lone_cr() -> None:
    indexer = _mod("reference.backends.indexer")
    original = indexer.split_blocks

    def split_blocks(text: str) -> Any:
        return original(text.replace("\r\n", "\n").replace("\r", "\u000b"))

    swap(indexer, "split_blocks", split_blocks)


@mutant(
    "chunk-title-first-dot-stem",
    "BACKEND-15",
    "the fallback title cuts the file name at its first `.` (`notes.v2.md` gives `notes`)",
    seams=("reference.backends.indexer.title_of",),
)
def _chunk_title_first_dot() -> None:
    indexer = _mod("reference.backends.indexer")

    def title_of(blocks: Any, path: str) -> str:
        for block in blocks:
            if block.heading:
                title: str = indexer.heading_text(block.text)
                if title:
                    return title
        return path.rsplit("/", 1)[-1].split(".", 1)[0]

    swap(indexer, "title_of", title_of)


@mutant(
    "chunk-summary-keeps-final-space",
    "BACKEND-15",
    "the summary is cut to 200 code points but a final space left by the cut is kept",
    seams=("reference.backends.indexer.summary_of",),
)
def _chunk_summary_space() -> None:
    indexer = _mod("reference.backends.indexer")

    def summary_of(blocks: Any) -> str:
        for block in blocks:
            if not block.heading:
                cut: str = block.text[: indexer.SUMMARY_MAX]
                return cut
        return ""

    swap(indexer, "summary_of", summary_of)


@mutant(
    "chunk-limit-exclusive",
    "BACKEND-16",
    "a block joins the chunk only while the result stays under 1000 code points (`<`, not `<=`)",
    seams=("reference.backends.indexer.CHUNK_MAX",),
)
def _chunk_limit_exclusive() -> None:
    set_attr(_mod("reference.backends.indexer"), "CHUNK_MAX", 999)


@mutant(
    "chunk-separator-not-counted",
    "BACKEND-16",
    "the packing test adds the block's length but not the `\\n\\n` separator's",
    seams=("reference.backends.indexer.chunk_texts",),
)
def _chunk_separator_not_counted() -> None:
    indexer = _mod("reference.backends.indexer")

    def chunk_texts(blocks: Any) -> list[str]:
        chunks: list[str] = []
        current = ""
        for block in blocks:
            if not current:
                current = block.text
            elif len(current) + len(block.text) <= indexer.CHUNK_MAX:
                current = current + indexer.BLOCK_SEPARATOR + block.text
            else:
                chunks.append(current)
                current = block.text
        if current:
            chunks.append(current)
        return chunks

    swap(indexer, "chunk_texts", chunk_texts)


@mutant(
    "chunk-ids-from-one",
    "BACKEND-17",
    "chunk ids count from 1 (`notes.md#1` for the first chunk)",
    seams=("reference.backends.indexer.parse_document",),
)
def _chunk_ids_from_one() -> None:
    indexer = _mod("reference.backends.indexer")
    original = indexer.parse_document

    def parse_document(path: str, data: bytes) -> Any:
        doc = original(path, data)
        chunks = tuple(
            type(c)(
                id=f"{path}#{i + 1}", path=c.path, title=c.title, summary=c.summary,
                content=c.content,
            )
            for i, c in enumerate(doc.chunks)
        )
        return type(doc)(doc.path, doc.content_hash, doc.title, doc.summary, chunks, doc.text)

    swap(indexer, "parse_document", parse_document)


@mutant(
    "chunk-bom-kept",
    "BACKEND-13",
    "the leading U+FEFF is decoded but not dropped, so it sticks to the first line",
    seams=("reference.backends.indexer.parse_document",),
)
def _chunk_bom_kept() -> None:
    indexer = _mod("reference.backends.indexer")
    original = indexer.split_blocks

    def parse_document(path: str, data: bytes) -> Any:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            reason = f"{exc.reason} at byte {exc.start}"
            raise indexer.IndexingError(f"{path}: not valid UTF-8 ({reason})") from exc
        blocks = original(text)
        title = indexer.title_of(blocks, path)
        summary = indexer.summary_of(blocks)
        chunks = tuple(
            indexer.Candidate(id=f"{path}#{i}", path=path, title=title, summary=summary,
                              content=body)
            for i, body in enumerate(indexer.chunk_texts(blocks))
        )
        return indexer.Document(path, indexer.content_hash(data), title, summary, chunks, text)

    swap(indexer, "parse_document", parse_document)


@mutant(
    "chunk-hash-of-text",
    "BACKEND-18",
    "the content hash is taken of the decoded text (BOM dropped, CRLF as LF), not of the bytes",
    seams=("reference.backends.indexer.parse_document",),
)
def _chunk_hash_of_text() -> None:
    indexer = _mod("reference.backends.indexer")
    original = indexer.parse_document

    def parse_document(path: str, data: bytes) -> Any:
        doc = original(path, data)
        digest = indexer.content_hash(doc.text.replace("\r\n", "\n").encode())
        return type(doc)(doc.path, digest, doc.title, doc.summary, doc.chunks, doc.text)

    swap(indexer, "parse_document", parse_document)


@mutant(
    "index-suffix-any-case",
    "BACKEND-12",
    "the suffix test ignores case, so `README.MD` and `x.TXT` are indexed",
    seams=("os.walk",),
)
def _index_suffix_any_case() -> None:
    indexer = _mod("reference.backends.indexer")

    class _AnyCase(str):
        def endswith(self, suffix: Any, *args: Any) -> bool:
            return str.lower(self).endswith(suffix, *args)

    original = indexer.os.walk

    def walk(top: Any, *args: Any, **kwargs: Any) -> Any:
        for dirpath, dirnames, filenames in original(top, *args, **kwargs):
            filenames[:] = [_AnyCase(n) for n in filenames]
            yield dirpath, dirnames, filenames

    set_attr(indexer.os, "walk", walk)


@mutant(
    "index-unchanged-rewritten",
    "BACKEND-18",
    "a document whose hash is unchanged is rewritten and reported as updated",
    seams=("reference.backends.sqlite_fts.SqliteIndex.document_hashes",),
)
def _index_unchanged_rewritten() -> None:
    fts = _mod("reference.backends.sqlite_fts")
    original = fts.SqliteIndex.document_hashes

    def document_hashes(self: Any) -> dict[str, str]:
        return {path: "stale" for path in original(self)}

    set_attr(fts.SqliteIndex, "document_hashes", document_hashes)



def _streaming_indexer(removals_first: bool) -> None:
    """Replace index_directory by one that writes before every file is read (BACKEND-9/19)."""
    indexer = _mod("reference.backends.indexer")

    def index_directory(
        root: Any, index: Any, vectors: Any = None, skip_undecodable: bool = False
    ) -> Any:
        report = indexer.IndexReport()
        files = indexer.list_files(indexer.Path(root), report.skipped)
        known = index.document_hashes()
        present = {rel for rel, _ in files}
        changed: list[Any] = []

        def remove_gone() -> None:
            links = indexer.EdgesTable(index.connection())
            for path in sorted(known, key=lambda p: p.encode("utf-8")):
                if path not in present:
                    index.remove_document(path)
                    links.remove(path)
                    report.removed.append(path)

        def write(doc: Any) -> None:
            links = indexer.EdgesTable(index.connection())
            old = known.get(doc.path)
            if old is None or old != doc.content_hash or links.created:
                links.write(doc.path, doc.text)
            if old == doc.content_hash:
                report.unchanged.append(doc.path)
                return
            (report.added if old is None else report.updated).append(doc.path)
            index.upsert_document(doc.path, doc.chunks, doc.content_hash)
            changed.append(doc)

        if removals_first:
            with index.transaction():
                remove_gone()
                indexer.sync_okapi(index)
            docs = indexer.read_documents(indexer.Path(root), [], skip_undecodable)
            with index.transaction():
                for doc in docs:
                    write(doc)
                indexer.sync_okapi(index)
            files = []
        for rel, full in files:
            data = indexer.read_bounded(full, rel)
            if data is not None:
                with index.transaction():
                    write(indexer.parse_document(rel, data))
                    indexer.sync_okapi(index)
        if not removals_first:
            with index.transaction():
                remove_gone()
                indexer.sync_okapi(index)
        if vectors is not None:
            for doc in changed:
                vectors.upsert_document(doc.path, doc.chunks)
            vectors.remove_documents(report.removed)
        return report

    swap(indexer, "index_directory", index_directory)


@mutant(
    "index-run-not-atomic",
    "BACKEND-9",
    "each document is committed on its own as it is read, so a run that fails keeps its start",
    seams=("reference.backends.indexer.index_directory",),
)
def _index_run_not_atomic() -> None:
    _streaming_indexer(removals_first=False)


@mutant(
    "index-removals-before-reading",
    "BACKEND-19",
    "gone documents are removed (and committed) before the files are read and chunked",
    seams=("reference.backends.indexer.index_directory",),
)
def _index_removals_first() -> None:
    _streaming_indexer(removals_first=True)


@mutant(
    "index-vectors-keep-removed",
    "BACKEND-26",
    "the vector store is not told about removed documents, so their chunks stay hits",
    seams=("reference.backends.vector.MemoryVectorStore.remove_documents",),
)
def _index_vectors_keep_removed() -> None:
    vector = _mod("reference.backends.vector")
    set_attr(vector.MemoryVectorStore, "remove_documents", lambda self, paths: None)


@mutant(
    "index-update-overwrites-by-id",
    "BACKEND-11",
    "an update writes the new chunks over the old ones by id, so a shrunk document keeps its tail",
    seams=("reference.backends.sqlite_fts.SqliteIndex.upsert_document",),
)
def _index_update_by_id() -> None:
    fts = _mod("reference.backends.sqlite_fts")
    original = fts.SqliteIndex.upsert_document

    def upsert_document(self: Any, path: str, chunks: Any, content_hash: str = "") -> None:
        new_ids = {c.id for c in chunks}
        stale = [c for c in self.chunks() if c.path == path and c.id not in new_ids]
        original(self, path, [*chunks, *stale], content_hash)

    set_attr(fts.SqliteIndex, "upsert_document", upsert_document)
