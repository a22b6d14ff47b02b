// Profile gbrain: the graph backend supplied to the core's graph leg (GBRAIN-13..15).
import { invalid } from '../errors.mjs';
import { compareCodePoints, words } from '../text.mjs';
import { candidate, isObject } from '../validate.mjs';
import { extractLinks, pageOfPath } from './links.mjs';
import { edgesFromJson, traverse, walkOptions } from './traverse.mjs';

const OPTION_FIELDS = new Set(['depth', 'fanout', 'types', 'direction']);

// GBRAIN-13: request.profiles.gbrain.
export function parseOptions(obj) {
  for (const key of Object.keys(obj)) {
    if (!OPTION_FIELDS.has(key)) throw invalid(`request.profiles.gbrain: unknown option ${key}`);
  }
  return walkOptions(obj, 'request.profiles.gbrain.');
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
  return { pages: byPage, edges };
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
      const reached = traverse(data.edges, seeds, call.options);
      call.trace.seeds = seeds;
      call.trace.reached = reached.length;
      return reached.filter((r) => data.pages.has(r.page)).map((r) => data.pages.get(r.page)).slice(0, limit);
    },
  };
}
