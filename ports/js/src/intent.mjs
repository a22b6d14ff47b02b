// Intent-aware reweighting (spec/intent.md, INTENT-1..INTENT-13).
import { loadSpecData } from './data.mjs';
import { fold, normalise, cpLength } from './text.mjs';
import { invalid } from './errors.mjs';
import * as Q from './rational.mjs';

// INTENT-13: the named tables; "anchor" is the default.
export const TABLES = ['anchor', 'hrc-1.0'];
export const DEFAULT_TABLE = 'anchor';
const FAMILIES = ['preference', 'concrete-fact'];

// INTENT-13, OP-5: absent or null is the default table.
export function checkTableName(v, field = 'table') {
  if (v === undefined || v === null) return DEFAULT_TABLE;
  if (typeof v !== 'string' || !TABLES.includes(v)) {
    throw invalid(`${field} must be one of ${TABLES.join(', ')}, got ${JSON.stringify(v)}`);
  }
  return v;
}

// INTENT-3, JavaScript reading: new RegExp(source, flags) with flags '' or 'i', never 'u' or 'v'.
// Without u, `i` canonicalises by toUpperCase and refuses to map a non-ASCII character onto
// an ASCII one (ſ -> S, ı -> I are rejected), so for ASCII pattern letters it is ASCII-only;
// \b and \s stay the ASCII / WhiteSpace classes, and \s sees only U+0020 in folded text.
function compilePattern(p, tableName) {
  const flags = p.flags ?? '';
  if (flags !== '' && flags !== 'i') throw new Error(`hrc-js: intent-${tableName}.json: flags ${flags} are not portable`);
  return { ...p, flags, regex: new RegExp(p.source, flags) };
}

function conditionNames(cond, out = new Set()) {
  for (const key of ['all', 'any', 'none']) {
    for (const m of cond[key] ?? []) {
      if (typeof m === 'string') out.add(m);
      else conditionNames(m, out);
    }
  }
  return out;
}

// INTENT-6: all of `all`, at least one of `any` (if given), none of `none`; members nest.
export function holds(cond, truth) {
  const one = (m) => (typeof m === 'string' ? truth(m) : holds(m, truth));
  const any = cond.any ?? [];
  return (cond.all ?? []).every(one) && (any.length === 0 || any.some(one)) && !(cond.none ?? []).some(one);
}

const TABLE_CACHE = new Map();

// INTENT-1: load spec/data/intent-<name>.json and fail loudly when it is missing or malformed.
export function intentTable(name = DEFAULT_TABLE) {
  if (TABLE_CACHE.has(name)) return TABLE_CACHE.get(name);
  const file = `intent-${name}.json`;
  const data = loadSpecData(file);
  const ok =
    data &&
    data.name === name &&
    Array.isArray(data.queryPatterns) &&
    Array.isArray(data.families) &&
    Array.isArray(data.documentPatterns) &&
    Array.isArray(data.rules) &&
    data.queryPatterns.length > 0 &&
    data.documentPatterns.length > 0 &&
    data.rules.length > 0 &&
    (data.longContentLength === undefined || Number.isInteger(data.longContentLength)) &&
    data.families.map((f) => f.name).join(',') === FAMILIES.join(',');
  if (!ok) throw new Error(`hrc-js: spec/data/${file} is malformed`);
  const table = {
    name,
    longContentLength: data.longContentLength ?? null,
    queryPatterns: data.queryPatterns.map((p) => compilePattern(p, name)),
    families: data.families,
    documentPatterns: data.documentPatterns.map((p) => compilePattern(p, name)),
    docByName: new Map(),
    rules: data.rules,
  };
  for (const p of table.documentPatterns) table.docByName.set(p.name, p);
  const queryNames = new Set(table.queryPatterns.map((p) => p.name));
  for (const f of table.families) {
    for (const n of conditionNames(f)) if (!queryNames.has(n)) throw new Error(`hrc-js: ${file}: family ${f.name} names unknown pattern ${n}`);
  }
  for (const r of table.rules) {
    for (const n of conditionNames(r)) {
      const known = table.docByName.has(n) || (n === 'long_content' && table.longContentLength !== null);
      if (!known || !FAMILIES.includes(r.family)) throw new Error(`hrc-js: ${file}: rule ${r.name} is malformed`);
    }
  }
  TABLE_CACHE.set(name, table);
  return table;
}

export function patterns(name = DEFAULT_TABLE) {
  const t = intentTable(name);
  const out = {};
  for (const p of [...t.queryPatterns, ...t.documentPatterns]) out[p.name] = p.source;
  return out;
}

// INTENT-4: a family is on when its condition over the query patterns holds on fold(query).
export function detect(query, name = DEFAULT_TABLE) {
  const t = intentTable(name);
  const folded = fold(query);
  const matched = new Map(t.queryPatterns.map((p) => [p.name, p.regex.test(folded)]));
  const families = new Set(t.families.filter((f) => holds(f, (n) => matched.get(n))).map((f) => f.name));
  const preference = families.has('preference');
  const concreteFact = families.has('concrete-fact');
  const label = [preference ? 'preference' : null, concreteFact ? 'concrete-fact' : null].filter(Boolean).join('+');
  return { preference, concreteFact, label, families, table: name };
}

// INTENT-5, INTENT-6: rules that apply to one item, in table order.
export function rulesFor(item, families, name = DEFAULT_TABLE) {
  const t = intentTable(name);
  const foldedPath = fold(item.path ?? '');
  const docText = fold(`${item.path ?? ''}\n${item.title ?? ''}\n${item.summary ?? ''}\n${item.content ?? ''}`);
  const memo = new Map();
  const pred = (n) => {
    if (memo.has(n)) return memo.get(n);
    let v;
    if (n === 'long_content') {
      v = cpLength(normalise(item.content ?? '')) > t.longContentLength;
    } else {
      const p = t.docByName.get(n);
      v = p.regex.test(p.target === 'path' ? foldedPath : docText);
    }
    memo.set(n, v);
    return v;
  };
  return t.rules.filter((rule) => families.has(rule.family) && holds(rule, pred));
}

/**
 * items: [{id, path, title, summary, content, score, exact?}] in fused order.
 * Returns {detection, rows: [{item, score, exact, multiplier, rules}] in the new order, adjusted}.
 */
export function reweight(query, items, name = DEFAULT_TABLE) {
  const detection = detect(query, name);
  const rows = items.map((item, pos) => ({
    item,
    pos,
    score: item.score,
    exact: item.exact ?? Q.exactFloat(item.score),
    multiplier: 1.0,
    rules: [],
  }));
  if (detection.families.size === 0) return { detection, rows, adjusted: [] };
  for (const row of rows) {
    const applied = rulesFor(row.item, detection.families, name);
    let m = 1.0;
    let s = row.score;
    let exact = row.exact;
    for (const rule of applied) {
      m = m * rule.multiplier; // INTENT-7: compose at run time, left to right
      s = s * rule.multiplier;
      exact = Q.mul(exact, Q.exactFloat(rule.multiplier));
    }
    row.multiplier = m;
    row.score = s;
    row.exact = exact;
    row.rules = applied.map((r) => r.name);
  }
  const adjusted = rows.filter((r) => r.rules.length > 0).map((r) => ({ id: r.item.id, multiplier: r.multiplier, rules: r.rules }));
  const ordered = [...rows].sort((a, b) => Q.compare(b.exact, a.exact) || a.pos - b.pos); // INTENT-9
  return { detection, rows: ordered, adjusted };
}
