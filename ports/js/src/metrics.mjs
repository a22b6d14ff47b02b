// Retrieval metrics against relevance judgements (spec/metrics.md, METRIC-1..13).
// Every number is a binary64 computed in the order METRIC-12 fixes: one division per `/`,
// sums from +0 left to right, Math.log2 (correctly rounded on 2..1001, the only arguments
// METRIC-1's k <= 1000 allows).
import { invalid } from './errors.mjs';
import { compareCodePoints } from './text.mjs';
import { wholeNumber, isAbsent, MAX_INTEGER } from './validate.mjs';

export const DEFAULT_K = 5;
export const MAX_K = 1000;
export const MEASURES = ['precision', 'recall', 'reciprocalRank', 'ndcg', 'hit', 'averagePrecision'];

const isPlainObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);

function checkId(id, field) {
  if (typeof id !== 'string' || id.length === 0) throw invalid(`${field}: an id must be a non-empty string`);
  return id;
}

// METRIC-1: run = {query: [docId]}; repeats are allowed (METRIC-3).
export function parseRun(v) {
  if (!isPlainObject(v)) throw invalid('run must be an object');
  const out = new Map();
  for (const [q, docs] of Object.entries(v)) {
    checkId(q, 'run');
    if (!Array.isArray(docs)) throw invalid(`run[${JSON.stringify(q)}] must be a list`);
    out.set(q, docs.map((d) => checkId(d, `run[${JSON.stringify(q)}]`)));
  }
  return out;
}

// METRIC-1: qrels = {query: {docId: integer}}, |relevance| <= 2^31 - 1.
export function parseQrels(v) {
  if (!isPlainObject(v)) throw invalid('qrels must be an object');
  const out = new Map();
  for (const [q, judged] of Object.entries(v)) {
    checkId(q, 'qrels');
    if (!isPlainObject(judged)) throw invalid(`qrels[${JSON.stringify(q)}] must be an object`);
    const m = new Map();
    for (const [d, rel] of Object.entries(judged)) {
      checkId(d, `qrels[${JSON.stringify(q)}]`);
      m.set(d, wholeNumber(rel, `qrels[${JSON.stringify(q)}][${JSON.stringify(d)}]`, { min: -MAX_INTEGER, max: MAX_INTEGER }));
    }
    out.set(q, m);
  }
  return out;
}

export function parseK(v) {
  return isAbsent(v) ? DEFAULT_K : wholeNumber(v, 'k', { min: 1, max: MAX_K });
}

// METRIC-3: first occurrence only, list order is the ranking.
function dedupe(docs) {
  return [...new Set(docs)];
}

// METRIC-2: relevance > 0 is the gain; 0, negative and absent give 0.
function gainOf(judged, doc) {
  const rel = judged.get(doc);
  return rel !== undefined && rel > 0 ? rel : 0;
}

// METRIC-8/12: sum of gain / log2(rank + 1), rank 1-based, left to right from +0.
function dcg(gains) {
  let total = 0;
  for (let i = 0; i < gains.length; i++) total += gains[i] / Math.log2(i + 2);
  return total;
}

function scoreQuery(query, docs, judged, k) {
  const run = dedupe(docs);
  const gains = run.map((d) => gainOf(judged, d));
  const positive = [...judged.values()].filter((r) => r > 0);
  const relevant = positive.length;
  const head = gains.slice(0, k);
  const relret = head.filter((g) => g > 0).length;
  const firstIndex = gains.findIndex((g) => g > 0);
  const ideal = positive.sort((a, b) => b - a).slice(0, k);
  let apSum = 0;
  let hits = 0;
  gains.forEach((g, i) => {
    if (g > 0) {
      hits += 1;
      apSum += hits / (i + 1);
    }
  });
  return {
    query,
    relevant,
    retrieved: run.length,
    relevantRetrieved: relret,
    precision: relret / k,
    recall: relret / relevant,
    reciprocalRank: firstIndex < 0 ? 0 : 1 / (firstIndex + 1),
    ndcg: dcg(head) / dcg(ideal),
    hit: relret > 0 ? 1 : 0,
    averagePrecision: apSum / relevant,
  };
}

// METRIC-11: left-to-right sum in query-id order, one division; null with no query.
function mean(values) {
  if (values.length === 0) return null;
  let total = 0;
  for (const v of values) total += v;
  return total / values.length;
}

// METRIC-4, METRIC-13.
export function evaluate(run, qrels, k) {
  const byId = (a, b) => compareCodePoints(a, b);
  const evaluated = [...qrels.keys()].filter((q) => [...qrels.get(q).values()].some((r) => r > 0)).sort(byId);
  const counted = new Set(evaluated);
  const excluded = [...qrels.keys()].filter((q) => !counted.has(q)).sort(byId);
  const unjudged = [...run.keys()].filter((q) => !qrels.has(q)).sort(byId);
  const queries = evaluated.map((q) => scoreQuery(q, run.get(q) ?? [], qrels.get(q), k));
  const meanOut = {};
  for (const m of MEASURES) meanOut[m] = mean(queries.map((row) => row[m]));
  return { queries, excluded, unjudged, mean: meanOut };
}
