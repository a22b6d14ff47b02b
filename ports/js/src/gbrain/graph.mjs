// Profile gbrain: the graph backend supplied to the core's graph leg (GBRAIN-13..15).
import { invalid } from '../errors.mjs';
import { loadSpecData } from '../data.mjs';
import { compareCodePoints, cpLength, normalise, words } from '../text.mjs';
import * as Q from '../rational.mjs';
import { classify, routeWeights } from './routing.mjs';
import { candidate, isObject, wholeNumber } from '../validate.mjs';
import { extractLinks, pageOfPath } from './links.mjs';
import { edgesFromJson, traverse, walkOptions } from './traverse.mjs';

const OPTION_FIELDS = new Set(['depth', 'fanout', 'types', 'direction', 'exclude', 'dedup', 'boost', 'tokenBudget', 'variants', 'bundle', 'expansion', 'reranker']);
// GBRAIN-26 (expansion, the balanced reranker: seed 004) and GBRAIN-27 (the rest: the kit's).
export const BUNDLES = {
  conservative: { expansion: false, reranker: false, tokenBudget: 4000 },
  balanced: { expansion: false, reranker: true, tokenBudget: 8000 },
  tokenmax: { expansion: true, reranker: true, tokenBudget: 16000 },
};
const MAX_VARIANTS = 8; // GBRAIN-22
const MAX_INTEGER = 2 ** 31 - 1;

// GBRAIN-16: seed 004's hard-exclude prefixes.
export function defaultExcludes() {
  const doc = loadSpecData('profiles/gbrain/sources.json');
  if (!Array.isArray(doc.exclude)) throw new Error('hrc-js: profiles/gbrain/sources.json has no exclude list');
  return doc.exclude;
}

// GBRAIN-13: request.profiles.gbrain.
export function parseOptions(obj) {
  const where = 'request.profiles.gbrain';
  for (const key of Object.keys(obj)) {
    if (!OPTION_FIELDS.has(key)) throw invalid(`${where}: unknown option ${key}`);
  }
  let exclude = obj.exclude;
  if (exclude === undefined || exclude === null) exclude = defaultExcludes();
  else if (!Array.isArray(exclude) || !exclude.every((p) => typeof p === 'string' && p !== '')) {
    throw invalid(`${where}.exclude must be a list of non-empty strings`);
  }
  const bundle = obj.bundle ?? null;
  if (bundle !== null && !Object.hasOwn(BUNDLES, bundle)) throw invalid(`${where}.bundle must be conservative, balanced or tokenmax`);
  const preset = bundle === null ? null : BUNDLES[bundle];
  const flag = (name, dflt) => {
    const v = obj[name];
    if (v === undefined || v === null) return dflt;
    if (typeof v !== 'boolean') throw invalid(`${where}.${name} must be a boolean`);
    return v;
  };
  const dedup = flag('dedup', true);
  let tokenBudget = obj.tokenBudget === undefined || obj.tokenBudget === null
    ? null
    : wholeNumber(obj.tokenBudget, `${where}.tokenBudget`, { min: 1 });
  if (tokenBudget === null && preset !== null) tokenBudget = preset.tokenBudget;
  return {
    walk: walkOptions(obj, `${where}.`),
    exclude: [...exclude],
    dedup,
    boost: boostMap(obj.boost, `${where}.boost`),
    tokenBudget,
    variants: parseVariants(obj.variants, `${where}.variants`),
    bundle,
    expansion: flag('expansion', preset === null ? true : preset.expansion),
    reranker: flag('reranker', preset === null ? true : preset.reranker),
  };
}

// GBRAIN-22: at most 8 strings, none empty after normalisation (TEXT-1..4); null is none.
function parseVariants(raw, where) {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw) || raw.length > MAX_VARIANTS) throw invalid(`${where} must be a list of at most ${MAX_VARIANTS} strings`);
  raw.forEach((v, i) => {
    if (typeof v !== 'string' || normalise(v) === '') throw invalid(`${where}[${i}] must be a string, not empty after normalisation`);
  });
  return [...raw];
}

// GBRAIN-22: the caller's variants; the core runs and merges them (PIPE-12).
// GBRAIN-26: only with expansion on; records the bundle in the trace.
export function queryVariants(call) {
  const o = call.options;
  if (o.bundle !== null) {
    call.trace.bundle = { name: o.bundle, expansion: o.expansion, reranker: o.reranker, tokenBudget: o.tokenBudget };
  }
  return o.expansion ? o.variants : [];
}

// GBRAIN-26: the bundle's (or the option's) reranker switch (PIPE-11).
export function rerankEnabled(call) {
  return call.options.reranker;
}

// GBRAIN-18: [[prefix, factor]] longest prefix first; factors finite and > 0.
function boostMap(raw, where) {
  if (raw === undefined || raw === null) return [];
  if (!isObject(raw)) throw invalid(`${where} must be an object`);
  const out = [];
  for (const [prefix, factor] of Object.entries(raw)) {
    if (prefix === '') throw invalid(`${where}: a prefix must not be empty`);
    if (typeof factor !== 'number' || !Number.isFinite(factor) || factor <= 0) {
      throw invalid(`${where}.${prefix} must be a finite number > 0`);
    }
    out.push([prefix, factor]);
  }
  return out.sort((a, b) => cpLength(b[0]) - cpLength(a[0]));
}

// GBRAIN-18: multiply by the longest matching prefix's factor, re-sort by exact value.
function applyBoost(boost, items) {
  if (boost.length === 0) return items;
  const rows = items.map((item, pos) => {
    const hit = boost.find(([p]) => item.path.startsWith(p));
    if (!hit) return { item, pos };
    const exact = Q.mul(item.exact ?? Q.exactFloat(item.score), Q.exactFloat(hit[1]));
    return { item: { ...item, score: item.score * hit[1], exact }, pos };
  });
  rows.sort((a, b) => Q.compare(b.item.exact ?? Q.exactFloat(b.item.score), a.item.exact ?? Q.exactFloat(a.item.score)) || a.pos - b.pos);
  return rows.map((r) => r.item);
}

// GBRAIN-16: with excludes, ask for every hit so the candidateK cut sees the filtered answer.
export function legLimit(call, leg, n) {
  return call.options.exclude.length > 0 ? MAX_INTEGER : n;
}

export function filterLeg(call, leg, hits) {
  const prefixes = call.options.exclude;
  if (prefixes.length === 0) return hits;
  return hits.filter((h) => !prefixes.some((p) => h.path.startsWith(p)));
}

// GBRAIN-19, GBRAIN-20: classify the query, record it, route the graph weight.
export function adjustWeights(call, query, weights) {
  const intent = classify(query);
  call.trace.intent = intent;
  return routeWeights(intent, weights);
}

// GBRAIN-25: seed 004's "RRF fusion -> top 30".
export const FUSED_TOP = 30;

// GBRAIN-18 (not for temporal queries, GBRAIN-20), then the cut to FUSED_TOP (GBRAIN-25).
// GBRAIN-23: the temporal bypass (and the trace's intent) follows the query this stage sees,
// variant 0's, re-classified here whatever the variants' classes were.
export function afterFusion(call, query, items) {
  call.trace.intent = classify(query);
  if (call.trace.intent !== 'temporal') items = applyBoost(call.options.boost, items);
  items = items.slice(0, FUSED_TOP);
  call.state.byId = new Map(items.map((item) => [item.id, item]));
  return items;
}

// GBRAIN-21 then GBRAIN-17 on the reranked list, in seed 004's order: the budget, then dedup.
export function afterRerank(call, query, entries) {
  let items = entries.map(({ id }) => call.state.byId.get(id));
  if (call.options.tokenBudget !== null) items = withinBudget(call, call.options.tokenBudget, items);
  if (call.options.dedup) items = dedupByPage(items);
  return items.map((item) => item.id);
}

// GBRAIN-17: the first item of each page (page id of its path, or the path).
export function dedupByPage(items) {
  const seen = new Set();
  return items.filter((item) => {
    const page = pageOfPath(item.path);
    const key = page === null ? `\u0000${item.path}` : page;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

// GBRAIN-21: the longest prefix whose TEXT-7 word count of contents fits the budget.
function withinBudget(call, budget, items) {
  let used = 0;
  let kept = 0;
  for (const item of items) {
    const tokens = words(item.content ?? '').length;
    if (used + tokens > budget) break;
    used += tokens;
    kept += 1;
  }
  call.trace.budget = { limit: budget, used, dropped: items.length - kept };
  return items.slice(0, kept);
}

// GBRAIN-13: backends.profiles.gbrain {pages, edges?}; absent edges are extracted.
export function parseGraphData(raw) {
  if (raw === undefined || raw === null) return null;
  const where = 'backends.profiles.gbrain';
  if (!isObject(raw)) throw invalid(`${where} must be an object`);
  if (!Array.isArray(raw.pages)) throw invalid(`${where}.pages must be a list`);
  const pages = raw.pages.map((p, i) => candidate(p, `${where}.pages[${i}]`));
  const byPage = new Map();
  const ids = new Set();
  pages.forEach((page, i) => {
    const pid = pageOfPath(page.path);
    if (pid === null) throw invalid(`${where}.pages[${i}]: path names no page`);
    if (byPage.has(pid) || ids.has(page.id)) throw invalid(`${where}.pages[${i}]: repeated id or page`);
    byPage.set(pid, page);
    ids.add(page.id);
  });
  const edges = raw.edges !== undefined && raw.edges !== null
    ? edgesFromJson(raw.edges, `${where}.edges`)
    : pages.flatMap((page) => extractLinks(page.path, page.content).edges);
  // GBRAIN-24: only edges between two indexed pages are stored (the seed's JOIN pages).
  return { pages: byPage, edges: edges.filter((e) => byPage.has(e.from) && byPage.has(e.to)) };
}

// GBRAIN-14: a page's names as word lists.
function names(pid, page) {
  const out = page.title ? [page.title] : [];
  out.push(pid.slice(pid.lastIndexOf('/') + 1).replace(/[-_]/g, ' '));
  return out.map((n) => words(n)).filter((w) => w.length > 0);
}

function occurs(name, query) {
  for (let i = 0; i + name.length <= query.length; i++) {
    if (name.every((w, k) => query[i + k] === w)) return true;
  }
  return false;
}

export function entitySeeds(query, data) {
  const q = words(query);
  const out = [];
  for (const [pid, page] of data.pages) if (names(pid, page).some((n) => occurs(n, q))) out.push(pid);
  return out.sort(compareCodePoints);
}

// GBRAIN-13, GBRAIN-15
export function graphBackend(call) {
  if (call.backend === null || call.backend === undefined) return null;
  const data = call.backend;
  return {
    search(query, limit) {
      const seeds = entitySeeds(query, data);
      const reached = traverse(data.edges, seeds, call.options.walk);
      call.trace.seeds = seeds;
      call.trace.reached = reached.length;
      return reached.filter((r) => data.pages.has(r.page)).map((r) => data.pages.get(r.page)).slice(0, limit);
    },
  };
}
