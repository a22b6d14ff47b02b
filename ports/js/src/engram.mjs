// The engram profile (spec/profiles/engram.md, ENGRAM-*): intent channels, boost, threshold.
import { invalid } from './errors.mjs';
import { loadSpecData } from './data.mjs';
import { fold } from './text.mjs';
import { expandTemporal } from './temporal.mjs';
import { candidate, isAbsent, isObject } from './validate.mjs';

export const ENGRAM_VERSION = '2.0.0';
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
  const patterns = data.patterns.map((p) => ({ name: p.name, rx: new RegExp(p.source) }));
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

// ENGRAM-3: every matching pattern in table order (an array, never a map); the first wins.
export function classify(query) {
  const t = engramTable();
  const text = fold(query);
  const matched = t.patterns.filter((p) => p.rx.test(text)).map((p) => p.name);
  const intent = matched.length > 0 ? matched[0] : t.default;
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

// ENGRAM-8: the valid dates of the folded query, first occurrence order, each once.
export function queryDates(query) {
  const out = [];
  for (const m of fold(query).matchAll(QUERY_DATE)) {
    if (parseDate(m[0]) !== null && !out.includes(m[0])) out.push(m[0]);
  }
  return out;
}

// ENGRAM-8: the written ISO days, then the days the temporal profile resolves against now.
export function queryDays(query, now) {
  const out = queryDates(query);
  for (const hint of expandTemporal(query, now).dateHints) {
    const day = hint.replaceAll('/', '-');
    if (!out.includes(day)) out.push(day);
  }
  return out;
}

const COUNT = /^(?:0|[1-9][0-9]*)$/;
function accessCount(meta) {
  const raw = meta['engram.accessCount'];
  if (typeof raw !== 'string' || !COUNT.test(raw) || raw.length > 16) return 0;
  return BigInt(raw) <= 2n ** 53n - 1n ? Number(raw) : 0;
}

// ENGRAM-6..10 for one item; ENGRAM-11 composes left to right.
function boostOne(id, meta, score, wanted, nowSeconds, halfLife) {
  const raw = meta['engram.date'];
  const parsed = typeof raw === 'string' ? parseDate(raw) : null;
  const dateMatch = parsed !== null && wanted.includes(parsed.day);
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
  const wanted = queryDays(query, opts.now);
  const records = items.map((it) => boostOne(it.id, it.metadata, it.score, wanted, opts.nowSeconds, opts.halfLifeDays));
  const order = records.map((_, i) => i).sort((a, b) => (records[b].score - records[a].score) || (a - b));
  return { queryDates: wanted, results: order.map((i) => records[i]) };
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
  // ENGRAM-14: the pipeline's minimum cross-encoder score; null means no threshold.
  const minScore = isAbsent(obj.minScore) ? null : finite(obj.minScore, `${where}.minScore`);
  return { now: obj.now, nowSeconds: now.seconds, halfLifeDays, minScore };
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
  'engram.threshold'(input) {
    if (isAbsent(input.minScore)) throw invalid('minScore is required');
    const minScore = finite(input.minScore, 'minScore');
    if (!Array.isArray(input.results)) throw invalid('results must be a list');
    const seen = new Set();
    const items = input.results.map((v, i) => {
      if (!isObject(v)) throw invalid(`results[${i}] must be an object`);
      if (typeof v.id !== 'string' || v.id === '') throw invalid(`results[${i}].id must be a non-empty string`);
      if (seen.has(v.id)) throw invalid(`results: repeated id ${JSON.stringify(v.id)}`);
      seen.add(v.id);
      return { id: v.id, rerankScore: isAbsent(v.rerankScore) ? null : finite(v.rerankScore, `results[${i}].rerankScore`) };
    });
    // ENGRAM-14: only items the cross-encoder scored can be removed; equal is kept.
    const gone = (it) => it.rerankScore !== null && it.rerankScore < minScore;
    return { results: items.filter((it) => !gone(it)), removed: items.filter(gone).map((it) => it.id) };
  },
};

// ENGRAM-5, ENGRAM-15: the pipeline hooks.
const PIPELINE = {
  parseRequest(options) {
    return parseOptions(options, 'request.profiles.engram', ['now', 'halfLifeDays', 'minScore']);
  },
  parseBackends(raw) {
    if (!isAbsent(raw)) throw invalid('backends.profiles.engram: the engram profile takes no backend data');
    return undefined;
  },
  // Request weight x class weight, one run-time multiplication per channel.
  adjustWeights(call, query, weights) {
    const c = classify(query);
    const out = { bm25: weights.bm25 * c.weights.bm25, vector: weights.vector * c.weights.vector, graph: weights.graph * c.weights.graph };
    call.trace.intent = c.intent;
    call.trace.matched = c.matched;
    call.trace.weights = { vector: out.vector, bm25: out.bm25, graph: out.graph };
    return out;
  },
  afterFusion(call, query, items) {
    const { queryDates: wanted, results } = boostItems(query, call.options, items.map((it) => ({ id: it.id, metadata: it.metadata ?? {}, score: it.score })));
    call.trace.queryDates = wanted;
    call.trace.boosts = results;
    const byId = new Map(items.map((it) => [it.id, it]));
    return results.map((r) => ({ ...byId.get(r.id), score: r.score }));
  },
  // ENGRAM-14: with minScore, drop what the cross-encoder scored below it, only when it ran.
  afterRerank(call, query, entries, outcome) {
    const ids = entries.map((e) => e.id);
    const minScore = call.options.minScore;
    if (minScore === null) return ids;
    const applied = outcome === 'reranked';
    const gone = (e) => applied && e.rerankScore !== null && e.rerankScore < minScore;
    call.trace.threshold = { minScore, applied, removed: entries.filter(gone).map((e) => e.id) };
    return entries.filter((e) => !gone(e)).map((e) => e.id);
  },
};

engramTable(); // fail loudly at start-up when the data file is missing (ENGRAM-1)

export const ENGRAM_PROFILE = { name: 'engram', version: ENGRAM_VERSION, operations: ENGRAM_OPS, pipeline: PIPELINE };
