// Profile bm25-okapi (spec/profiles/bm25-okapi.md, OKAPI-*): Okapi BM25 with stated k1 and b,
// every float operation in the chapter's order so the scores are the reference's bits.
import { invalid } from '../errors.mjs';
import { compareCodePoints, normalise, words } from '../text.mjs';
import { chunk, isAbsent, isObject, requireArray, wholeNumber } from '../validate.mjs';

export const NAME = 'bm25-okapi';
export const VERSION = '2.0.0';

// OKAPI-3
const DEFAULT_K1 = 1.5;
const DEFAULT_B = 0.75;

function param(value, name, fallback, top) {
  if (isAbsent(value)) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > top) {
    throw invalid(`${name} must be a number in [0, ${top}]`);
  }
  return value;
}

export function checkParams(k1, b) {
  return { k1: param(k1, 'k1', DEFAULT_K1, 1000), b: param(b, 'b', DEFAULT_B, 1) };
}

// OKAPI-5: ln by + − × ÷ only, each rounded once (JavaScript never fuses).
const SQRT2 = 1.4142135623730951;
const LN2 = 0.6931471805599453;
const TERMS = 12;
const C = Array.from({ length: TERMS }, (_, j) => 1 / (2 * j + 1));

export function okapiLn(x) {
  if (!(x >= 1) || x === Infinity) throw new RangeError(`okapiLn needs a finite x >= 1, got ${x}`);
  let m = x;
  let e = 0;
  while (m >= 2) {
    m = m / 2;
    e = e + 1;
  }
  if (m > SQRT2) {
    m = m / 2;
    e = e + 1;
  }
  const u = (m - 1) / (m + 1);
  const v = u * u;
  let p = C[TERMS - 1];
  for (let j = TERMS - 2; j >= 0; j--) p = p * v + C[j];
  const t = u * p;
  return e * LN2 + (t + t);
}

// OKAPI-2: the distinct words of the query, in code point order.
export function queryTerms(query) {
  return [...new Set(words(query))].sort(compareCodePoints);
}

// OKAPI-4
export function idf(n, df) {
  return okapiLn(1 + (n - df + 0.5) / (df + 0.5));
}

// OKAPI-6
function averageLength(total, n) {
  return n === 0 ? null : total / n;
}

// OKAPI-7: the seed's formula left to right.
export function termWeight(termIdf, tf, dl, avgdl, { k1, b }) {
  const scaled = (b * dl) / avgdl;
  const base = 1 - b + scaled;
  const damp = k1 * base;
  const den = tf + damp;
  const num = tf * (k1 + 1);
  return (termIdf * num) / den;
}

// OKAPI-8
function documentScore(weights) {
  let total = 0;
  for (const w of weights) total = total + w;
  return total;
}

// OKAPI-9
function rank(items) {
  return items.sort((x, y) => (x.score !== y.score ? y.score - x.score : compareCodePoints(x.path, y.path) || compareCodePoints(x.id, y.id)));
}

function bagOf(text) {
  const bag = new Map();
  for (const w of words(text)) bag.set(w, (bag.get(w) ?? 0) + 1);
  return bag;
}

// A collection of documents (OKAPI-1) and its statistics.
export class Collection {
  constructor(documents) {
    this.docs = documents.map((d) => {
      const bag = bagOf(d.content);
      let dl = 0;
      for (const n of bag.values()) dl += n;
      return { id: d.id, path: d.path, bag, dl };
    });
    let total = 0;
    for (const d of this.docs) total += d.dl;
    this.avgdl = averageLength(total, this.docs.length);
  }

  documentCount() {
    return this.docs.length;
  }

  statistics(query) {
    const n = this.docs.length;
    return queryTerms(query).map((term) => {
      let df = 0;
      for (const d of this.docs) if (d.bag.has(term)) df++;
      return { term, df, idf: df > 0 ? idf(n, df) : null };
    });
  }

  scoreOf(doc, terms, params) {
    const weights = [];
    if (this.avgdl === null) return null;
    for (const t of terms) {
      const tf = doc.bag.get(t.term) ?? 0;
      if (t.idf !== null && tf > 0) weights.push(termWeight(t.idf, tf, doc.dl, this.avgdl, params));
    }
    return weights.length ? documentScore(weights) : null;
  }

  // OKAPI-9: every document with a query term, ranked.
  score(query, params) {
    const terms = this.statistics(query);
    const results = [];
    for (const d of this.docs) {
      const s = this.scoreOf(d, terms, params);
      if (s !== null) results.push({ id: d.id, path: d.path, score: s });
    }
    return { terms, results: rank(results) };
  }
}

// OKAPI-12: a list of {id, path, content}, ids unique.
function documentsFrom(raw, field) {
  requireArray(raw, field);
  const seen = new Set();
  return raw.map((v, i) => {
    const d = chunk(v, `${field}[${i}]`);
    if (seen.has(d.id)) throw invalid(`${field}: duplicate id ${JSON.stringify(d.id)}`);
    seen.add(d.id);
    return d;
  });
}

// OKAPI-11
function scoreOp(input) {
  const docs = documentsFrom(input.documents, 'documents');
  if (typeof input.query !== 'string') throw invalid('query must be a string');
  if (!input.query.isWellFormed()) throw invalid('query is not valid Unicode (lone surrogate)');
  const params = checkParams(input.k1, input.b);
  const collection = new Collection(docs);
  const { terms, results } = collection.score(input.query, params);
  return { documentCount: docs.length, averageLength: collection.avgdl, terms, results };
}


// OKAPI-18..27: GenieHelper's retrieval, HyDE -> dense + BM25 -> RRF -> top 8.
const SEARCH_FIELDS = new Set(['query', 'documents', 'legs', 'k1', 'b', 'hypotheticalDocument', 'limit']);
const RRF_K = 60; // OKAPI-24
const DEFAULT_LIMIT = 8; // OKAPI-26

// OKAPI-20: a string not empty after normalisation, normalised; absent or null: none.
function hypotheticalDocument(raw) {
  if (isAbsent(raw)) return null;
  if (typeof raw !== 'string' || normalise(raw) === '') {
    throw invalid('hypotheticalDocument must be a string, not empty after normalisation');
  }
  return normalise(raw);
}

// OKAPI-21: [{id, score?}] best first; distinct ids, each a document's.
function rankedList(raw, field, known) {
  if (!Array.isArray(raw)) throw invalid(`${field} must be a list of {id, score?} objects`);
  const seen = new Set();
  return raw.map((item, i) => {
    const at = `${field}[${i}]`;
    if (!isObject(item)) throw invalid(`${at} must be an object`);
    for (const k of Object.keys(item)) if (k !== 'id' && k !== 'score') throw invalid(`${at}: unknown member ${k}`);
    if (typeof item.id !== 'string' || item.id === '') throw invalid(`${at}.id must be a non-empty string`);
    if (!isAbsent(item.score) && typeof item.score !== 'number') throw invalid(`${at}.score must be a number`);
    if (!known.has(item.id)) throw invalid(`${at}: id ${JSON.stringify(item.id)} is not one of the documents`);
    if (seen.has(item.id)) throw invalid(`${at}: duplicate id ${JSON.stringify(item.id)}`);
    seen.add(item.id);
    return item.id;
  });
}

function denseLeg(legs, known) {
  if (!isObject(legs)) throw invalid('legs must be an object {dense: [...]}');
  for (const k of Object.keys(legs)) if (k !== 'dense') throw invalid(`legs: unknown leg ${k} (bm25-okapi gives only dense)`);
  if (isAbsent(legs.dense)) throw invalid('legs.dense is required');
  return rankedList(legs.dense, 'legs.dense', known);
}

// OKAPI-24, OKAPI-25: the seed's rrf_score: dense then sparse, a stable sort by score.
export function fuseGenie(dense, sparse) {
  const scores = new Map();
  for (const list of [dense, sparse]) {
    list.forEach((id, i) => scores.set(id, (scores.get(id) ?? 0) + 1 / (RRF_K + i + 1)));
  }
  return [...scores.entries()].sort((x, y) => y[1] - x[1]);
}

function searchOp(input) {
  for (const k of Object.keys(input)) if (!SEARCH_FIELDS.has(k)) throw invalid(`bm25-okapi.search: unknown member ${k}`);
  if (typeof input.query !== 'string') throw invalid('query must be a string');
  if (!input.query.isWellFormed()) throw invalid('query is not valid Unicode (lone surrogate)');
  const docs = documentsFrom(input.documents, 'documents');
  const byId = new Map(docs.map((d) => [d.id, d]));
  const params = checkParams(input.k1, input.b);
  const hyde = hypotheticalDocument(input.hypotheticalDocument);
  const limit = isAbsent(input.limit) ? DEFAULT_LIMIT : wholeNumber(input.limit, 'limit');
  const dense = denseLeg(input.legs, byId);
  const collection = new Collection(docs);
  const { results: sparse } = collection.score(input.query, params); // OKAPI-22, OKAPI-23
  const fused = fuseGenie(dense, sparse.map((s) => s.id));
  return {
    results: fused.slice(0, limit).map(([id, score]) => ({ id, path: byId.get(id).path, score })),
    trace: {
      hyde: { document: hyde },
      dense: { hits: dense.length },
      bm25: {
        k1: params.k1,
        b: params.b,
        documentCount: docs.length,
        averageLength: collection.avgdl,
        hits: sparse.map((s) => ({ id: s.id, score: s.score })),
      },
      fusion: { k: RRF_K, fused: fused.length },
    },
  };
}

export const profile = { name: NAME, version: VERSION, operations: { 'bm25-okapi.score': scoreOp, 'bm25-okapi.search': searchOp } };
