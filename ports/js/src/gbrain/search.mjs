// Profile gbrain: `gbrain.search`, seed 004's "Putting it together" stage by stage
// (spec/profiles/gbrain.md GBRAIN-28..39): intent -> expansion -> hybrid (legs, hard
// excludes, source-aware re-rank, RRF) -> top 30 -> graph augment -> reranker -> token
// budget -> dedup. Only the core's RRF is shared; no jeffs-brain stage runs.
import { invalid } from '../errors.mjs';
import { loadSpecData } from '../data.mjs';
import { cpLength } from '../text.mjs';
import { candidate, isObject, wholeNumber } from '../validate.mjs';
import { classify, intentTable, legKs } from './routing.mjs';
import { extractLinks, pageOfPath } from './links.mjs';
import { augmentWalk, walkOptions } from './augment.mjs';
import { edgesFromJson } from './traverse.mjs';

const TOP = 30; // GBRAIN-25
const LEG_NAMES = ['vector', 'keyword'];
const FIELDS = new Set(['query', 'documents', 'legs', 'variants', 'edges', 'rerank', 'exclude', 'boost', 'dedup',
  'tokenBudget', 'bundle', 'expansion', 'reranker', 'limit', 'graph', 'depth', 'types', 'direction']);
const MAX_VARIANTS = 8;
// GBRAIN-39: garrytan/gbrain src/core/search/mode.ts, and its DEFAULT_SEARCH_MODE.
export const BUNDLES = {
  conservative: { expansion: false, reranker: false, tokenBudget: 4000, limit: 10, graph: false },
  balanced: { expansion: false, reranker: true, tokenBudget: 12000, limit: 25, graph: true },
  tokenmax: { expansion: true, reranker: true, tokenBudget: null, limit: 50, graph: true },
};
const DEFAULT_BUNDLE = 'balanced';

let sourcesDoc = null;
export function sources() {
  if (sourcesDoc !== null) return sourcesDoc;
  const doc = loadSpecData('profiles/gbrain/sources.json');
  if (!Array.isArray(doc.exclude) || !isObject(doc.boost)) throw new Error('hrc-js: profiles/gbrain/sources.json needs exclude and boost');
  sourcesDoc = doc;
  return doc;
}

// GBRAIN-30: [[prefix, factor]] longest prefix first; factors finite and >= 0.
export function boostMap(raw, where) {
  if (!isObject(raw)) throw invalid(`${where} must be an object`);
  const out = [];
  for (const [prefix, factor] of Object.entries(raw)) {
    if (prefix === '') throw invalid(`${where}: a prefix must not be empty`);
    if (typeof factor !== 'number' || !Number.isFinite(factor) || factor < 0) {
      throw invalid(`${where}.${prefix} must be a finite number >= 0`);
    }
    out.push([prefix, factor]);
  }
  return out.sort((a, b) => cpLength(b[0]) - cpLength(a[0]));
}

const isNull = (v) => v === undefined || v === null;

function flag(obj, name, dflt) {
  const v = obj[name];
  if (isNull(v)) return dflt;
  if (typeof v !== 'boolean') throw invalid(`${name} must be a boolean`);
  return v;
}

function parseLeg(raw, where, docs) {
  if (isObject(raw) && Object.keys(raw).length === 1 && Object.hasOwn(raw, 'error')) {
    if (typeof raw.error !== 'string') throw invalid(`${where}.error must be a string`);
    return { hits: [], error: raw.error };
  }
  if (!Array.isArray(raw)) throw invalid(`${where} must be a list of {id, score} or {error}`);
  const seen = new Set();
  const hits = raw.map((e, i) => {
    if (!isObject(e) || Object.keys(e).length !== 2 || !Object.hasOwn(e, 'id') || !Object.hasOwn(e, 'score')) {
      throw invalid(`${where}[${i}] must be {id, score}`);
    }
    if (typeof e.id !== 'string' || !docs.has(e.id) || seen.has(e.id)) throw invalid(`${where}[${i}].id must be a distinct id of documents`);
    if (typeof e.score !== 'number' || !Number.isFinite(e.score)) throw invalid(`${where}[${i}].score must be a finite number`);
    seen.add(e.id);
    return { doc: docs.get(e.id), score: e.score };
  });
  return { hits, error: null };
}

function parseLegs(raw, where, docs) {
  if (!isObject(raw) || !Object.keys(raw).every((k) => LEG_NAMES.includes(k))) {
    throw invalid(`${where} must be an object with members among vector, keyword`);
  }
  const out = {};
  for (const name of LEG_NAMES) if (Object.hasOwn(raw, name)) out[name] = parseLeg(raw[name], `${where}.${name}`, docs);
  return out;
}

function parseQuery(raw, where) {
  if (typeof raw !== 'string') throw invalid(`${where} must be a string`);
  return raw;
}

// GBRAIN-28, GBRAIN-39: every member checked before any stage runs.
export function parseSearch(obj) {
  for (const key of Object.keys(obj)) if (!FIELDS.has(key)) throw invalid(`unknown member ${key}`);
  if (!Array.isArray(obj.documents)) throw invalid('documents must be a list');
  const documents = obj.documents.map((d, i) => candidate(d, `documents[${i}]`));
  const docs = new Map();
  documents.forEach((d, i) => {
    if (docs.has(d.id)) throw invalid(`documents[${i}]: repeated id ${d.id}`);
    if (pageOfPath(d.path) === null) throw invalid(`documents[${i}]: path names no page`);
    docs.set(d.id, d);
  });
  const variants = [{ query: parseQuery(obj.query, 'query'), legs: parseLegs(obj.legs, 'legs', docs) }];
  if (!isNull(obj.variants)) {
    if (!Array.isArray(obj.variants) || obj.variants.length > MAX_VARIANTS) throw invalid(`variants must be a list of at most ${MAX_VARIANTS}`);
    obj.variants.forEach((v, i) => {
      const keys = isObject(v) ? Object.keys(v).sort() : [];
      if (keys.length !== 2 || keys[0] !== 'legs' || keys[1] !== 'query') throw invalid(`variants[${i}] must be {query, legs}`);
      variants.push({ query: parseQuery(v.query, `variants[${i}].query`), legs: parseLegs(v.legs, `variants[${i}]`, docs) });
    });
  }
  let exclude = obj.exclude;
  if (isNull(exclude)) exclude = sources().exclude;
  else if (!Array.isArray(exclude) || !exclude.every((p) => typeof p === 'string' && p !== '')) {
    throw invalid('exclude must be a list of non-empty strings');
  }
  const boost = boostMap(isNull(obj.boost) ? sources().boost : obj.boost, 'boost');
  const bundle = isNull(obj.bundle) ? DEFAULT_BUNDLE : obj.bundle;
  if (typeof bundle !== 'string' || !Object.hasOwn(BUNDLES, bundle)) throw invalid('bundle must be conservative, balanced or tokenmax');
  const preset = BUNDLES[bundle];
  let rerank = null;
  if (!isNull(obj.rerank)) {
    if (isObject(obj.rerank) && Object.keys(obj.rerank).length === 1 && typeof obj.rerank.error === 'string') rerank = { error: obj.rerank.error };
    else if (Array.isArray(obj.rerank) && obj.rerank.every((r) => typeof r === 'string')) rerank = { order: obj.rerank };
    else throw invalid('rerank must be a list of ids or {error}');
  }
  const edges = isNull(obj.edges)
    ? documents.flatMap((d) => extractLinks(d.path, d.content).edges)
    : edgesFromJson(obj.edges, 'edges');
  return {
    variants,
    documents,
    edges,
    rerank,
    exclude: [...exclude],
    boost,
    dedup: flag(obj, 'dedup', true),
    bundle,
    expansion: flag(obj, 'expansion', preset.expansion),
    reranker: flag(obj, 'reranker', preset.reranker),
    tokenBudget: isNull(obj.tokenBudget) ? preset.tokenBudget : wholeNumber(obj.tokenBudget, 'tokenBudget', { min: 1 }),
    limit: isNull(obj.limit) ? preset.limit : wholeNumber(obj.limit, 'limit', { min: 1, max: 1000 }),
    graph: flag(obj, 'graph', preset.graph),
    walk: walkOptions(obj, ''),
  };
}

const excluded = (req, path) => req.exclude.some((p) => path.startsWith(p));

// GBRAIN-17: a document's page.
export function pageKey(doc) {
  return pageOfPath(doc.path) ?? doc.path;
}

// GBRAIN-16, GBRAIN-30: drop excluded hits, factor the scores, order by them (ties as given).
export function rerankLeg(req, hits, bypass) {
  const kept = hits.filter((h) => !excluded(req, h.doc.path));
  if (bypass || req.boost.length === 0) return kept;
  const rows = kept.map((h, pos) => {
    const hit = req.boost.find(([p]) => h.doc.path.startsWith(p));
    return { pos, hit: { doc: h.doc, score: hit ? h.score * hit[1] : h.score } };
  });
  rows.sort((a, b) => (b.hit.score - a.hit.score) || (a.pos - b.pos));
  return rows.map((r) => r.hit);
}

// GBRAIN-31: gbrain's rrfFusionWeighted. Rank r (from 0) of a list fused at k adds 1 / (k + r);
// sums in list order; each divided by the largest; score descending, ties in first-seen order.
export function rrf(lists) {
  const sums = new Map();
  for (const { docs, k } of lists) {
    docs.forEach((doc, rank) => {
      const share = 1 / (k + rank);
      const seen = sums.get(doc.id);
      if (seen) seen.score += share;
      else sums.set(doc.id, { doc, score: share });
    });
  }
  if (sums.size === 0) return { items: [], divisor: 1 };
  let top = -Infinity;
  for (const e of sums.values()) if (e.score > top) top = e.score;
  const items = [...sums.values()].map((e) => ({ doc: e.doc, score: e.score / top, source: 'fused' }));
  items.sort((a, b) => b.score - a.score);
  return { items, divisor: top };
}

// GBRAIN-31: each leg re-ranked, then gbrain's RRF of the two, vector first, at k / the class's
// leg weight; a failed vector leg leaves the keyword leg's own (factored) scores, unfused.
function hybrid(req, variant, intent, trace) {
  const bypass = intent === 'temporal';
  const legs = {};
  const kept = {};
  for (const name of LEG_NAMES) {
    const leg = variant.legs[name] ?? { hits: [], error: null };
    if (leg.error !== null) {
      legs[name] = { error: leg.error };
      kept[name] = null;
      continue;
    }
    const hits = rerankLeg(req, leg.hits, bypass);
    legs[name] = { hits: hits.length };
    kept[name] = hits;
  }
  trace.variants.push({ query: variant.query, legs });
  const keyword = kept.keyword ?? [];
  if (kept.vector === null) {
    return { items: keyword.map((h) => ({ doc: h.doc, score: h.score, source: 'fused' })), divisor: 1 };
  }
  const [vectorK, keywordK] = legKs(intent);
  return rrf([{ docs: kept.vector.map((h) => h.doc), k: vectorK }, { docs: keyword.map((h) => h.doc), k: keywordK }]);
}

// GBRAIN-32: the query's fused list, or the RRF merge of every variant's at gbrain's k.
function fusedList(req, intent, trace) {
  const variants = req.expansion ? req.variants : req.variants.slice(0, 1);
  const per = variants.map((v) => hybrid(req, v, intent, trace));
  if (per.length === 1) return per[0];
  const k = intentTable().rrfK;
  return rrf(per.map((f) => ({ docs: f.items.map((it) => it.doc), k })));
}

// GBRAIN-24, GBRAIN-34, GBRAIN-35, GBRAIN-40: walk the stored edges from the pages of the top 30;
// the walk's list is one more ranked list, w / (k + r) / M to each reached page's first document.
function augment(req, fusion, intent, trace) {
  const head = fusion.items.slice(0, TOP);
  if (!req.graph) {
    trace.graph = { seeds: 0, reached: 0, added: [] };
    return head;
  }
  const firstDoc = new Map();
  for (const d of req.documents) {
    if (excluded(req, d.path)) continue;
    const key = pageKey(d);
    if (!firstDoc.has(key)) firstDoc.set(key, d);
  }
  const stored = req.edges.filter((e) => firstDoc.has(e.from) && firstDoc.has(e.to));
  const present = new Set(head.map((it) => pageKey(it.doc)));
  const seeds = [...present].filter((p) => firstDoc.has(p));
  const reached = augmentWalk(stored, seeds, req.walk, req.limit);
  const table = intentTable();
  const weight = intent === 'entity' ? table.entityGraphFactor : 1;
  const fusedIds = new Set(head.map((it) => it.doc.id));
  const raised = new Map();
  const added = [];
  reached.forEach((r, rank) => {
    const doc = firstDoc.get(r.page);
    const share = weight / (table.rrfK + rank) / fusion.divisor;
    if (fusedIds.has(doc.id)) raised.set(doc.id, (raised.get(doc.id) ?? 0) + share);
    else added.push({ doc, score: share, source: 'graph' });
  });
  const pages = new Set([...seeds, ...reached.map((r) => r.page)]);
  trace.graph = { seeds: seeds.length, reached: pages.size, added: added.map((it) => it.doc.id) };
  const fused = head.map((it) => (raised.has(it.doc.id) ? { ...it, score: it.score + raised.get(it.doc.id) } : it));
  const rows = [...fused.map((it, i) => ({ it, g: 0, i })), ...added.map((it, i) => ({ it, g: 1, i }))];
  rows.sort((a, b) => (b.it.score - a.it.score) || (a.g - b.g) || (a.i - b.i));
  return rows.map((r) => r.it);
}

// GBRAIN-36: the cross-encoder's order of the first 30; the rest after them.
function rerankStage(req, items, trace) {
  if (!req.reranker) { trace.rerank = 'disabled'; return items; }
  if (req.rerank === null) { trace.rerank = 'absent'; return items; }
  if (Object.hasOwn(req.rerank, 'error')) { trace.rerank = 'failed'; return items; }
  const head = items.slice(0, TOP);
  const byId = new Map(head.map((it) => [it.doc.id, it]));
  const order = [];
  for (const id of req.rerank.order) {
    if (byId.has(id)) { order.push(byId.get(id)); byId.delete(id); }
  }
  for (const it of head) if (byId.has(it.doc.id)) order.push(it);
  trace.rerank = 'reranked';
  return [...order, ...items.slice(TOP)];
}

// GBRAIN-37: ceil(UTF-16 length / 4) of the title plus that of the content.
export function tokens(doc) {
  return Math.ceil((doc.title ?? '').length / 4) + Math.ceil((doc.content ?? '').length / 4);
}

function withinBudget(budget, items, trace) {
  if (budget === null) return items;
  let used = 0;
  let kept = 0;
  for (const it of items) {
    const cost = tokens(it.doc);
    if (used + cost > budget) break;
    used += cost;
    kept += 1;
  }
  if (kept === 0 && items.length > 0) {
    // The code's minKeep failsafe: the first item alone, cut to fit.
    trace.budget = { limit: budget, used: cutCost(items[0].doc, budget), dropped: items.length - 1, truncated: true };
    return items.slice(0, 1);
  }
  trace.budget = { limit: budget, used, dropped: items.length - kept };
  return items.slice(0, kept);
}

// GBRAIN-37: the cost of an item cut to fit: title to 4 x budget units, content to what is left.
function cutCost(doc, budget) {
  const title = Math.min((doc.title ?? '').length, 4 * budget);
  const titleTokens = Math.ceil(title / 4);
  const content = Math.min((doc.content ?? '').length, Math.max(0, budget - titleTokens) * 4);
  return titleTokens + Math.ceil(content / 4);
}

// GBRAIN-17: the first item of each page, in the reranked order.
function dedup(items, trace) {
  const seen = new Set();
  const out = [];
  for (const it of items) {
    const key = pageKey(it.doc);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(it);
  }
  trace.dedup = { removed: items.length - out.length };
  return out;
}

export function search(req) {
  const intent = classify(req.variants[0].query);
  const trace = {
    intent,
    bundle: { name: req.bundle, expansion: req.expansion, reranker: req.reranker, graph: req.graph, tokenBudget: req.tokenBudget, limit: req.limit },
    variants: [],
  };
  const fusion = fusedList(req, intent, trace);
  trace.fused = fusion.items.length;
  let items = augment(req, fusion, intent, trace);
  items = rerankStage(req, items, trace);
  items = withinBudget(req.tokenBudget, items, trace);
  if (req.dedup) items = dedup(items, trace);
  const results = items.slice(0, req.limit).map((it) => ({ id: it.doc.id, path: it.doc.path, score: it.score, source: it.source }));
  return { results, trace };
}

export function opSearch(input) {
  return search(parseSearch(input));
}
