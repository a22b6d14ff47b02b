// The conformance embedder hrc-hash-v1 (BACKEND-20..BACKEND-24).
import { words } from './text.mjs';

export const DIM = 256;
const encoder = new TextEncoder();

// BACKEND-22: FNV-1a 32 over UTF-8 bytes.
export function fnv1a32(text) {
  let h = 2166136261;
  for (const byte of encoder.encode(text)) {
    h ^= byte;
    h = Math.imul(h, 16777619) >>> 0;
  }
  return h >>> 0;
}

// BACKEND-21
export function features(text) {
  const out = [];
  for (const w of words(text)) {
    const cps = ['$', ...Array.from(w), '$'];
    for (let i = 0; i + 3 <= cps.length; i++) out.push(cps[i] + cps[i + 1] + cps[i + 2]);
  }
  return out;
}

// BACKEND-23: integer counts per bucket (exact as floats).
export function embed(text) {
  const v = new Array(DIM).fill(0);
  for (const f of features(text)) v[fnv1a32(f) % DIM] += 1;
  return v;
}

export const hashEmbedder = { name: 'hrc-hash-v1', embed };
