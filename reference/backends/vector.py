"""In-memory vector store with an exact, portable cosine order (spec/backends.md BACKEND-25..32).

Exact mode (integer vectors, e.g. `hrc-hash-v1` counts): hits are ordered by comparing
dot²·|c|² products in integers, never floats; the float similarity is only reported.
Float mode (any other embedder): numpy cosine, same tie rule, not portable (BACKEND-32).

Search is vectorised: one matrix-vector product gives every dot; a float score picks a
shortlist with a safety margin; the shortlist is then ordered exactly (BACKEND-31).
"""

from __future__ import annotations

import math
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import pairwise
from typing import Any

import numpy as np
import numpy.typing as npt

from reference.backends.protocols import Embedder
from reference.types import Candidate, IndexError_, InvalidInput

# Float32 sums of integer products are exact while every partial sum stays below 2^24.
_F32_EXACT = 1 << 24
# Relative slack for the float shortlist; the float score's error is below 1e-15 (BACKEND-31).
SHORTLIST_MARGIN = 1e-9


@dataclass(frozen=True)
class VectorHit:
    """A hit with its reported cosine similarity (BACKEND-30) and, in exact mode, its dot."""

    candidate: Candidate
    similarity: float
    dot: int | None = None


def _codepoint_key(text: str) -> bytes:
    # TEXT-9: UTF-8 byte order equals code point order.
    return text.encode("utf-8")


def similarity_float(dot: int, query_norm2: int, chunk_norm2: int) -> float:
    """BACKEND-30: float(dot) / sqrt(float(|q|²) × float(|c|²)), in this operation order."""
    return float(dot) / math.sqrt(float(query_norm2) * float(chunk_norm2))


def exact_order_key(dot: int, chunk_norm2: int) -> Fraction:
    """BACKEND-28: dot·|dot| / |c|², which orders chunks as cosine does (|q| cancels)."""
    return Fraction(dot * abs(dot), chunk_norm2)


def _as_int_vector(vector: Sequence[float] | Sequence[int], what: str) -> list[int]:
    out: list[int] = []
    for x in vector:
        if isinstance(x, bool):
            raise IndexError_(f"{what}: booleans are not vector components")
        if isinstance(x, int):
            out.append(x)
        elif isinstance(x, float) and x.is_integer():
            out.append(int(x))
        else:
            raise IndexError_(f"{what}: exact mode needs integer components, got {x!r}")
    return out


def _sparse_ints(vector: Sequence[float] | Sequence[int], what: str) -> tuple[list[int], list[int]]:
    """The positions and integer values of the non-zero components (exact mode).

    An embedder's list of integral floats takes a vectorised path; anything else is checked
    component by component (booleans and non-integers are errors).
    """
    if type(vector) is list and set(map(type, vector)) == {float}:
        arr = np.asarray(vector, dtype=np.float64)
        if np.isfinite(arr).all() and (arr == np.trunc(arr)).all():
            nz = np.flatnonzero(arr)
            return [int(i) for i in nz], [int(x) for x in arr[nz].tolist()]
    ints = _as_int_vector(vector, what)
    nz_list = [i for i, x in enumerate(ints) if x != 0]
    return nz_list, [ints[i] for i in nz_list]


class MemoryVectorStore:
    """VectorStore protocol over chunk vectors kept in memory (BACKEND-25..32).

    `exact` defaults to True when the embedder offers `embed_counts` (the hash embedder).
    """

    def __init__(self, embedder: Embedder | None = None, *, exact: bool | None = None) -> None:
        self.embedder = embedder
        self.exact = hasattr(embedder, "embed_counts") if exact is None else exact
        self._lock = threading.RLock()
        self._chunks: list[Candidate] = []
        self._rows: list[npt.NDArray[Any]] = []
        self._dim: int | None = None
        self._dirty = True
        self._matrix: npt.NDArray[Any] = np.zeros((0, 0), dtype=np.float32)
        self._norm2: list[int] = []
        self._norms: npt.NDArray[np.float64] = np.zeros(0)
        self._max_abs = 0

    # -- building -----------------------------------------------------------------------

    @classmethod
    def from_chunks(
        cls, chunks: Iterable[Candidate], embedder: Embedder, *, exact: bool | None = None
    ) -> MemoryVectorStore:
        """BACKEND-24, BACKEND-25: embed every chunk's content with `embedder`."""
        store = cls(embedder, exact=exact)
        for chunk in chunks:
            store.add(chunk, store._embed(chunk.content))
        return store

    @classmethod
    def from_matrix(
        cls, chunks: Sequence[Candidate], matrix: npt.NDArray[Any], embedder: Embedder
    ) -> MemoryVectorStore:
        """BACKEND-25: an exact store over integer vectors computed earlier (stored by the
        index), row i being chunks[i]'s vector; nothing is embedded. The rows are kept as one
        int32 matrix, with no int64 copy (peak memory of a 100k-chunk search)."""
        store = cls(embedder, exact=True)
        n = len(chunks)
        if matrix.ndim != 2 or matrix.shape[0] != n:
            raise IndexError_(f"{matrix.shape[0]} stored vectors for {n} chunks")
        if n == 0:
            return store
        if max(-int(matrix.min()), int(matrix.max())) >= _F32_EXACT:
            raise InvalidInput("exact mode needs vector components below 2^24 in magnitude")
        keys = [(_codepoint_key(c.path), _codepoint_key(c.id)) for c in chunks]
        rows = np.asarray(matrix, dtype=np.int32)
        if any(a > b for a, b in pairwise(keys)):
            order = sorted(range(n), key=keys.__getitem__)
            chunks = [chunks[i] for i in order]
            rows = rows[order]
        store._dim = int(matrix.shape[1])
        store._chunks = list(chunks)
        store._rows = list(rows)
        store._set_exact_matrix(rows)
        store._dirty = False
        return store

    def _embed(self, text: str) -> Sequence[int] | Sequence[float]:
        if self.embedder is None:
            raise InvalidInput("this vector store has no embedder; use add(chunk, vector)")
        counts = getattr(self.embedder, "embed_counts", None)
        if self.exact and callable(counts):
            result: list[int] = counts(text)
            return result
        return self.embedder.embed(text)

    def add(self, chunk: Candidate, vector: Sequence[float] | Sequence[int]) -> None:
        """Add one chunk with its vector (integers below 2^24 in magnitude in exact mode)."""
        with self._lock:
            if self._dim is None:
                self._dim = len(vector)
            elif len(vector) != self._dim:
                raise InvalidInput(
                    f"chunk {chunk.id!r}: vector has {len(vector)} components, not {self._dim}"
                )
            if self.exact:
                ints = _as_int_vector(vector, f"chunk {chunk.id!r}")
                if any(abs(x) >= _F32_EXACT for x in ints):
                    raise InvalidInput(f"chunk {chunk.id!r}: exact mode needs |x| < 2^24")
                row: npt.NDArray[Any] = np.array(ints, dtype=np.int32)
            else:
                row = np.array([float(x) for x in vector], dtype=np.float64)
                if not np.all(np.isfinite(row)):
                    raise InvalidInput(f"chunk {chunk.id!r}: vector is not finite")
            self._chunks.append(chunk)
            self._rows.append(row)
            self._dirty = True

    def upsert_document(self, path: str, chunks: Sequence[Candidate]) -> None:
        """Replace the chunks of one document (the indexer calls this after its commit)."""
        vectors = [self._embed(c.content) for c in chunks]
        with self._lock:
            self.remove_document(path)
            for chunk, vector in zip(chunks, vectors, strict=True):
                self.add(chunk, vector)

    def remove_document(self, path: str) -> None:
        """Drop every chunk of `path`."""
        self.remove_documents([path])

    def remove_documents(self, paths: Iterable[str]) -> None:
        """Drop every chunk of each of `paths` in one pass (one pass per path was quadratic)."""
        gone = set(paths)
        with self._lock:
            keep = [i for i, c in enumerate(self._chunks) if c.path not in gone]
            if len(keep) != len(self._chunks):
                self._chunks = [self._chunks[i] for i in keep]
                self._rows = [self._rows[i] for i in keep]
                self._dirty = True

    def __len__(self) -> int:
        return len(self._chunks)

    def _build(self) -> None:
        if not self._dirty:
            return
        n, dim = len(self._chunks), self._dim or 0
        # Rows in (path, id) order, so that a stable sort by score alone applies the tie
        # rule (BACKEND-29).
        order = sorted(
            range(n),
            key=lambda i: (
                _codepoint_key(self._chunks[i].path),
                _codepoint_key(self._chunks[i].id),
            ),
        )
        self._chunks = [self._chunks[i] for i in order]
        self._rows = [self._rows[i] for i in order]
        if self.exact:
            self._set_exact_matrix(np.array(self._rows, dtype=np.int32).reshape(n, dim))
        else:
            m = np.array(self._rows, dtype=np.float64).reshape(n, dim)
            self._matrix = m
            self._norms = np.sqrt(np.einsum("ij,ij->i", m, m))
        self._dirty = False

    def _set_exact_matrix(self, ints: npt.NDArray[Any]) -> None:
        """Norms and the float32 transposed matrix of the (path, id)-ordered int vectors
        (int32 or int64; every |x| < 2^24, so each square and sum fits int64)."""
        norm2 = np.einsum("ij,ij->i", ints, ints, dtype=np.int64)
        self._norm2 = [int(x) for x in norm2]
        self._max_abs = max(-int(ints.min()), int(ints.max())) if ints.size else 0
        # Stored transposed (dimension × chunks): a query touches few buckets, and
        # gathering whole rows of the transpose is contiguous, ~10× faster than columns.
        self._matrix = np.ascontiguousarray(ints.T, dtype=np.float32)
        self._norms = np.sqrt(norm2.astype(np.float64))

    # -- search -------------------------------------------------------------------------

    def search_vector(self, vector: Sequence[float], limit: int) -> list[Candidate]:
        """VectorStore protocol: at most `limit` hits, best first (BACKEND-27..31)."""
        if not self.exact:
            return [h.candidate for h in self.search_scored(vector, limit)]
        with self._lock:
            found = self._top_exact(vector, limit)
            return [] if found is None else [self._chunks[i] for i in found[0]]

    def search_scored(self, vector: Sequence[float], limit: int) -> list[VectorHit]:
        """Hits with their similarity; exact order in exact mode, float order otherwise."""
        with self._lock:
            if not self.exact:
                self._check(vector, limit)
                return self._search_float(vector, limit) if self._chunks else []
            found = self._top_exact(vector, limit)
            if found is None:
                return []
            top, dots, q_norm2 = found
            chunks, norm2 = self._chunks, self._norm2
            return [
                VectorHit(chunks[i], similarity_float(dot, q_norm2, norm2[i]), dot)
                for i, dot in zip(top, dots, strict=True)
            ]

    def _check(self, vector: Sequence[float], limit: int) -> None:
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
            raise InvalidInput(f"limit must be an integer >= 1, got {limit!r}")
        self._build()
        if self._chunks and len(vector) != self._dim:
            raise IndexError_(
                f"query vector has {len(vector)} components; the store holds {self._dim}"
            )

    def _top_exact(
        self, vector: Sequence[float], limit: int
    ) -> tuple[list[int], list[int], int] | None:
        """The rows of the first `limit` hits in exact order, their dots and |q|²; None when
        there is no hit (BACKEND-27..29)."""
        self._check(vector, limit)
        if not self._chunks:
            return None
        nz, values = _sparse_ints(vector, "query vector")
        return self._search_exact(nz, values, limit)

    def _dots(self, nz: list[int], values: list[int]) -> npt.NDArray[np.int64]:
        """Every chunk's dot with the query whose non-zero components are `values` at `nz`."""
        bound = sum(abs(v) for v in values) * self._max_abs
        if bound < _F32_EXACT:
            # Every product and partial sum is an integer below 2^24: float32 is exact.
            rows = self._matrix[nz]
            dots = np.array(values, dtype=np.float32) @ rows
            return np.asarray(dots.astype(np.int64), dtype=np.int64)
        if bound < (1 << 62):
            ints = self._matrix[nz].astype(np.int64)
            return np.asarray(np.array(values, dtype=np.int64) @ ints, dtype=np.int64)
        raise IndexError_("query vector too large for exact integer dot products")

    def _search_exact(
        self, nz: list[int], values: list[int], limit: int
    ) -> tuple[list[int], list[int], int] | None:
        q_norm2 = sum(v * v for v in values)
        if q_norm2 == 0:
            return None  # BACKEND-27: a zero query vector has no hits.
        dots = self._dots(nz, values)
        # BACKEND-27: a hit needs a strictly positive dot (zero chunk vectors never qualify).
        positive = np.flatnonzero(dots > 0)
        if positive.size == 0:
            return None
        d = dots[positive].astype(np.float64)
        approx = d / self._norms[positive]
        if positive.size > limit:
            kth = np.partition(approx, positive.size - limit)[positive.size - limit]
            keep = approx >= kth * (1.0 - SHORTLIST_MARGIN)
            shortlist, approx = positive[keep], approx[keep]
        else:
            shortlist = positive
        top = self._exact_order(shortlist, approx, dots)[:limit]
        return top, dots[top].tolist(), q_norm2

    def _exact_order(
        self, rows: npt.NDArray[np.intp], approx: npt.NDArray[np.float64],
        dots: npt.NDArray[np.int64],
    ) -> list[int]:
        """BACKEND-28/29 order of `rows` (ascending, so in (path, id) order), decided exactly.

        A stable sort by the float score puts the rows in exact order except inside runs of
        neighbours closer than SHORTLIST_MARGIN (relative; the float's error is below 1e-15,
        BACKEND-31); each such run is re-sorted by the exact key, ties by row, i.e. by
        (path, id).
        """
        order = np.argsort(-approx, kind="stable")
        ranked: list[int] = rows[order].tolist()
        sorted_approx = approx[order]
        close = np.flatnonzero(
            sorted_approx[:-1] - sorted_approx[1:] <= SHORTLIST_MARGIN * sorted_approx[:-1]
        )
        j = 0
        while j < close.size:
            start = int(close[j])
            end = start + 1  # the run is ranked[start : end + 1]
            j += 1
            while j < close.size and int(close[j]) == end:
                end += 1
                j += 1
            run = ranked[start : end + 1]
            run.sort(key=lambda i: (-exact_order_key(int(dots[i]), self._norm2[i]), i))
            ranked[start : end + 1] = run
        return ranked

    def _search_float(self, vector: Sequence[float], limit: int) -> list[VectorHit]:
        q = np.array([float(x) for x in vector], dtype=np.float64)
        q_norm = float(np.sqrt(q @ q))
        if q_norm == 0.0 or not math.isfinite(q_norm):
            return []
        m = self._matrix
        with np.errstate(divide="ignore", invalid="ignore"):
            sims = (m @ q) / (self._norms * q_norm)
        candidates = np.flatnonzero(np.isfinite(sims) & (sims > 0))
        # Stable sort on -similarity; rows are in (path, id) order, so ties go by path, id.
        ranked = candidates[np.argsort(-sims[candidates], kind="stable")][:limit]
        return [VectorHit(self._chunks[int(i)], float(sims[int(i)])) for i in ranked]


def vectors_of_index(index: Any, embedder: Embedder) -> MemoryVectorStore:
    """BACKEND-25: the store of an SqliteIndex: its stored vectors when it has them for this
    embedder (nothing embedded), else every chunk embedded now (an index written without)."""
    chunks, matrix = index.chunks_with_vectors(embedder)
    if matrix is None:
        return MemoryVectorStore.from_chunks(chunks, embedder)
    return MemoryVectorStore.from_matrix(chunks, matrix, embedder)
