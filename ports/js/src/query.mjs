// The query DSL (spec/query-dsl.md, DSL-1..DSL-21).
import { invalid } from './errors.mjs';
import { normalise, fold, lower, words, splitWhiteSpace, codePoints } from './text.mjs';
import { isFiltered, DEFAULT_STOPWORD_LIST } from './stopwords.mjs';

const OPERATORS = new Set(['AND', 'OR', 'NOT']);
// DSL-7: the 31-character ASCII strip set.
const STRIP = new Set(Array.from('*():^+"-?!.,;/\\[]{}<>|&\'$#@%=~`'));
if (STRIP.size !== 31) throw new Error(`hrc-js: strip set has ${STRIP.size} characters, expected 31`);

// DSL-12: validate and fold an alias table. Returns a Map folded key -> [folded alternatives].
export function parseAliases(aliases, field = 'aliases') {
  const table = new Map();
  if (aliases === undefined || aliases === null) return table;
  if (typeof aliases !== 'object' || Array.isArray(aliases)) {
    throw invalid(`${field} must be an object of string -> list of strings`);
  }
  for (const [key, alts] of Object.entries(aliases)) {
    if (!Array.isArray(alts) || !alts.every((a) => typeof a === 'string')) {
      throw invalid(`${field}.${key} must be a list of strings`);
    }
    const folded = fold(key);
    if (folded === '') throw invalid(`${field}: key ${JSON.stringify(key)} folds to the empty string`);
    if (table.has(folded)) throw invalid(`${field}: two keys fold to ${JSON.stringify(folded)}`);
    table.set(folded, alts.map((a) => fold(a)));
  }
  return table;
}

// DSL-2
export function hasOperators(normalised) {
  if (normalised.includes('"')) return true;
  return normalised.split(' ').some((f) => OPERATORS.has(f));
}

// DSL-14: a term token replaced by its alternatives (the anchor), its operator on the first.
function expand(token, table) {
  const alts = table.get(token.text);
  if (alts === undefined) return [token];
  const out = [];
  const seen = new Set();
  for (const alt of alts) {
    const ws = words(alt);
    if (ws.length === 0) continue;
    const m = ws.length === 1 ? { kind: 'term', text: ws[0] } : { kind: 'phrase', text: ws.join(' ') };
    const key = `${m.kind}\u0000${m.text}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ ...m, operator: out.length === 0 ? token.operator : null });
  }
  return out.length === 0 ? [token] : out;
}

// DSL-1..DSL-9, DSL-13..DSL-15.
export function parse(query, aliasTable = new Map(), stopwordList = DEFAULT_STOPWORD_LIST) {
  const normalised = normalise(query);
  const ops = hasOperators(normalised);
  const cps = codePoints(normalised);
  const tokens = [];
  let pending = null;
  const emit = (kind, text) => {
    // DSL-5: the first token keeps a leading operator too; the compiler ignores it (DSL-17)
    const operator = pending;
    pending = null;
    tokens.push({ kind, text, operator });
  };
  let i = 0;
  while (i < cps.length) {
    const c = cps[i];
    if (c === ' ') {
      i++;
      continue;
    }
    if (c === '"') {
      let j = i + 1;
      while (j < cps.length && cps[j] !== '"') j++;
      const inner = cps.slice(i + 1, j).join('');
      i = j < cps.length ? j + 1 : j;
      const text = lower(splitWhiteSpace(inner).join(' '));
      if (text !== '') emit('phrase', text);
      continue;
    }
    let j = i;
    while (j < cps.length && cps[j] !== ' ' && cps[j] !== '"') j++;
    const word = cps.slice(i, j);
    i = j;
    const raw = word.join('');
    if (OPERATORS.has(raw)) {
      pending = raw;
      continue;
    }
    const kind = word[word.length - 1] === '*' ? 'prefix' : 'term';
    const stripped = word.filter((ch) => !STRIP.has(ch)).join('');
    if (stripped === '') {
      pending = null;
      continue;
    }
    emit(kind, lower(stripped));
  }
  let out = tokens;
  // DSL-9: terms and prefixes are filtered (lowercase and/or/not are filler), before aliases
  if (!ops) out = out.filter((t) => !(t.kind !== 'phrase' && isFiltered(t.text, stopwordList)));
  // DSL-13, DSL-14: after filtering, each term that is a key is replaced by its alternatives
  out = out.flatMap((t) => (t.kind === 'term' ? expand(t, aliasTable) : [t]));
  return { normalised, hasOperators: ops, tokens: out };
}

// DSL-16
export function ftsQuote(text) {
  return `"${text.replaceAll('"', '""')}"`;
}

function render(token) {
  switch (token.kind) {
    case 'term':
    case 'phrase':
      return ftsQuote(token.text);
    case 'prefix':
      return `${ftsQuote(token.text)}*`;
    default:
      throw new Error(`unknown token kind ${token.kind}`);
  }
}

// DSL-17
export function compileTokens(tokens) {
  const parts = [];
  tokens.forEach((t, idx) => {
    if (idx > 0) parts.push(t.operator ?? 'OR');
    parts.push(render(t));
  });
  return parts.join(' ');
}

export function compile(query, aliasTable = new Map(), stopwordList = DEFAULT_STOPWORD_LIST) {
  return compileTokens(parse(query, aliasTable, stopwordList).tokens);
}

// DSL-20, DSL-21
export function sanitise(query, aliasTable = new Map(), stopwordList = DEFAULT_STOPWORD_LIST) {
  const tokens = words(query).filter((w) => !isFiltered(w, stopwordList));
  const expression = tokens
    .flatMap((w) => expand({ kind: 'term', text: w, operator: null }, aliasTable))
    .map(render)
    .join(' OR ');
  return { tokens, expression };
}
