// Profile gbrain: the graph augment's walk of gbrain.search (spec/profiles/gbrain.md GBRAIN-40):
// gbrain's relationalFanout, paths with their own visited sets, ranked by hop then edge types.
import { invalid } from '../errors.mjs';
import { compareCodePoints } from '../text.mjs';
import { isAbsent, wholeNumber } from '../validate.mjs';

const DIRECTIONS = ['out', 'in', 'both'];
const MAX_INTEGER = 2 ** 31 - 1;
// GBRAIN-40: relationalFanout's limit is clamped to 1..200.
const MAX_REACHED = 200;

// GBRAIN-28, GBRAIN-40: depth (default 2, clamped 1..3), types ([] = every type), direction.
export function walkOptions(obj, where) {
  const raw = isAbsent(obj.depth) ? 2 : wholeNumber(obj.depth, `${where}depth`, { min: -MAX_INTEGER, max: MAX_INTEGER });
  const depth = Math.min(Math.max(1, raw), 3);
  let types = null;
  if (!isAbsent(obj.types)) {
    if (!Array.isArray(obj.types) || !obj.types.every((x) => typeof x === 'string')) {
      throw invalid(`${where}types must be a list of strings`);
    }
    types = obj.types.length > 0 ? new Set(obj.types) : null;
  }
  const direction = isAbsent(obj.direction) ? 'both' : obj.direction;
  if (!DIRECTIONS.includes(direction)) throw invalid(`${where}direction must be one of out, in, both`);
  return { depth, types, direction };
}

// GBRAIN-40: pages reached at depth 1..depth on paths that never revisit a page; hop, then
// distinct entering edge types descending, then id; the first `limit` (at most 200).
export function augmentWalk(edges, seeds, o, limit) {
  const step = new Map();
  const add = (a, b, t) => {
    if (!step.has(a)) step.set(a, new Map());
    step.get(a).set(`${b}\u0000${t}`, [b, t]);
  };
  for (const e of edges) {
    if (o.types !== null && !o.types.has(e.type)) continue;
    if (o.direction !== 'in') add(e.from, e.to, e.type);
    if (o.direction !== 'out') add(e.to, e.from, e.type);
  }
  const hop = new Map();
  const entered = new Map();
  const extend = (page, d, onPath) => {
    if (d === o.depth) return;
    for (const [next, type] of (step.get(page) ?? new Map()).values()) {
      if (onPath.has(next)) continue;
      hop.set(next, Math.min(hop.get(next) ?? d + 1, d + 1));
      if (!entered.has(next)) entered.set(next, new Set());
      entered.get(next).add(type);
      onPath.add(next);
      extend(next, d + 1, onPath);
      onPath.delete(next);
    }
  };
  for (const s of seeds) extend(s, 0, new Set([s]));
  const cut = Math.max(1, Math.min(limit, MAX_REACHED));
  return [...hop.keys()]
    .sort((a, b) => hop.get(a) - hop.get(b) || entered.get(b).size - entered.get(a).size || compareCodePoints(a, b))
    .slice(0, cut)
    .map((p) => ({ page: p, hop: hop.get(p), edgeTypes: entered.get(p).size }));
}
