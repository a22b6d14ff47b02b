// Profile scoped-fusion (spec/profiles/scoped-fusion.md, SCOPE-*): nexusAI's getFusedEpisodes as
// the operation scoped-fusion.search, the filter operation and seed 002's dense list.
import { invalid } from '../errors.mjs';
import { isObject, isAbsent, requireArray, wholeNumber, candidate, MAX_INTEGER } from '../validate.mjs';
import { lower, compareCodePoints } from '../text.mjs';

export const NAME = 'scoped-fusion';
export const VERSION = '3.0.0';

const FIELDS = new Set(['scopes', 'excludeIds', 'headroom', 'maxWeight']);
export const OUT_OF_SCOPE = 'out_of_scope';
export const EXCLUDED = 'excluded';

// SCOPE-17: a list of non-empty strings (duplicates count once).
function idSet(v, field) {
  requireArray(v, field);
  v.forEach((s, i) => {
    if (typeof s !== 'string' || s === '') throw invalid(`${field}[${i}] must be a non-empty string`);
  });
  return new Set(v);
}

// SCOPE-17: maxWeight is a finite number >= 1.
function maxWeight(v, field) {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 1) throw invalid(`${field} must be a finite number >= 1`);
  return v;
}

// SCOPE-17: validate scopes, excludeIds, headroom and maxWeight; defaults filled in.
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

// SCOPE-3..5, SCOPE-12: why a hit is removed (scope first), or null when it is kept.
export function removalReason(hit, options) {
  if (options.scopes !== null) {
    const scope = Object.hasOwn(hit.metadata, 'scope') ? hit.metadata.scope : null;
    if (scope === null || !options.scopes.has(scope)) return OUT_OF_SCOPE;
  }
  if (options.excludeIds.has(hit.id)) return EXCLUDED;
  return null;
}

// SCOPE-12: drop removed hits, keep the others in order.
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

// SCOPE-17..27: nexusAI's getFusedEpisodes.
const SEARCH_FIELDS = new Set(['query', 'documents', 'legs', 'semanticLimit', 'semanticWeight', 'keywordWeight', ...FIELDS]);
const RRF_K = 60; // SCOPE-24

// SCOPE-19: a finite number in 0..maxWeight; absent or null: the default.
function weight(v, field, fallback, options) {
  if (isAbsent(v)) return fallback;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) throw invalid(`${field} must be a finite number >= 0`);
  if (v > options.maxWeight) throw invalid(`${field}: ${v} is above the maxWeight ${options.maxWeight}`);
  return v;
}

// SCOPE-18: [{id, score?}] best first; distinct ids, each a document's.
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

// SCOPE-20, SCOPE-21: scope inside the search, its limit, then the exclusion.
function runLeg(ranked, limit, docs, options) {
  const scoped = ranked.filter((id) => {
    if (options.scopes === null) return true;
    const meta = docs.get(id).metadata;
    return Object.hasOwn(meta, 'scope') && options.scopes.has(meta.scope);
  });
  const returned = scoped.slice(0, limit);
  const kept = returned.filter((id) => !options.excludeIds.has(id));
  const row = { ran: true, limit, outOfScope: ranked.length - scoped.length, returned: returned.length, excluded: returned.length - kept.length, kept: kept.length };
  return { kept, row };
}

// SCOPE-24, SCOPE-25: fuseEpisodeResults before its cut (a Map, a stable sort).
export function fuseEpisodes(semantic, keyword, sw, kw) {
  const scores = new Map();
  semantic.forEach((id, i) => scores.set(id, sw / (RRF_K + i + 1)));
  keyword.forEach((id, i) => {
    const contrib = kw / (RRF_K + i + 1);
    if (scores.has(id)) scores.set(id, scores.get(id) + contrib);
    else if (contrib > 0) scores.set(id, contrib);
  });
  return [...scores.entries()].sort((x, y) => y[1] - x[1]);
}

function searchOp(input) {
  for (const k of Object.keys(input)) if (!SEARCH_FIELDS.has(k)) throw invalid(`scoped-fusion.search: unknown member ${k}`);
  if (typeof input.query !== 'string') throw invalid('query must be a string');
  const docs = new Map();
  requireArray(input.documents, 'documents').forEach((d, i) => {
    const c = candidate(d, `documents[${i}]`);
    if (docs.has(c.id)) throw invalid(`documents: duplicate id ${JSON.stringify(c.id)}`);
    docs.set(c.id, c);
  });
  const options = parseOptions({ scopes: input.scopes, excludeIds: input.excludeIds, headroom: input.headroom, maxWeight: input.maxWeight }, 'input');
  const sw = weight(input.semanticWeight, 'semanticWeight', 1, options);
  const kw = weight(input.keywordWeight, 'keywordWeight', 0, options);
  if (isAbsent(input.semanticLimit)) throw invalid('semanticLimit is required');
  const limit = wholeNumber(input.semanticLimit, 'semanticLimit');
  const legs = input.legs;
  if (!isObject(legs)) throw invalid('legs must be an object {semantic: [...], keyword?: [...]}');
  for (const k of Object.keys(legs)) if (k !== 'semantic' && k !== 'keyword') throw invalid(`legs: unknown leg ${k}`);
  if (isAbsent(legs.semantic)) throw invalid('legs.semantic is required');
  const semanticRanked = rankedList(legs.semantic, 'legs.semantic', docs);
  const keywordRanked = isAbsent(legs.keyword) ? null : rankedList(legs.keyword, 'legs.keyword', docs);
  const keywordRuns = kw !== 0; // SCOPE-23
  if (keywordRuns && keywordRanked === null) throw invalid('legs.keyword is required when keywordWeight is above 0');
  const semantic = runLeg(semanticRanked, limit, docs, options);
  let keyword = { kept: [], row: { ran: false } };
  if (keywordRuns) keyword = runLeg(keywordRanked, Math.min(limit * options.headroom, MAX_INTEGER), docs, options); // SCOPE-22
  const fused = fuseEpisodes(semantic.kept, keyword.kept, sw, kw);
  return {
    results: fused.slice(0, limit).map(([id, score]) => ({ id, path: docs.get(id).path, score })), // SCOPE-26
    trace: { semantic: semantic.row, keyword: keyword.row, fusion: { k: RRF_K, semanticWeight: sw, keywordWeight: kw, fused: fused.length } },
  };
}

export const OPERATIONS = { 'scoped-fusion.search': searchOp, 'scoped-fusion.filter': filterOp, 'scoped-fusion.dense_hits': denseHitsOp };

export const SCOPED_FUSION = { name: NAME, version: VERSION, operations: OPERATIONS };
