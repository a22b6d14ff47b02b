// The operations of spec/operations.md (OP-*), each validating its input (OP-1, OP-2).
import { HrcError, invalid } from './errors.mjs';
import {
  isObject,
  requireString,
  requireStringList,
  requireArray,
  requireNonEmptyId,
  candidate,
  chunk,
  wholeNumber,
} from './validate.mjs';
import { normalise, fold, words, cpLength, sortStrings } from './text.mjs';
import { parse, parseAliases, compileTokens, sanitise } from './query.mjs';
import { isStopword, stopwordListName } from './stopwords.mjs';
import { strongestTerm } from './strongest.mjs';
import { planTexts } from './fanout.mjs';
import { rerankText } from './reranktext.mjs';
import { fuse, validateK, validateWeight } from './rrf.mjs';
import { trigrams, jaccard, trigramSearch } from './trigram.mjs';
import { patterns, detect, reweight, checkTableName } from './intent.mjs';
import { unanimity } from './unanimity.mjs';
import { applyRerank } from './rerank.mjs';
import { scriptedReranker } from './backends/scripted.mjs';
import { scriptedBackends } from './backends/scripted.mjs';
import { search, boundedQuery } from './pipeline.mjs';
import { PROFILES } from './profiles.mjs';
import { BACKEND_OPS, sqliteOps } from './backendops.mjs';
import { parseRun, parseQrels, parseK, evaluate } from './metrics.mjs';

function fusedItem(v, field) {
  const c = candidate(v, field);
  if (typeof v.score !== 'number' || !Number.isFinite(v.score)) throw invalid(`${field}.score must be a finite number`);
  c.score = v.score;
  return c;
}

function uniqueIds(items, field) {
  const seen = new Set();
  for (const it of items) {
    if (seen.has(it.id)) throw invalid(`${field}: repeated id ${JSON.stringify(it.id)}`);
    seen.add(it.id);
  }
}

// INTENT-13: optional `table`, default "anchor"; an unknown name is invalid_input.
function intentTableInput(input) {
  return checkTableName(input.table, 'table');
}

export const OPS = {
  normalise(input) {
    const text = requireString(input.text, 'text');
    const normalised = normalise(text);
    return { normalised, folded: fold(text) };
  },
  words(input) {
    return { words: words(requireString(input.text, 'text')) };
  },
  length(input) {
    // The op counts the code points of `text` as given; it does not normalise (FINDINGS F1).
    return { length: cpLength(requireString(input.text, 'text')) };
  },
  sort_strings(input) {
    return { sorted: sortStrings(requireStringList(input.strings, 'strings')) };
  },
  parse(input) {
    const query = requireString(input.query, 'query');
    const table = parseAliases(input.aliases);
    return parse(query, table, stopwordListName(input.stopwordList));
  },
  compile(input) {
    const query = requireString(input.query, 'query');
    const table = parseAliases(input.aliases);
    return { expression: compileTokens(parse(query, table, stopwordListName(input.stopwordList)).tokens) };
  },
  stopwords(input) {
    const words = requireStringList(input.words, 'words');
    const list = stopwordListName(input.stopwordList);
    return { stopword: words.map((w) => isStopword(w, list)) };
  },
  sanitise(input) {
    const query = requireString(input.query, 'query');
    const table = parseAliases(input.aliases);
    return sanitise(query, table, stopwordListName(input.stopwordList));
  },
  strongest_term(input) {
    return { term: strongestTerm(requireString(input.query, 'query'), stopwordListName(input.stopwordList)) };
  },
  // RERANK-13..15: what a reranker is shown
  rerank_text(input) {
    const field = (name) => (input[name] == null ? '' : requireString(input[name], name));
    return { text: rerankText(field('title'), field('summary'), field('content')) };
  },
  // FANOUT-13: the first-pass query texts
  fanout_texts(input) {
    const query = boundedQuery(requireString(input.query, 'query'), 'query', 'FANOUT-25');
    const base = input.base == null ? query : boundedQuery(requireString(input.base, 'base'), 'base', 'FANOUT-25');
    return { texts: planTexts(query, base) };
  },
  rrf(input) {
    requireArray(input.lists, 'lists');
    const k = validateK(input.k);
    const lists = input.lists.map((l, i) => {
      const f = `lists[${i}]`;
      if (!isObject(l)) throw invalid(`${f} must be an object`);
      if (l.name != null && typeof l.name !== 'string') throw invalid(`${f}.name must be a string`);
      const weight = validateWeight(l.weight, `${f}.weight`);
      requireArray(l.items, `${f}.items`);
      return { name: l.name ?? '', weight, items: l.items.map((c, j) => candidate(c, `${f}.items[${j}]`)) };
    });
    return { results: fuse(lists, k) };
  },
  trigrams(input) {
    return { trigrams: trigrams(requireString(input.word, 'word')) };
  },
  jaccard(input) {
    return jaccard(requireString(input.a, 'a'), requireString(input.b, 'b'));
  },
  trigram_search(input) {
    const tokens = requireStringList(input.tokens, 'tokens');
    requireArray(input.chunks, 'chunks');
    const chunks = input.chunks.map((c, i) => chunk(c, `chunks[${i}]`));
    const k = input.candidateK == null || (typeof input.candidateK === 'number' && input.candidateK <= 0)
      ? 60 // OP-5; TRI-7: <= 0 is the default
      : wholeNumber(input.candidateK, 'candidateK'); // OP-4
    const hits = trigramSearch(tokens, chunks, k);
    return {
      hits: hits.map((h) => ({ id: h.chunk.id, path: h.chunk.path, intersection: h.intersection, union: h.union })),
    };
  },
  intent_patterns(input) {
    return { patterns: patterns(intentTableInput(input)) };
  },
  intent_detect(input) {
    const table = intentTableInput(input);
    const d = detect(boundedQuery(requireString(input.query, 'query'), 'query', 'INTENT-14'), table);
    return { preference: d.preference, concreteFact: d.concreteFact, label: d.label };
  },
  intent_reweight(input) {
    const table = intentTableInput(input);
    const query = requireString(input.query, 'query');
    requireArray(input.results, 'results');
    const items = input.results.map((r, i) => fusedItem(r, `results[${i}]`));
    uniqueIds(items, 'results');
    const { rows } = reweight(query, items, table);
    return {
      results: rows.map((r) => ({ id: r.item.id, score: r.score, multiplier: r.multiplier, rules: r.rules })),
    };
  },
  // spec/metrics.md METRIC-1..13.
  metrics(input) {
    return evaluate(parseRun(input.run), parseQrels(input.qrels), parseK(input.k));
  },
  unanimity(input) {
    const check = (v, f) => {
      requireArray(v, f);
      v.forEach((id, i) => requireNonEmptyId(id, `${f}[${i}]`));
      return v;
    };
    return unanimity(check(input.bm25, 'bm25'), check(input.vector, 'vector'));
  },
  rerank(input) {
    requireArray(input.fused, 'fused');
    const items = input.fused.map((r, i) => fusedItem(r, `fused[${i}]`));
    uniqueIds(items, 'fused');
    const topN = input.rerankTopN == null || (typeof input.rerankTopN === 'number' && input.rerankTopN <= 0)
      ? 20 // OP-5; RERANK-1: <= 0 is the default
      : wholeNumber(input.rerankTopN, 'rerankTopN'); // OP-4
    if (input.reranker == null) throw invalid('reranker is required');
    // RERANK-12: the op's reranker needs its name (BACKEND-39's default applies to `search` only).
    const r = scriptedReranker(input.reranker, 'reranker', { defaultName: null });
    const out = applyRerank(items, { enabled: true, reranker: r, topN });
    return {
      results: out.items.map(({ item, rerankScore }) => ({ id: item.id, rerankScore })),
      report: out.report,
    };
  },
  search(input) {
    const backends = scriptedBackends(input.backends, corpusModule ? corpusModule.FtsIndex : null);
    try {
      if (input.request == null) throw invalid('request is required');
      return search(input.request, backends);
    } finally {
      backends.close();
    }
  },
  ...BACKEND_OPS,
};

// Capabilities that need no optional dependency (BACKEND-20..24, BACKEND-33..35).
export const BASE_CAPABILITIES = [
  'embedder:hrc-hash-v1',
  'reranker:hrc-lexical-v1',
  'intent-table:hrc-1.0',
  'stopwords:hrc-1.0',
  'canonical-fts5',
  'bm25-fanout', // spec/fanout.md
];

// What node-sqlite3-wasm with FTS5 adds: operations and the capability sqlite-fts5.
export const SQLITE_OPERATIONS = ['search_corpus', 'fts_search', 'index_documents'];
export const SQLITE_CAPABILITIES = ['sqlite-fts5'];
let SQLITE_OPS = null;

let corpusModule = null;
export async function loadCorpusSupport() {
  if (corpusModule !== null) return corpusModule;
  try {
    corpusModule = await import('./backends/corpus.mjs');
    if (!corpusModule.available()) corpusModule = false;
  } catch (e) {
    process.stderr.write(`hrc-js: search_corpus unavailable: ${e.message}\n`);
    corpusModule = false;
  }
  return corpusModule;
}

export async function runOp(op, input) {
  if (op === 'fts_search' || op === 'index_documents') {
    const mod = await loadCorpusSupport();
    if (!mod) throw new HrcError('unsupported', `${op} needs the optional node-sqlite3-wasm dependency`);
    if (SQLITE_OPS === null) SQLITE_OPS = sqliteOps(mod);
    return SQLITE_OPS[op](input);
  }
  if (op === 'search_corpus') {
    const mod = await loadCorpusSupport();
    if (!mod) throw new HrcError('unsupported', 'search_corpus needs the optional node-sqlite3-wasm dependency');
    if (typeof input.corpus !== 'string') throw invalid('corpus must be a string');
    if (input.request == null) throw invalid('request is required');
    const backends = mod.corpusBackends(input.corpus);
    return search(input.request, backends);
  }
  const fn = Object.hasOwn(OPS, op) ? OPS[op] : profileOperation(op);
  if (!fn) throw new HrcError('unsupported', `unknown operation ${op}`);
  return fn(input);
}

// PROFILE-4: an operation `NAME.op` of a registered profile, or null.
function profileOperation(op) {
  const dot = op.indexOf('.');
  if (dot < 0) return null;
  const profile = PROFILES.get(op.slice(0, dot));
  const ops = profile?.operations ?? {};
  return Object.hasOwn(ops, op) ? ops[op] : null;
}
