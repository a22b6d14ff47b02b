// Profile gbrain: the graph augment's level walk of gbrain.search (spec/profiles/gbrain.md
// GBRAIN-40, decision G1), with fan-out and support; not gbrain.traverse's walk (GBRAIN-11).
import { invalid } from '../errors.mjs';
import { compareCodePoints } from '../text.mjs';
import { isAbsent, wholeNumber } from '../validate.mjs';

const DIRECTIONS = ['out', 'in', 'both'];

// GBRAIN-28, GBRAIN-40: depth, fanout, types, direction (null = absent, OP-5).
export function walkOptions(obj, where) {
  const depth = isAbsent(obj.depth) ? 2 : wholeNumber(obj.depth, `${where}depth`, { min: 0, max: 10 });
  const fanout = isAbsent(obj.fanout) ? 10 : wholeNumber(obj.fanout, `${where}fanout`, { min: 1, max: 1000 });
  let types = null;
  if (!isAbsent(obj.types)) {
    if (!Array.isArray(obj.types) || !obj.types.every((x) => typeof x === 'string')) {
      throw invalid(`${where}types must be a list of strings`);
    }
    types = new Set(obj.types);
  }
  const direction = isAbsent(obj.direction) ? 'both' : obj.direction;
  if (!DIRECTIONS.includes(direction)) throw invalid(`${where}direction must be one of out, in, both`);
  return { depth, fanout, types, direction };
}

// GBRAIN-40: level by level with fan-out; depth, support descending, id.
export function augmentWalk(edges, seeds, o) {
  const adj = new Map();
  const add = (a, b) => {
    if (!adj.has(a)) adj.set(a, new Set());
    adj.get(a).add(b);
  };
  for (const e of edges) {
    if (o.types !== null && !o.types.has(e.type)) continue;
    if (e.from === e.to) continue;
    if (o.direction !== 'in') add(e.from, e.to);
    if (o.direction !== 'out') add(e.to, e.from);
  }
  const depthOf = new Map();
  const support = new Map();
  for (const s of seeds) {
    depthOf.set(s, 0);
    support.set(s, 0);
  }
  let level = [...seeds].sort(compareCodePoints);
  for (let d = 0; d < o.depth; d++) {
    const next = [];
    for (const page of level) {
      const fresh = [...(adj.get(page) ?? [])]
        .filter((n) => !depthOf.has(n) || depthOf.get(n) > d)
        .sort(compareCodePoints)
        .slice(0, o.fanout);
      for (const n of fresh) {
        if (!depthOf.has(n)) {
          depthOf.set(n, d + 1);
          support.set(n, 0);
          next.push(n);
        }
        support.set(n, support.get(n) + 1);
      }
    }
    level = next.sort(compareCodePoints);
  }
  return [...depthOf.keys()]
    .sort((a, b) => depthOf.get(a) - depthOf.get(b) || support.get(b) - support.get(a) || compareCodePoints(a, b))
    .map((p) => ({ page: p, depth: depthOf.get(p), support: support.get(p) }));
}
