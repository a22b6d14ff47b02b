// Trigram fuzzy matching (spec/trigram.md, TRI-1..TRI-7). Integer arithmetic over code points.
import { invalid } from './errors.mjs';
import { words, compareCodePoints } from './text.mjs';

// TRI-2: padded trigrams of a word, a set of strings.
export function trigramSet(word) {
  const set = new Set();
  if (word === '') return set;
  const cps = ['$', ...Array.from(word), '$'];
  for (let i = 0; i + 3 <= cps.length; i++) set.add(cps[i] + cps[i + 1] + cps[i + 2]);
  return set;
}

export function trigrams(word) {
  return [...trigramSet(word)].sort(compareCodePoints);
}

// TRI-3: (intersection, union) of two trigram sets.
export function jaccardSets(a, b) {
  let inter = 0;
  for (const t of a) if (b.has(t)) inter++;
  return { intersection: inter, union: a.size + b.size - inter };
}

// TRI-5
export function isSimilar({ intersection, union }) {
  return union > 0 && 10 * intersection >= 3 * union;
}

export function jaccard(a, b) {
  const r = jaccardSets(trigramSet(a), trigramSet(b));
  return { ...r, similar: isSimilar(r) };
}

// Compare ratios i1/u1 vs i2/u2 by cross-multiplication; union 0 counts as 0.
export function compareRatio(p, q) {
  const l = p.union === 0 ? 0 : p.intersection * (q.union === 0 ? 1 : q.union);
  const r = q.union === 0 ? 0 : q.intersection * (p.union === 0 ? 1 : p.union);
  return l < r ? -1 : l > r ? 1 : 0;
}

/** tokens: [string]; chunks: validated chunks (unique ids). Returns hits in TRI-6 order, bounded. */
export function trigramSearch(tokens, chunks, candidateK = 60) {
  const ids = new Set();
  for (const c of chunks) {
    if (ids.has(c.id)) throw invalid(`chunks: repeated chunk id ${JSON.stringify(c.id)}`);
    ids.add(c.id);
  }
  const tokenSets = tokens.map(trigramSet);
  const hits = [];
  for (const c of chunks) {
    const ws = [...new Set(words(c.content))]; // first-occurrence order
    const wordSets = ws.map(trigramSet);
    let best = null;
    for (const ts of tokenSets) {
      for (const wset of wordSets) {
        const pair = jaccardSets(ts, wset);
        if (best === null || compareRatio(pair, best) > 0) best = pair;
      }
    }
    if (best && isSimilar(best)) hits.push({ chunk: c, intersection: best.intersection, union: best.union });
  }
  hits.sort(
    (a, b) =>
      compareRatio(b, a) || compareCodePoints(a.chunk.path, b.chunk.path) || compareCodePoints(a.chunk.id, b.chunk.id),
  );
  return hits.slice(0, candidateK);
}
