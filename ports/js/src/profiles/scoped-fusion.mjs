// Profile scoped-fusion (spec/profiles/scoped-fusion.md, SCOPE-*): the weight range, scoping of
// every leg by metadata.scope, the excludeIds exclusion before fusion, the BM25 headroom.
import { invalid } from '../errors.mjs';
import { isObject, isAbsent, requireArray, wholeNumber, candidate, MAX_INTEGER } from '../validate.mjs';
import { lower, compareCodePoints } from '../text.mjs';
import * as Q from '../rational.mjs';

export const NAME = 'scoped-fusion';
export const VERSION = '2.0.0';

const FIELDS = new Set(['scopes', 'excludeIds', 'headroom', 'maxWeight']);
export const OUT_OF_SCOPE = 'out_of_scope';
export const EXCLUDED = 'excluded';

// SCOPE-1: a list of non-empty strings (duplicates count once).
function idSet(v, field) {
  requireArray(v, field);
  v.forEach((s, i) => {
    if (typeof s !== 'string' || s === '') throw invalid(`${field}[${i}] must be a non-empty string`);
  });
  return new Set(v);
}

// SCOPE-1, SCOPE-2: maxWeight is a finite number >= 1.
function maxWeight(v, field) {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 1) throw invalid(`${field} must be a finite number >= 1`);
  return v;
}

// SCOPE-1: validate the request member; defaults filled in.
export function parseOptions(obj, where = 'request.profiles.scoped-fusion') {
  if (!isObject(obj)) throw invalid(`${where} must be an object`);
  const unknown = Object.keys(obj).filter((k) => !FIELDS.has(k)).sort();
  if (unknown.length) throw invalid(`${where} has unknown field(s): ${unknown.join(', ')}`);
  return {
    scopes: isAbsent(obj.scopes) ? null : idSet(obj.scopes, `${where}.scopes`),
    excludeIds: isAbsent(obj.excludeIds) ? new Set() : idSet(obj.excludeIds, `${where}.excludeIds`),
    headroom: isAbsent(obj.headroom) ? 2 : wholeNumber(obj.headroom, `${where}.headroom`),
    maxWeight: isAbsent(obj.maxWeight) ? 5 : maxWeight(obj.maxWeight, `${where}.maxWeight`),
  };
}

// SCOPE-3, SCOPE-6: why a hit is removed (scope first), or null when it is kept.
export function removalReason(hit, options) {
  if (options.scopes !== null) {
    const scope = Object.hasOwn(hit.metadata, 'scope') ? hit.metadata.scope : null;
    if (scope === null || !options.scopes.has(scope)) return OUT_OF_SCOPE;
  }
  if (options.excludeIds.has(hit.id)) return EXCLUDED;
  return null;
}

// SCOPE-6: drop removed hits, keep the others in order.
export function filterHits(hits, options) {
  const kept = [];
  const removed = [];
  for (const hit of hits) {
    const reason = removalReason(hit, options);
    if (reason === null) kept.push(hit);
    else removed.push({ id: hit.id, reason });
  }
  return { kept, removed };
}

// SCOPE-7: what each BM25 search asks for.
export function bm25Limit(candidateK, options) {
  return Math.min(candidateK * options.headroom, MAX_INTEGER);
}

// SCOPE-2: every weight (given or default) at most maxWeight.
export function checkWeights(weights, options) {
  for (const name of Object.keys(weights).sort()) {
    if (weights[name] > options.maxWeight) {
      throw invalid(`request.weights.${name}: ${weights[name]} is above the scoped-fusion maxWeight ${options.maxWeight}`);
    }
  }
}

// SCOPE-12: the operation scoped-fusion.filter.
function filterOp(input) {
  const hits = requireArray(input.hits, 'hits').map((h, i) => candidate(h, `hits[${i}]`));
  const options = parseOptions({ scopes: input.scopes, excludeIds: input.excludeIds }, 'input');
  const out = filterHits(hits, options);
  let kept = out.kept;
  if (!isAbsent(input.limit)) kept = kept.slice(0, wholeNumber(input.limit, 'limit'));
  return { kept: kept.map((h) => h.id), removed: out.removed };
}

// SCOPE-15: nodes {id, label?, activation} with distinct non-empty ids.
function parseNodes(v) {
  requireArray(v, 'nodes');
  const seen = new Set();
  return v.map((n, i) => {
    const at = `nodes[${i}]`;
    if (!isObject(n)) throw invalid(`${at} must be an object`);
    if (typeof n.id !== 'string' || n.id === '') throw invalid(`${at}.id must be a non-empty string`);
    if (seen.has(n.id)) throw invalid(`${at}.id ${JSON.stringify(n.id)} is repeated`);
    seen.add(n.id);
    const label = isAbsent(n.label) ? '' : n.label;
    if (typeof label !== 'string') throw invalid(`${at}.label must be a string`);
    if (typeof n.activation !== 'number' || !Number.isFinite(n.activation)) throw invalid(`${at}.activation must be a finite number`);
    return { id: n.id, label, activation: n.activation };
  });
}

// SCOPE-13..15: seed 002's dense list.
export function denseHits(nodes, words, limit) {
  const pre = nodes
    .filter((n) => n.activation > 0)
    .sort((a, b) => (b.activation - a.activation) || compareCodePoints(a.id, b.id))
    .slice(0, Math.min(3 * limit, MAX_INTEGER));
  const scored = pre.map((n) => {
    const lowered = lower(n.label);
    let overlap = 0;
    for (const w of words) if (lowered.includes(w)) overlap += 1;
    return { id: n.id, score: n.activation + overlap * 0.5, overlap };
  });
  scored.sort((a, b) => (a.score === b.score ? compareCodePoints(b.id, a.id) : b.score - a.score));
  return scored.slice(0, limit);
}

function denseHitsOp(input) {
  const nodes = parseNodes(input.nodes);
  const words = requireArray(input.queryWords, 'queryWords');
  words.forEach((w, i) => {
    if (typeof w !== 'string') throw invalid(`queryWords[${i}] must be a string`);
  });
  const limit = isAbsent(input.limit) ? 20 : wholeNumber(input.limit, 'limit');
  return { hits: denseHits(nodes, words, limit) };
}

export const OPERATIONS = { 'scoped-fusion.filter': filterOp, 'scoped-fusion.dense_hits': denseHitsOp };

// SCOPE-11: the leg's trace row, created on the leg's first backend call.
function legRow(call, leg) {
  const legs = call.trace.legs ?? (call.trace.legs = {});
  if (!Object.hasOwn(legs, leg)) legs[leg] = { limit: 0, searches: 0, returned: 0, outOfScope: 0, excluded: 0 };
  return legs[leg];
}

// PIPE-11 hooks: SCOPE-2 (adjustWeights), SCOPE-7 (legLimit), SCOPE-6/8/11 (filterLeg).
export const PIPELINE = {
  parseRequest: (options) => parseOptions(options),
  adjustWeights(call, query, weights) {
    checkWeights(weights, call.options);
    if (!call.trace.legs) call.trace.legs = {};
    call.state.vectorWeight = weights.vector;
    return weights;
  },
  // SCOPE-16: the seed short-circuits only the keyword call; its semantic search always runs.
  runsAtZeroWeight: (call, leg) => leg === 'vector',
  legLimit(call, leg, n) {
    const limit = leg === 'bm25' ? bm25Limit(n, call.options) : n;
    legRow(call, leg).limit = limit;
    if (leg === 'vector') call.state.vectorK = n;
    return limit;
  },
  filterLeg(call, leg, hits) {
    const { kept, removed } = filterHits(hits, call.options);
    const row = legRow(call, leg);
    row.searches += 1;
    row.returned += hits.length;
    for (const r of removed) {
      if (r.reason === OUT_OF_SCOPE) row.outOfScope += 1;
      else row.excluded += 1;
    }
    if (leg === 'vector') call.state.vector = kept.slice(0, call.state.vectorK); // SCOPE-16
    return kept;
  },
  // SCOPE-16: semantic-only hits follow the fused list at score 0, in the semantic order.
  afterFusion(call, query, items) {
    if (call.state.vectorWeight !== 0 || !call.state.vector) return items;
    const seen = new Set(items.map((item) => item.id));
    const out = [...items];
    for (const hit of call.state.vector) {
      if (seen.has(hit.id)) continue;
      seen.add(hit.id);
      const item = { ...hit, score: 0 };
      Object.defineProperty(item, 'exact', { value: Q.ZERO, enumerable: false, writable: true });
      out.push(item);
    }
    return out;
  },
};

export const SCOPED_FUSION = { name: NAME, version: VERSION, operations: OPERATIONS, pipeline: PIPELINE };
