// Intent-aware reweighting (spec/intent.md, INTENT-1..INTENT-12).
import { loadSpecData } from './data.mjs';
import { fold, normalise, cpLength } from './text.mjs';
import * as Q from './rational.mjs';

let TABLE = null;
export function intentTable() {
  if (TABLE) return TABLE;
  const data = loadSpecData('intent.json');
  const ok =
    data &&
    Array.isArray(data.queryPatterns) &&
    Array.isArray(data.documentPatterns) &&
    Array.isArray(data.rules) &&
    Number.isInteger(data.longContentLength);
  if (!ok) throw new Error('hrc-js: spec/data/intent.json is malformed');
  // INTENT-3: JavaScript engine: new RegExp(source) with no flags (ASCII \b, case-sensitive).
  const compileP = (p) => ({ ...p, regex: new RegExp(p.source) });
  TABLE = {
    longContentLength: data.longContentLength,
    queryPatterns: data.queryPatterns.map(compileP),
    documentPatterns: data.documentPatterns.map(compileP),
    docByName: new Map(),
    rules: data.rules,
  };
  for (const p of TABLE.documentPatterns) TABLE.docByName.set(p.name, p);
  return TABLE;
}

export function patterns() {
  const t = intentTable();
  const out = {};
  for (const p of [...t.queryPatterns, ...t.documentPatterns]) out[p.name] = p.source;
  return out;
}

const LABELS = { preference: 'preference', 'concrete-fact': 'concrete-fact' };

// INTENT-4
export function detect(query) {
  const t = intentTable();
  const folded = fold(query);
  const families = new Set();
  for (const p of t.queryPatterns) if (p.regex.test(folded)) families.add(p.family);
  const preference = families.has('preference');
  const concreteFact = families.has('concrete-fact');
  const label = [preference ? LABELS.preference : null, concreteFact ? LABELS['concrete-fact'] : null]
    .filter(Boolean)
    .join('+');
  return { preference, concreteFact, label, families };
}

// INTENT-5, INTENT-6: rule names that apply to one item, in table order.
export function rulesFor(item, families) {
  const t = intentTable();
  const foldedPath = fold(item.path ?? '');
  const docText = fold(`${item.path ?? ''}\n${item.title ?? ''}\n${item.summary ?? ''}\n${item.content ?? ''}`);
  const memo = new Map();
  const pred = (name) => {
    if (memo.has(name)) return memo.get(name);
    let v;
    if (name === 'long_content') {
      v = cpLength(normalise(item.content ?? '')) > t.longContentLength;
    } else {
      const p = t.docByName.get(name);
      if (!p) throw new Error(`hrc-js: intent rule refers to unknown predicate ${name}`);
      v = p.regex.test(p.target === 'path' ? foldedPath : docText);
    }
    memo.set(name, v);
    return v;
  };
  const applied = [];
  for (const rule of t.rules) {
    if (!families.has(rule.family)) continue;
    const all = rule.all.every(pred);
    const any = rule.any.length === 0 || rule.any.some(pred);
    const none = !rule.none.some(pred);
    if (all && any && none) applied.push(rule);
  }
  return applied;
}

/**
 * items: [{id, path, title, summary, content, score, exact?}] in fused order.
 * Returns {detection, items: [{item, score, exact, multiplier, rules}] in the new order, adjusted}.
 */
export function reweight(query, items) {
  const detection = detect(query);
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
    const applied = rulesFor(row.item, detection.families);
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
