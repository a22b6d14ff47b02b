// Profile scoped-fusion (spec/profiles/scoped-fusion.md, SCOPE-*): the weight range, scoping of
// every leg by metadata.scope, the excludeIds exclusion before fusion, the BM25 headroom.
import { invalid } from '../errors.mjs';
import { isObject, isAbsent, requireArray, wholeNumber, candidate, MAX_INTEGER } from '../validate.mjs';

export const NAME = 'scoped-fusion';
export const VERSION = '1.0.0';

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

export const OPERATIONS = { 'scoped-fusion.filter': filterOp };
