// The BM25 leg's first pass with the anchor's fanout (spec/fanout.md, FANOUT-*).
// planTexts (FANOUT-4..13), planExpressions (FANOUT-14), kept/merge (FANOUT-16, 17, 20).
import { loadSpecData } from './data.mjs';
import { compileTokens, parse } from './query.mjs';
import { fuse } from './rrf.mjs';
import { cpLength, lower, normalise, splitWhiteSpace } from './text.mjs';

const MERGE_K = 60; // FANOUT-17: the anchor's RRF_DEFAULT_K, not the request's rrfK
const OPERATORS = new Set(['AND', 'OR', 'NOT']);

let VOCAB = null;
// FANOUT-3: spec/data/fanout-anchor.json; patterns read on lowercased text, no flags (FANOUT-4).
export function vocabulary() {
  if (VOCAB !== null) return VOCAB;
  const raw = loadSpecData('fanout-anchor.json');
  const set = (key) => {
    if (!Array.isArray(raw[key])) throw new Error(`hrc-js: fanout-anchor.json lacks ${key}`);
    return new Set(raw[key]);
  };
  VOCAB = {
    maxQueries: raw.maxQueries,
    maxDerived: raw.maxDerived,
    overlapWindow: raw.overlapWindow,
    overlapMin: raw.overlapMin,
    phraseMin: raw.phraseMinTokens,
    phraseMax: raw.phraseMaxTokens,
    edges: new Set([...raw.edgeCharacters]),
    questionStop: set('questionStopWords'),
    connectors: set('phraseConnectors'),
    boundary: set('phraseBoundaryWords'),
    trim: set('phraseTrimWords'),
    actionRules: raw.actionDateRules.map((r) => ({ pattern: new RegExp(r.pattern), probe: r.probe })),
    actionSkip: set('actionDateFocusSkipWords'),
    inspirationHints: [...raw.inspirationHints],
    inspirationSkip: set('inspirationFocusSkipWords'),
    inspirationSuffix: raw.inspirationSuffix,
    lowSignal: set('lowSignalPhraseWords'),
    headLast: set('headBigramLastTokens'),
    moneySuffix: raw.moneyHeadSuffix,
    enumeration: new RegExp(raw.enumerationOrTotalPattern),
    money: new RegExp(raw.moneyEventPattern),
    specific: new RegExp(raw.specificPattern),
    recommend: raw.recommendPatterns.map((p) => new RegExp(p)),
    language: new RegExp(raw.languagePattern),
    backEndHint: raw.backEndHint,
    backEndProbes: [...raw.backEndProbes],
  };
  return VOCAB;
}

// -- tokens (FANOUT-4, FANOUT-5) --------------------------------------------------------------

export function lowered(query) {
  return lower(normalise(query));
}

export function hasDigit(s) {
  return /[0-9]/.test(s); // ASCII digits only
}

function stripEdges(piece, edges) {
  const cps = [...piece];
  let a = 0;
  let b = cps.length;
  while (a < b && edges.has(cps[a])) a += 1;
  while (b > a && edges.has(cps[b - 1])) b -= 1;
  return cps.slice(a, b).join('');
}

export function probeTokens(query) {
  const { edges } = vocabulary();
  return splitWhiteSpace(lowered(query)).map((p) => stripEdges(p, edges)).filter((t) => t !== '');
}

export function questionTokens(query) {
  const { questionStop } = vocabulary();
  const out = [];
  for (const t of probeTokens(query)) {
    if (cpLength(t) < 3 || hasDigit(t) || questionStop.has(t) || out.includes(t)) continue;
    out.push(t);
  }
  return out;
}

const without = (tokens, skip) => tokens.filter((t) => !skip.has(t));

// -- phrase probes (FANOUT-6) -----------------------------------------------------------------

function breaks(token) {
  return vocabulary().boundary.has(token) || cpLength(token) < 2 || hasDigit(token);
}

function join(tokens) {
  return tokens.length >= vocabulary().phraseMin ? tokens.join(' ') : '';
}

// collect() over the tokens left of i walking left (back in text order) and right of i, each
// call in at most phraseMax steps from precomputed kept positions: slicing and skipping made
// a query of many connectors quadratic (issue 39).
function collectors(tokens) {
  const most = vocabulary().phraseMax;
  const n = tokens.length;
  const broken = tokens.map(breaks);
  const right = new Array(n + 1).fill(n); // right[i]: first kept index >= i
  for (let i = n - 1; i >= 0; i -= 1) right[i] = broken[i] ? right[i + 1] : i;
  const left = new Array(n + 1).fill(-1); // left[i]: last kept index < i
  for (let i = 0; i < n; i += 1) left[i + 1] = broken[i] ? left[i] : i;
  const before = (i) => {
    const out = [];
    for (let j = left[i]; j >= 0 && !broken[j] && out.length < most; j -= 1) out.push(tokens[j]);
    return out.reverse();
  };
  const after = (i) => {
    const out = [];
    for (let j = right[i + 1]; j < n && !broken[j] && out.length < most; j += 1) out.push(tokens[j]);
    return out;
  };
  return { before, after };
}

function trimLeading(tokens) {
  let i = 0;
  while (i < tokens.length && vocabulary().trim.has(tokens[i])) i += 1;
  return tokens.slice(i);
}

function score(tokens) {
  return 100 * tokens.length + tokens.reduce((s, t) => s + cpLength(t), 0);
}

function segmentPhrase(segment) {
  const v = vocabulary();
  const trimmed = trimLeading(segment);
  if (trimmed.length < v.phraseMin) return '';
  if (trimmed.length <= v.phraseMax) return join(trimmed);
  for (let size = v.phraseMax; size >= v.phraseMin; size -= 1) {
    let best = '';
    let bestScore = -1;
    for (let start = 0; start + size <= trimmed.length; start += 1) {
      const w = trimLeading(trimmed.slice(start, start + size));
      if (w.length < v.phraseMin) continue;
      if (score(w) > bestScore) {
        best = join(w);
        bestScore = score(w);
      }
    }
    if (best !== '') return best;
  }
  return '';
}

function segmentPhrases(tokens) {
  if (tokens.length < vocabulary().phraseMin) return [];
  const out = [];
  const seen = new Set();
  let segment = [];
  for (const token of [...tokens, null]) {
    if (token === null || breaks(token)) {
      const phrase = segmentPhrase(segment);
      if (phrase !== '' && !seen.has(phrase)) {
        seen.add(phrase);
        out.push(phrase);
      }
      segment = [];
    } else {
      segment.push(token);
    }
  }
  return out;
}

export function phraseProbes(query) {
  const v = vocabulary();
  const tokens = probeTokens(query);
  if (tokens.length < v.phraseMin) return [];
  const out = [];
  const add = (phrase) => {
    if (phrase !== '' && !out.includes(phrase)) out.push(phrase);
    return out.length >= v.maxDerived;
  };
  const { before, after } = collectors(tokens);
  for (let i = 0; i < tokens.length; i += 1) {
    if (!v.connectors.has(tokens[i])) continue;
    if (add(join(before(i)))) return out;
    if (add(join(after(i)))) return out;
  }
  for (const phrase of segmentPhrases(tokens)) if (add(phrase)) return out;
  return out;
}

export function filteredPhraseProbes(query) {
  const { lowSignal } = vocabulary();
  return phraseProbes(query).filter((p) => without(questionTokens(p), lowSignal).length > 0);
}

// -- probes (FANOUT-7..10) --------------------------------------------------------------------

function firstDistinct(items, seen = new Set()) {
  const out = [];
  for (const item of items) {
    if (item === '' || seen.has(item)) continue;
    seen.add(item);
    out.push(item);
    if (out.length >= vocabulary().maxDerived) break;
  }
  return out;
}

export function specificRecommendationProbes(query) {
  const v = vocabulary();
  const low = lowered(query);
  if (!v.specific.test(low) || !v.recommend.some((p) => p.test(low))) return [];
  if (low.includes(v.backEndHint) && v.language.test(low)) return [...v.backEndProbes];
  return [];
}

function moneyFocus(phrase) {
  const v = vocabulary();
  const tokens = splitWhiteSpace(lower(phrase));
  if (tokens.length >= 3 && tokens[0].includes('-') && v.headLast.has(tokens[tokens.length - 1])) {
    return `${tokens[0]} ${tokens[tokens.length - 1]}`;
  }
  if (tokens.length === 0) return '';
  const last = tokens[tokens.length - 1];
  const head = tokens.length >= 2 && v.headLast.has(last) ? tokens.slice(-2).join(' ') : last;
  if (head !== phrase && splitWhiteSpace(phrase).length <= 2) return head + v.moneySuffix;
  return phrase;
}

export function moneyFocusProbes(query) {
  const v = vocabulary();
  const low = lowered(query);
  if (!v.enumeration.test(low) || !v.money.test(low)) return [];
  return firstDistinct(filteredPhraseProbes(query).map(moneyFocus));
}

export function actionDateProbes(query) {
  const low = lowered(query);
  if (!low.includes('when')) return [];
  return firstDistinct(vocabulary().actionRules.filter((r) => r.pattern.test(low)).map((r) => r.probe));
}

function focuses(tokens) {
  const n = tokens.length;
  if (n === 0) return [];
  const spans = n === 1 ? [[0, 1]] : n === 2 ? [[0, 2]] : n === 3 ? [[1, 3], [0, 2]] : [[n - 2, n], [0, 2]];
  const out = [];
  for (const [a, b] of spans) {
    const focus = tokens.slice(a, b).join(' ');
    if (focus !== '' && !out.includes(focus)) out.push(focus);
  }
  return out;
}

export function actionDateContextProbes(query) {
  const probes = actionDateProbes(query);
  if (probes.length === 0) return [];
  const fs = focuses(without(questionTokens(query), vocabulary().actionSkip));
  const pairs = [];
  for (const probe of probes) for (const focus of fs) pairs.push(`${focus} ${probe}`.trim());
  return firstDistinct(pairs);
}

function isInspiration(query) {
  const low = lowered(query);
  return low !== '' && vocabulary().inspirationHints.some((h) => low.includes(h));
}

export function inspirationSourceProbes(query) {
  const v = vocabulary();
  if (!isInspiration(query)) return [];
  const tokens = without(questionTokens(query), v.inspirationSkip);
  return tokens.length > 0 ? [tokens[tokens.length - 1] + v.inspirationSuffix] : [];
}

function chain(query, sources, seen) {
  const out = [];
  for (const source of sources) {
    for (const item of source(query)) {
      if (seen.has(item)) continue;
      seen.add(item);
      out.push(item);
      if (out.length >= vocabulary().maxDerived) return out;
    }
  }
  return out;
}

// -- subqueries and the plan (FANOUT-11..14) --------------------------------------------------

export function prioritySubqueries(query) {
  return chain(
    query,
    [specificRecommendationProbes, moneyFocusProbes, actionDateContextProbes, inspirationSourceProbes, filteredPhraseProbes],
    new Set([lowered(query)]),
  );
}

export function derivedSubqueries(query) {
  const v = vocabulary();
  const seen = new Set([lowered(query)]);
  const inspiration = isInspiration(query);
  const out = chain(
    query,
    [specificRecommendationProbes, moneyFocusProbes, actionDateContextProbes, inspirationSourceProbes, actionDateProbes],
    seen,
  );
  if (out.length >= v.maxDerived) return out;
  const phrases = filteredPhraseProbes(query);
  for (const phrase of phrases) {
    if (inspiration && without(questionTokens(phrase), v.inspirationSkip).length === 0) continue;
    if (seen.has(phrase)) continue;
    seen.add(phrase);
    out.push(phrase);
    if (out.length >= v.maxDerived) return out;
  }
  const tokens = questionTokens(phrases.length > 0 ? phrases.join(' ') : query);
  if (tokens.length < 2) return out;
  const sorted = [...tokens].sort((a, b) => cpLength(b) - cpLength(a)); // stable (ES2019)
  for (const token of sorted) {
    if ((inspiration && v.inspirationSkip.has(token)) || seen.has(token)) continue;
    seen.add(token);
    out.push(token);
    if (out.length >= v.maxDerived) break;
  }
  return out;
}

export function priorityOnly(query) {
  if (actionDateContextProbes(query).length > 0) return true;
  return filteredPhraseProbes(query).length >= 2 && lowered(query).includes(' and ');
}

export function planTexts(raw, base) {
  const out = [];
  const push = (value) => {
    const t = normalise(value);
    if (t !== '' && !out.includes(t)) out.push(t);
  };
  raw = normalise(raw);
  base = normalise(base);
  const source = raw !== '' ? raw : base;
  const priority = prioritySubqueries(source);
  if (priorityOnly(source) && priority.length >= 2) {
    for (const item of [...priority, ...filteredPhraseProbes(source)]) push(item);
  } else {
    for (const item of [...priority, raw !== '' ? raw : base, base, ...derivedSubqueries(source)]) push(item);
  }
  return out.slice(0, vocabulary().maxQueries);
}

export function planExpressions(raw, base, aliasTable, stopwordList) {
  const probes = phraseProbes(raw);
  const out = [];
  for (let item of planTexts(raw, base)) {
    if (probes.includes(item) && item.includes(' ') && !item.includes('"')) item = `"${item}"`;
    const expression = compileTokens(parse(item, aliasTable, stopwordList).tokens);
    if (expression !== '' && !out.includes(expression)) {
      out.push(expression);
      if (out.length >= vocabulary().maxQueries) break;
    }
  }
  return out;
}

// -- merging (FANOUT-16, 17, 20) --------------------------------------------------------------

export function bypassesGate(expression) {
  if (hasDigit(expression)) return true;
  const v = vocabulary();
  const pieces = expression.split(' ').filter((p) => p !== '' && !OPERATORS.has(p));
  return pieces.length >= v.phraseMin && pieces.length <= v.phraseMax;
}

export function overlap(primary, other) {
  const w = vocabulary().overlapWindow;
  const ids = new Set(primary.slice(0, w).map((c) => c.id));
  if (ids.size === 0) return 0;
  return other.slice(0, w).filter((c) => ids.has(c.id)).length;
}

export function kept(primary, expression, hits) {
  return primary.length === 0 || bypassesGate(expression) || overlap(primary, hits) >= vocabulary().overlapMin;
}

export function merge(lists, candidateK) {
  if (lists.length === 0) return [];
  if (lists.length === 1) return lists[0].slice(0, candidateK);
  const fused = fuse(lists.map((items) => ({ name: 'bm25', weight: 1, items })), MERGE_K);
  return fused.slice(0, candidateK).map(({ score: _score, ...candidate }) => candidate);
}
