// Profile gbrain: gbrain.traverse as gbrain's code walks (spec/profiles/gbrain.md GBRAIN-10..12,
// GBRAIN-41): paths with their own visited sets, results the distinct (page, depth) pairs.
import { invalid } from '../errors.mjs';
import { compareCodePoints } from '../text.mjs';
import { MAX_INTEGER, isAbsent, isObject, wholeNumber } from '../validate.mjs';

const DIRECTIONS = ['out', 'in', 'both'];
const FIELDS = new Set(['edges', 'seeds', 'depth', 'linkType', 'direction']);

// GBRAIN-11: traverse_graph's (p.depth || 5), clamped to 1..10.
export function clampDepth(requested) {
  return Math.max(1, Math.min(requested || 5, 10));
}

// GBRAIN-10, GBRAIN-11: depth, linkType, direction (null = absent, OP-5); no other member.
export function traverseOptions(obj) {
  for (const key of Object.keys(obj)) {
    if (!FIELDS.has(key)) throw invalid(`unknown member ${JSON.stringify(key)}`);
  }
  const depth = isAbsent(obj.depth) ? 0 : wholeNumber(obj.depth, 'depth', { min: -MAX_INTEGER, max: MAX_INTEGER });
  let linkType = null;
  if (!isAbsent(obj.linkType)) {
    if (typeof obj.linkType !== 'string') throw invalid('linkType must be a string');
    linkType = obj.linkType;
  }
  const direction = isAbsent(obj.direction) ? 'out' : obj.direction;
  if (!DIRECTIONS.includes(direction)) throw invalid('direction must be one of out, in, both');
  return { depth: clampDepth(depth), linkType, direction };
}

// GBRAIN-10: a list of {from, to, type} objects with non-empty strings.
export function edgesFromJson(value, where) {
  if (!Array.isArray(value)) throw invalid(`${where} must be a list`);
  return value.map((e, i) => {
    if (!isObject(e)) throw invalid(`${where}[${i}] must be an object`);
    for (const f of ['from', 'to', 'type']) {
      if (typeof e[f] !== 'string' || e[f] === '') throw invalid(`${where}[${i}].${f} must be a non-empty string`);
    }
    return { from: e.from, to: e.to, type: e.type };
  });
}

// GBRAIN-11: the pages one followed edge leads to from each page (repeats count once).
function steps(edges, o) {
  const step = new Map();
  const add = (a, b) => {
    if (!step.has(a)) step.set(a, new Set());
    step.get(a).add(b);
  };
  for (const e of edges) {
    if (o.linkType !== null && e.type !== o.linkType) continue;
    if (o.direction !== 'in') add(e.from, e.to);
    if (o.direction !== 'out') add(e.to, e.from);
  }
  return step;
}

// GBRAIN-11, GBRAIN-12, GBRAIN-41: every (last page, depth) of the paths from each seed that
// never revisit a page of their own path, by depth, then page by code point.
export function traverse(edges, seeds, o) {
  const step = steps(edges, o);
  const reached = new Map(); // depth -> Set of pages
  const extend = (page, d, onPath) => {
    if (!reached.has(d)) reached.set(d, new Set());
    reached.get(d).add(page);
    if (d === o.depth) return;
    for (const next of step.get(page) ?? []) {
      if (onPath.has(next)) continue;
      onPath.add(next);
      extend(next, d + 1, onPath);
      onPath.delete(next);
    }
  };
  for (const s of seeds) extend(s, 0, new Set([s]));
  const out = [];
  for (const d of [...reached.keys()].sort((a, b) => a - b)) {
    for (const page of [...reached.get(d)].sort(compareCodePoints)) out.push({ page, depth: d });
  }
  return out;
}
