// Reciprocal Rank Fusion (spec/rrf.md, RRF-1..RRF-11).
import { invalid } from './errors.mjs';
import { compareCodePoints } from './text.mjs';
import * as Q from './rational.mjs';

const FIELDS = ['path', 'title', 'summary', 'content'];

// Merge rule of RRF-10 over occurrences [{rank, value}].
function better(a, b) {
  // Is occurrence a preferred over b? lowest rank, then smallest value by code point.
  if (a.rank !== b.rank) return a.rank < b.rank;
  return compareCodePoints(a.value, b.value) < 0;
}

/**
 * lists: [{name, weight, items: [candidate]}] (validated), k: integer.
 * Returns [{...candidate, score, exact}] in fused order; `exact` is the exact rational score.
 */
export function fuse(lists, k) {
  const entries = new Map(); // id -> {id, contributions: [float], exact, fields, meta}
  for (const list of lists) {
    const w = list.weight;
    if (w === 0) continue; // RRF-3
    const wExact = Q.exactFloat(w);
    const seen = new Set();
    list.items.forEach((item, r) => {
      if (seen.has(item.id)) return; // RRF-4
      seen.add(item.id);
      let e = entries.get(item.id);
      if (!e) {
        e = { id: item.id, contributions: [], exact: Q.ZERO, fields: {}, meta: {} };
        entries.set(item.id, e);
      }
      const denom = k + r + 1;
      e.contributions.push(w / denom); // RRF-7: one division, correctly rounded
      e.exact = Q.add(e.exact, Q.div(wExact, Q.rat(denom)));
      for (const f of FIELDS) {
        const value = item[f] ?? '';
        if (value === '') continue;
        const occ = { rank: r, value };
        if (!e.fields[f] || better(occ, e.fields[f])) e.fields[f] = occ;
      }
      for (const [key, value] of Object.entries(item.metadata ?? {})) {
        const occ = { rank: r, value };
        const cur = e.meta[key];
        if (!cur) {
          e.meta[key] = occ;
          continue;
        }
        // non-empty value of the lowest rank wins; "" only when every value is "".
        if (cur.value === '' && value !== '') e.meta[key] = occ;
        else if (value !== '' && better(occ, cur)) e.meta[key] = occ;
      }
    });
  }
  const fused = [];
  for (const e of entries.values()) {
    const contributions = [...e.contributions].sort((a, b) => b - a); // largest first
    let score = 0.0;
    for (const c of contributions) score += c;
    const out = { id: e.id };
    for (const f of FIELDS) out[f] = e.fields[f] ? e.fields[f].value : '';
    out.metadata = {};
    for (const key of Object.keys(e.meta).sort(compareCodePoints)) out.metadata[key] = e.meta[key].value;
    out.score = score;
    Object.defineProperty(out, 'exact', { value: e.exact, enumerable: false, writable: true });
    fused.push(out);
  }
  fused.sort(
    (a, b) => Q.compare(b.exact, a.exact) || compareCodePoints(a.path, b.path) || compareCodePoints(a.id, b.id),
  );
  return fused;
}

export function validateK(k) {
  if (k === undefined || k === null) return 60; // OP-5: null is absent
  if (typeof k !== 'number' || !Number.isFinite(k) || !Number.isInteger(k) || k < 1 || k > 2 ** 31 - 1) {
    throw invalid('k must be a whole number between 1 and 2^31-1');
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
