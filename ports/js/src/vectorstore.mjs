// The exact integer vector store of hrc-hash-v1 (BACKEND-25..BACKEND-31). Vectors are plain
// arrays of non-negative integers below 2^53; every order is decided in BigInt (BACKEND-28).
import { compareCodePoints } from './text.mjs';

function sumSquares(v) {
  let s = 0n;
  for (const x of v) if (x !== 0) s += BigInt(x) * BigInt(x);
  return s;
}

function dotProduct(q, v) {
  let d = 0n;
  const n = Math.min(q.length, v.length);
  for (let i = 0; i < n; i++) if (q[i] !== 0 && v[i] !== 0) d += BigInt(q[i]) * BigInt(v[i]);
  return d;
}

// BACKEND-30: float(dot) / sqrt(float(|q|²) * float(|c|²)); Number(BigInt) rounds to nearest.
export function reportedSimilarity(dot, q2, c2) {
  return Number(dot) / Math.sqrt(Number(q2) * Number(c2));
}

export class VectorStore {
  constructor() {
    this.entries = new Map(); // chunk id -> {chunk, v, norm2}
  }

  put(chunk, vector) {
    this.entries.set(chunk.id, { chunk, v: vector, norm2: sumSquares(vector) });
  }

  remove(id) {
    this.entries.delete(id);
  }

  // BACKEND-27..29: hits with dot > 0, by exact cosine descending, then path, then id.
  // Returns [{chunk, dot: BigInt, similarity: number}].
  searchExact(q, limit) {
    const q2 = sumSquares(q);
    const hits = [];
    for (const e of this.entries.values()) {
      const dot = dotProduct(q, e.v);
      if (dot > 0n) hits.push({ e, dot });
    }
    hits.sort((a, b) => {
      const l = a.dot * a.dot * b.e.norm2;
      const r = b.dot * b.dot * a.e.norm2;
      if (l !== r) return l > r ? -1 : 1;
      return compareCodePoints(a.e.chunk.path, b.e.chunk.path) || compareCodePoints(a.e.chunk.id, b.e.chunk.id);
    });
    return hits.slice(0, limit).map(({ e, dot }) => ({
      chunk: e.chunk,
      dot,
      similarity: reportedSimilarity(dot, q2, e.norm2),
    }));
  }

  // The pipeline's vector backend: hits as candidates with metadata {} (BACKEND-6 shape).
  search(q, limit) {
    return this.searchExact(q, limit).map(({ chunk }) => ({ ...chunk, metadata: {} }));
  }
}
