"""Vectors stored as BLOBs beside the FTS5 index."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from reference.types import IndexError_


def _flatten_word_blobs(
    blobs: Sequence[bytes],
) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int64]]:
    """Chunk word-id blobs (`chunk_words.wids`, little-endian int32) as one flat array and
    offsets: chunk i's ids are flat[offsets[i]:offsets[i + 1]]."""
    lengths = np.array([len(b) // 4 for b in blobs], dtype=np.int64)
    offsets = np.concatenate(([0], np.cumsum(lengths))).astype(np.int64)
    flat = np.frombuffer(b"".join(blobs), dtype="<i4").astype(np.int32)
    return flat, offsets


def pack_vector(counts: Sequence[int]) -> bytes:
    """BACKEND-25 (reference layout): little-endian uint16 counts, or int32 if one is larger."""
    wide = any(c > 0xFFFF or c < 0 for c in counts)
    return np.array(counts, dtype="<i4" if wide else "<u2").tobytes()


def unpack_vectors(blobs: Sequence[bytes], dim: int) -> npt.NDArray[np.int32]:
    """The stored vectors as an (n, dim) int32 matrix (both stored layouts fit; half the
    memory of int64 at 100k chunks); a blob of the wrong size is an error."""
    out = np.zeros((len(blobs), dim), dtype=np.int32)
    narrow = [i for i, b in enumerate(blobs) if len(b) == 2 * dim]
    if len(narrow) == len(blobs):
        if blobs:
            out[:] = np.frombuffer(b"".join(blobs), dtype="<u2").reshape(len(blobs), dim)
        return out
    for i, blob in enumerate(blobs):
        if len(blob) == 2 * dim:
            out[i] = np.frombuffer(blob, dtype="<u2")
        elif len(blob) == 4 * dim:
            out[i] = np.frombuffer(blob, dtype="<i4")
        else:
            raise IndexError_(f"stored vector {i} has {len(blob)} bytes, not a {dim}-vector")
    return out
