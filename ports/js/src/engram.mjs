// The engram profile (spec/profiles/engram.md, ENGRAM-*): intent channels, boost, engram.search.
import { invalid } from './errors.mjs';
import { loadSpecData } from './data.mjs';
import { fold } from './text.mjs';
import { candidate, isAbsent, isObject } from './validate.mjs';

export const ENGRAM_VERSION = '3.0.0';
const DATA_FILE = 'profiles/engram/intent.json';
const CHANNELS = ['vector', 'bm25', 'graph'];

let TABLE = null;
// ENGRAM-1: load the seed's table (never retyped); a missing or malformed file fails loudly.
export function engramTable() {
  if (TABLE !== null) return TABLE;
  const data = loadSpecData(DATA_FILE);
  if (!Array.isArray(data.patterns) || typeof data.default !== 'string' || !isObject(data.weights)) {
    throw new Error(`hrc-js: ${DATA_FILE} is malformed`);
  }
  // ENGRAM-2: no flag (never `u`): ASCII \b; the seed's capturing groups only group.
  const patterns = data.patterns.map((p) => ({ name: p.name, rx: new RegExp(p.source), rxAll: new RegExp(p.source, 'g') }));
  const weights = {};
  for (const name of [...patterns.map((p) => p.name), data.default]) {
    const row = data.weights[name];
    if (!isObject(row)) throw new Error(`hrc-js: ${DATA_FILE}: no weights for ${name}`);
    weights[name] = {};
    for (const ch of CHANNELS) {
      if (typeof row[ch] !== 'number' || !(row[ch] >= 0)) throw new Error(`hrc-js: ${DATA_FILE}: bad weight ${name}.${ch}`);
      weights[name][ch] = row[ch];
    }
  }
  TABLE = { patterns, default: data.default, weights };
  return TABLE;
}

// ENGRAM-3: each pattern's count of non-overlapping matches, in table order (an array, never
// a map); the most matches win, ties to table order; matched lists every pattern that matched.
export function classify(query) {
  const t = engramTable();
  const text = fold(query);
  const counts = t.patterns.map((p) => [...text.matchAll(p.rxAll)].length);
  const matched = t.patterns.filter((_, i) => counts[i] > 0).map((p) => p.name);
  const best = Math.max(0, ...counts);
  const intent = best > 0 ? t.patterns[counts.indexOf(best)].name : t.default;
  return { intent, matched, weights: { ...t.weights[intent] } };
}

// ENGRAM-7: dates in integers only (Date.UTC reads years 0..99 as 1900..1999).
const FORM = /^([0-9]{4})-([0-9]{2})-([0-9]{2})(?:T([0-9]{2}):([0-9]{2}):([0-9]{2})Z)?$/;
const QUERY_DATE = /\b[0-9]{4}-[0-9]{2}-[0-9]{2}\b/g;

function daysInMonth(y, m) {
  if (m === 2) return (y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0)) ? 29 : 28;
  return [4, 6, 9, 11].includes(m) ? 30 : 31;
}

function daysFromCivil(year, month, day) {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const mp = (month + 9) % 12;
  const doy = Math.floor((153 * mp + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

export function parseDate(text) {
  const m = FORM.exec(text);
  if (m === null) return null;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  let [hh, mm, ss] = [0, 0, 0];
  if (m[4] !== undefined) {
    [hh, mm, ss] = [Number(m[4]), Number(m[5]), Number(m[6])];
    if (hh > 23 || mm > 59 || ss > 59) return null;
  }
  return { day: text.slice(0, 10), seconds: daysFromCivil(year, month, day) * 86400 + hh * 3600 + mm * 60 + ss };
}

// ENGRAM-8: engram's temporal signal (raya-ac/engram engram/retrieval.py:422-442, a7527a1,
// MIT) in engram's order, on the ASCII-lowered normalised query; \d read as [0-9], \b ASCII.
const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august',
  'september', 'october', 'november', 'december'];
const MONTH = `(${MONTHS.join('|')})`;
const SIGNAL_PATTERNS = [
  /\b([0-9]{4}-[0-9]{2}-[0-9]{2})\b/,
  /\b([0-9]{4}-[0-9]{2})\b/,
  new RegExp(`\\b${MONTH} ([0-9]{4})\\b`),
  new RegExp(`\\b${MONTH} ([0-9]{1,2})\\b`),
];
const MONTH_DAY_YEAR = '2026'; // the code's fixed year for `month D`, verbatim

export function querySignal(normalized) {
  const text = normalized.replace(/[A-Z]/g, (c) => c.toLowerCase());
  for (let i = 0; i < SIGNAL_PATTERNS.length; i++) {
    const m = SIGNAL_PATTERNS[i].exec(text);
    if (m === null) continue;
    if (i < 2) return m[1];
    const month = String(MONTHS.indexOf(m[1]) + 1).padStart(2, '0');
    if (i === 2) return `${m[2]}-${month}`;
    return `${MONTH_DAY_YEAR}-${month}-${String(Number(m[2])).padStart(2, '0')}`;
  }
  return null;
}

// Python's str.split() whitespace (ENGRAM-16).
const PY_SPACE = /[\t\n\v\f\r \u001c-\u001f\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/;

const COUNT = /^(?:0|[1-9][0-9]*)$/;
function accessCount(meta) {
  const raw = meta['engram.accessCount'];
  if (typeof raw !== 'string' || !COUNT.test(raw) || raw.length > 16) return 0;
  return BigInt(raw) <= 2n ** 53n - 1n ? Number(raw) : 0;
}

// ENGRAM-6..10 for one item; ENGRAM-11 composes left to right.
function boostOne(id, meta, score, signal, nowSeconds, halfLife) {
  const raw = meta['engram.date'];
  const parsed = typeof raw === 'string' ? parseDate(raw) : null;
  // ENGRAM-8: the signal found in the fact date (a substring test, as engram's `in`).
  const fact = meta['engram.factDate'];
  const dateMatch = signal !== null && typeof fact === 'string' && fact.includes(signal);
  const ageDays = parsed !== null ? Math.max(0, nowSeconds - parsed.seconds) / 86400 : null;
  let recency = 1.0;
  if (ageDays !== null && meta['engram.kind'] === 'episodic') {
    const decayed = Math.exp((-0.693 * ageDays) / halfLife);
    recency = decayed > 0.5 ? decayed : 0.5;
  }
  const access = 1.0 + 0.1 * Math.log(1.0 + accessCount(meta));
  const date = dateMatch ? 2.0 : 1.0;
  const boosted = ((score * date) * recency) * access;
  return { id, score: boosted, dateMatch, ageDays, recency, access };
}

export function boostItems(query, opts, items) {
  const wanted = querySignal(query.split(PY_SPACE).filter((w) => w !== '').join(' '));
  const records = items.map((it) => boostOne(it.id, it.metadata, it.score, wanted, opts.nowSeconds, opts.halfLifeDays));
  const order = records.map((_, i) => i).sort((a, b) => (records[b].score - records[a].score) || (a - b));
  return { querySignal: wanted, results: order.map((i) => records[i]) };
}

function finite(v, what) {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw invalid(`${what} must be a finite number`);
  return v;
}

// ENGRAM-7, ENGRAM-13, ENGRAM-15: options, validated before anything runs.
export function parseOptions(obj, where, allowed) {
  for (const k of Object.keys(obj)) if (!allowed.includes(k)) throw invalid(`${where}.${k}: unknown field`);
  if (typeof obj.now !== 'string') throw invalid(`${where}.now must be a date string`);
  const now = parseDate(obj.now);
  if (now === null) throw invalid(`${where}.now: not YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ`);
  let halfLifeDays = 30;
  if (!isAbsent(obj.halfLifeDays)) {
    halfLifeDays = finite(obj.halfLifeDays, `${where}.halfLifeDays`);
    if (!(halfLifeDays > 0)) throw invalid(`${where}.halfLifeDays must be > 0`);
  }
  return { now: obj.now, nowSeconds: now.seconds, halfLifeDays };
}

function requireQuery(input) {
  if (typeof input.query !== 'string') throw invalid('query must be a string');
  return input.query;
}

export const ENGRAM_OPS = {
  'engram.classify'(input) {
    return classify(requireQuery(input));
  },
  'engram.boost'(input) {
    const query = requireQuery(input);
    const opts = parseOptions({ now: input.now, halfLifeDays: input.halfLifeDays }, 'input', ['now', 'halfLifeDays']);
    if (!Array.isArray(input.results)) throw invalid('results must be a list');
    const seen = new Set();
    const items = input.results.map((v, i) => {
      const c = candidate(v, `results[${i}]`);
      if (seen.has(c.id)) throw invalid(`results: repeated id ${JSON.stringify(c.id)}`);
      seen.add(c.id);
      return { id: c.id, metadata: c.metadata, score: finite(v.score, `results[${i}].score`) };
    });
    return boostItems(query, opts, items);
  },
};

engramTable(); // fail loudly at start-up when the data file is missing (ENGRAM-1)

// ENGRAM-16..26: engram.search, engram's own pipeline over scripted ranked lists.
const LEGS = ['vector', 'bm25', 'graph', 'hopfield'];
// ENGRAM-18: raya-ac/engram engram/retrieval.py:150 (a7527a1, MIT): weights.get("hopfield", 0.6).
const HOPFIELD_WEIGHT = 0.6;
const SEARCH_INPUT = ['query', 'documents', 'legs', 'now', 'halfLifeDays', 'rrfK', 'topK',
  'rerankCandidates', 'crossEncoder', 'noise', 'minConfidence'];
const MAX_INT = 2 ** 31 - 1;

function intOption(input, name, dflt, low) {
  const v = input[name];
  if (isAbsent(v)) return dflt;
  if (typeof v !== 'number' || !Number.isInteger(v)) throw invalid(`${name} must be an integer`);
  if (v < low || v > MAX_INT) throw invalid(`${name} must be between ${low} and ${MAX_INT}`);
  return v;
}

function searchLegs(raw, docs) {
  if (isAbsent(raw)) raw = {};
  if (!isObject(raw)) throw invalid('legs must be an object');
  for (const name of Object.keys(raw)) if (!LEGS.includes(name)) throw invalid(`legs.${name}: unknown leg`);
  const out = {};
  for (const name of LEGS) {
    const v = raw[name];
    const ids = [];
    out[name] = ids;
    if (isAbsent(v)) continue;
    // ENGRAM-18: a failed Hopfield channel is no list; no other leg has an error rule.
    if (name === 'hopfield' && isObject(v) && typeof v.error === 'string') continue;
    if (!Array.isArray(v)) throw invalid(`legs.${name} must be a list of hits`);
    for (const hit of v) {
      if (!isObject(hit) || typeof hit.id !== 'string') throw invalid(`legs.${name}: each hit is an object with a string id`);
      if (!isAbsent(hit.score)) finite(hit.score, `legs.${name}: score`);
      if (!docs.has(hit.id)) throw invalid(`legs.${name}: ${JSON.stringify(hit.id)} is not in documents`);
      if (ids.includes(hit.id)) throw invalid(`legs.${name}: repeated id ${JSON.stringify(hit.id)}`);
      ids.push(hit.id);
    }
  }
  return out;
}

// ENGRAM-17: acc[id] = acc[id] + w * (1 / (k + r + 1)), lists in LEGS order; then by score
// descending, ties in order of first appearance (a Map keeps insertion order).
export function engramFuse(lists, weights, k) {
  const acc = new Map();
  for (const name of LEGS) {
    const w = weights[name];
    lists[name].forEach((id, rank) => {
      acc.set(id, (acc.has(id) ? acc.get(id) : 0.0) + w * (1.0 / (k + rank + 1)));
    });
  }
  const entries = [...acc.entries()].map(([id, score], i) => ({ id, score, i }));
  entries.sort((a, b) => (b.score - a.score) || (a.i - b.i));
  return entries.map(({ id, score }) => ({ id, score }));
}

function scoresById(raw, what) {
  if (isAbsent(raw)) return null;
  if (!isObject(raw)) throw invalid(`${what} must be an object of numbers by id`);
  const out = new Map();
  for (const [id, v] of Object.entries(raw)) {
    if (typeof v !== 'number' || !Number.isFinite(v)) throw invalid(`${what} of ${JSON.stringify(id)} must be a finite number`);
    out.set(id, v);
  }
  return out;
}

function stableDesc(list) {
  return list.map((x, i) => ({ ...x, i })).sort((a, b) => (b.score - a.score) || (a.i - b.i)).map(({ id, score }) => ({ id, score }));
}

export function engramSearch(input) {
  for (const k of Object.keys(input)) if (!SEARCH_INPUT.includes(k)) throw invalid(`input.${k}: unknown field`);
  const query = requireQuery(input);
  const opts = parseOptions({ now: input.now, halfLifeDays: input.halfLifeDays }, 'input', ['now', 'halfLifeDays']);
  const rrfK = intOption(input, 'rrfK', 60, 0);
  const topK = intOption(input, 'topK', 10, 1);
  const headN = intOption(input, 'rerankCandidates', 20, 1);
  const minConf = isAbsent(input.minConfidence) ? 0.60 : finite(input.minConfidence, 'minConfidence');
  if (!Array.isArray(input.documents)) throw invalid('documents must be a list');
  const docs = new Map();
  input.documents.forEach((v, i) => {
    const c = candidate(v, `documents[${i}]`);
    if (docs.has(c.id)) throw invalid(`documents: repeated id ${JSON.stringify(c.id)}`);
    docs.set(c.id, c);
  });
  const lists = searchLegs(input.legs, docs);
  const noise = scoresById(input.noise, 'noise') ?? new Map();
  const ceRaw = scoresById(input.crossEncoder, 'crossEncoder');

  // ENGRAM-16: whitespace collapsed (Python's str.split() whitespace), then the class.
  const normalized = query.split(PY_SPACE).filter((w) => w !== '').join(' ');
  const c = classify(normalized);
  const weights = { vector: c.weights.vector, bm25: c.weights.bm25, graph: c.weights.graph, hopfield: HOPFIELD_WEIGHT };
  const fused = engramFuse(lists, weights, rrfK);
  const head = fused.slice(0, headN); // ENGRAM-19: before the boost; the rest goes
  const { querySignal: wanted, results: boosts } = boostItems(normalized, opts,
    head.map((h) => ({ id: h.id, metadata: docs.get(h.id).metadata ?? {}, score: h.score })));
  let ranked;
  if (ceRaw !== null) {
    for (const b of boosts) if (!ceRaw.has(b.id)) throw invalid(`crossEncoder: no score for head candidate ${JSON.stringify(b.id)}`);
    ranked = stableDesc(boosts.map((b) => ({ id: b.id, score: ceRaw.get(b.id) })));
  } else {
    ranked = boosts.map((b) => ({ id: b.id, score: b.score }));
  }
  // ENGRAM-22, ENGRAM-23: the topK cut, then score + deviate clamped at 0, re-sorted stably.
  let results = stableDesc(ranked.slice(0, topK).map((r) => {
    const x = r.score + (noise.has(r.id) ? noise.get(r.id) : 0.0);
    return { id: r.id, score: x > 0 ? x : 0.0 };
  }));
  // ENGRAM-24: only after the cross-encoder, only when minConfidence > 0; equal is kept.
  const applied = ceRaw !== null && results.length > 0 && minConf > 0;
  const removed = applied ? results.filter((r) => r.score < minConf).map((r) => r.id) : [];
  if (applied) results = results.filter((r) => !(r.score < minConf));
  return {
    results: results.map((r) => ({ id: r.id, path: docs.get(r.id).path, score: r.score })),
    trace: {
      intent: c.intent, matched: c.matched, weights, fused, head: head.map((h) => h.id),
      querySignal: wanted, boosts, crossEncoder: ceRaw !== null,
      threshold: { minConfidence: minConf, applied, removed },
    },
  };
}
ENGRAM_OPS['engram.search'] = engramSearch;

export const ENGRAM_PROFILE = { name: 'engram', version: ENGRAM_VERSION, operations: ENGRAM_OPS };
