// Reciprocal Rank Fusion (spec/rrf.md, RRF-1..RRF-15).
import { invalid } from './errors.mjs';
import { compareCodePoints } from './text.mjs';

const FILLED = ['title', 'summary', 'content']; // RRF-10: seeded by the first sighting

/**
 * lists: [{name, weight, items: [candidate]}] (validated), k: integer.
 * Returns [{...candidate, score}] in fused order (RRF-6, RRF-8, RRF-12).
 */
export function fuse(lists, k) {
  const entries = new Map(); // id -> {id, contributions: [float], path: {rank, value}|null, fields, meta}
  for (const list of lists) {
    const w = list.weight;
    if (w === 0) continue; // RRF-3
    list.items.forEach((item, r) => {
      let e = entries.get(item.id);
      if (!e) {
        // RRF-10, RRF-14: the first sighting seeds the fields and metadata.
        e = { id: item.id, contributions: [], path: null, fields: {}, meta: { ...(item.metadata ?? {}) } };
        for (const f of FILLED) e.fields[f] = item[f] ?? '';
        entries.set(item.id, e);
      } else {
        // A later sighting (another list, or a repeat in this one, RRF-4) fills blanks only.
        for (const f of FILLED) if (e.fields[f] === '') e.fields[f] = item[f] ?? '';
        for (const [key, value] of Object.entries(item.metadata ?? {})) {
          if (!Object.hasOwn(e.meta, key) || e.meta[key] === '') e.meta[key] = value;
        }
      }
      // RRF-13: the non-empty path of the best rank; equal ranks -> smallest by code point.
      const path = item.path ?? '';
      if (path !== '' && (e.path === null || r < e.path.rank || (r === e.path.rank && compareCodePoints(path, e.path.value) < 0))) {
        e.path = { rank: r, value: path };
      }
      e.contributions.push(w / (k + r + 1)); // RRF-4, RRF-7: every occurrence, one division
    });
  }
  const fused = [];
  for (const e of entries.values()) {
    const contributions = [...e.contributions].sort((a, b) => b - a); // largest first
    let score = 0.0;
    for (const c of contributions) score += c;
    const out = { id: e.id, path: e.path ? e.path.value : '' };
    for (const f of FILLED) out[f] = e.fields[f];
    out.metadata = {};
    for (const key of Object.keys(e.meta).sort(compareCodePoints)) out.metadata[key] = e.meta[key];
    out.score = score;
    fused.push(out);
  }
  // RRF-6: the emitted float, descending; RRF-8 path, RRF-12 id, by code point.
  fused.sort((a, b) => (b.score - a.score) || compareCodePoints(a.path, b.path) || compareCodePoints(a.id, b.id));
  return fused;
}

export function validateK(k) {
  if (k === undefined || k === null) return 60; // OP-5: null is absent
  if (typeof k === 'number' && k <= 0) return 60; // RRF-1: safeK = k > 0 ? k : 60
  if (typeof k !== 'number' || !Number.isFinite(k) || !Number.isInteger(k) || k > 2 ** 31 - 1) {
    throw invalid('k must be a whole number between 1 and 2^31-1'); // RRF-15
  }
  return k;
}

export function validateWeight(w, field) {
  if (w === undefined || w === null) return 1; // OP-5
  if (typeof w !== 'number' || !Number.isFinite(w) || w < 0) {
    throw invalid(`${field} must be a finite number >= 0`);
  }
  return w;
}
