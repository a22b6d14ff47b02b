// Profile bm25-okapi (spec/profiles/bm25-okapi.md, OKAPI-*): Okapi BM25 with stated k1 and b,
// every float operation in the chapter's order so the scores are the reference's bits.
import { invalid } from '../errors.mjs';
import { compareCodePoints, normalise, words } from '../text.mjs';
import { chunk, isAbsent, isObject, MAX_INTEGER, requireArray } from '../validate.mjs';

export const NAME = 'bm25-okapi';
export const VERSION = '1.1.0';

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

// A collection of documents (OKAPI-1): statistics and the scores of some ids (OKAPI-14).
export class Collection {
  constructor(documents) {
    this.docs = documents.map((d) => {
      const bag = bagOf(d.content);
      let dl = 0;
      for (const n of bag.values()) dl += n;
      return { id: d.id, path: d.path, bag, dl };
    });
    this.byId = new Map(this.docs.map((d) => [d.id, d]));
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

  // OKAPI-14: the score of each id (0 for an unknown id or no query term).
  scoreIds(query, ids, params) {
    const terms = this.statistics(query);
    const out = new Map();
    for (const id of ids) {
      const d = this.byId.get(id);
      out.set(id, d === undefined ? 0 : this.scoreOf(d, terms, params) ?? 0);
    }
    return out;
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

// OKAPI-14: the BM25 leg ranked with Okapi BM25.
const OPTIONS = new Set(['k1', 'b', 'hypotheticalDocument']);

function parseRequest(options) {
  for (const k of Object.keys(options)) if (!OPTIONS.has(k)) throw invalid(`request.profiles.bm25-okapi: unknown option ${k}`);
  // OKAPI-17: a string, not empty after normalisation; absent or null: none.
  let hypothetical = null;
  if (!isAbsent(options.hypotheticalDocument)) {
    const raw = options.hypotheticalDocument;
    if (typeof raw !== 'string' || normalise(raw) === '') {
      throw invalid('request.profiles.bm25-okapi.hypotheticalDocument must be a string, not empty after normalisation');
    }
    hypothetical = normalise(raw);
  }
  return { params: checkParams(options.k1, options.b), query: '', hypothetical };
}

function parseBackends(raw) {
  if (raw instanceof Collection) return raw; // the real index's chunks (search_corpus)
  if (isAbsent(raw)) return new Collection([]);
  if (!isObject(raw)) throw invalid('backends.profiles.bm25-okapi must be an object');
  for (const k of Object.keys(raw)) if (k !== 'documents') throw invalid(`backends.profiles.bm25-okapi: unknown member ${k}`);
  return new Collection(isAbsent(raw.documents) ? [] : documentsFrom(raw.documents, 'backends.profiles.bm25-okapi.documents'));
}

export const pipeline = {
  parseRequest,
  parseBackends,
  adjustWeights(call, query, weights) {
    call.options.query = query;
    Object.assign(call.trace, { k1: call.options.params.k1, b: call.options.params.b, documentCount: call.backend.documentCount(), rescored: 0 });
    return weights;
  },
  // OKAPI-17: the vector leg embeds the hypothetical document instead of the query.
  vectorQuery: (call, text) => call.options.hypothetical ?? text,
  legLimit: (call, leg, n) => (leg === 'bm25' ? MAX_INTEGER : n),
  filterLeg(call, leg, hits) {
    if (leg !== 'bm25') return hits;
    const scores = call.backend.scoreIds(call.options.query, hits.map((h) => h.id), call.options.params);
    call.trace.rescored += hits.length;
    const rows = hits.map((h) => ({ h, score: scores.get(h.id) }));
    rows.sort((x, y) => (x.score !== y.score ? y.score - x.score : compareCodePoints(x.h.path, y.h.path) || compareCodePoints(x.h.id, y.h.id)));
    return rows.map((r) => r.h);
  },
};

export const profile = { name: NAME, version: VERSION, operations: { 'bm25-okapi.score': scoreOp }, pipeline };
