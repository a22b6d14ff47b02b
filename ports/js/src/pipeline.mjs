// The pipeline (spec/pipeline.md PIPE-*, MODE-*) and its trace (spec/trace.md TRACE-*).
import { HrcError, invalid } from './errors.mjs';
import { isObject, isAbsent, wholeNumber } from './validate.mjs';
import { normalise } from './text.mjs';
import { parse, parseAliases, compileTokens } from './query.mjs';
import { stopwordListName } from './stopwords.mjs';
import { runBm25Leg } from './ladder.mjs';
import { planExpressions } from './fanout.mjs';
import { fuse } from './rrf.mjs';
import { reweight, checkTableName } from './intent.mjs';
import { unanimity } from './unanimity.mjs';
import { applyRerank } from './rerank.mjs';
import { parseProfilesMember, ProfileRun } from './profiles.mjs';

export const SPEC_VERSION = '5.0.0';
const MODES = new Set(['bm25', 'semantic', 'hybrid', 'auto']);

// PIPE-1, OP-4, OP-5: a whole number in [1, 2^31-1]; null is absent.
function posInt(v, field, dflt) {
  if (isAbsent(v)) return dflt;
  if (typeof v === 'number' && v <= 0) return dflt; // PIPE-13: <= 0 means the default
  return wholeNumber(v, `request.${field}`);
}

function bool(v, field, dflt) {
  if (isAbsent(v)) return dflt;
  if (typeof v !== 'boolean') throw invalid(`request.${field} must be a boolean`);
  return v;
}

function weight(v, field) {
  if (isAbsent(v)) return 1;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) throw invalid(`request.weights.${field} must be a finite number >= 0`);
  return v;
}

// PIPE-1, PIPE-2
const KNOWN_FIELDS = new Set([
  'query', 'mode', 'topK', 'candidateK', 'rerankTopN', 'rrfK', 'weights', 'rerank', 'skipRetryLadder', 'aliases',
  'bm25Fanout',
  'intentTable',
  'stopwordList',
  'profiles',
]);

// PIPE-14: the longest query, in code points (TEXT-8) of the string as given.
export const MAX_QUERY_CODE_POINTS = 4096;

export function codePointsAbove(s, limit) {
  let n = 0;
  for (const _ of s) if (++n > limit) return true;
  return false;
}

// FANOUT-25, INTENT-14: an operation's query is bounded as PIPE-14 bounds a search's.
export function boundedQuery(value, field, clause) {
  if (value.length > MAX_QUERY_CODE_POINTS && codePointsAbove(value, MAX_QUERY_CODE_POINTS)) {
    throw invalid(`${field} has more than ${MAX_QUERY_CODE_POINTS} code points (${clause})`);
  }
  return value;
}

export function validateRequest(request) {
  if (!isObject(request)) throw invalid('request must be an object');
  // A misspelt field is an error, not silently ignored (FINDINGS F2; golden pipeline/request/unknown-field-rejected).
  const unknown = Object.keys(request).filter((k) => !KNOWN_FIELDS.has(k));
  if (unknown.length > 0) throw invalid(`request has unknown field(s): ${unknown.join(', ')}`);
  if (typeof request.query !== 'string') throw invalid('request.query must be a string');
  // PIPE-14: at most 4096 code points; UTF-16 length overcounts astral characters.
  if (request.query.length > MAX_QUERY_CODE_POINTS && codePointsAbove(request.query, MAX_QUERY_CODE_POINTS)) {
    throw invalid(`request.query has more than ${MAX_QUERY_CODE_POINTS} code points (PIPE-14)`);
  }
  let mode = 'auto';
  if (!isAbsent(request.mode)) {
    if (typeof request.mode !== 'string' || !MODES.has(request.mode)) throw invalid(`request.mode: unknown mode ${JSON.stringify(request.mode)}`);
    mode = request.mode;
  }
  let weights = { bm25: 1, vector: 1, graph: 1 };
  if (!isAbsent(request.weights)) {
    if (!isObject(request.weights)) throw invalid('request.weights must be an object');
    const extra = Object.keys(request.weights).filter((k) => k !== 'bm25' && k !== 'vector' && k !== 'graph');
    if (extra.length > 0) throw invalid(`request.weights has unknown field(s): ${extra.join(', ')}`);
    weights = {
      bm25: weight(request.weights.bm25, 'bm25'),
      vector: weight(request.weights.vector, 'vector'),
      graph: weight(request.weights.graph, 'graph'), // GRAPH-1
    };
  }
  const req = {
    query: request.query,
    mode,
    topK: posInt(request.topK, 'topK', 10),
    candidateK: posInt(request.candidateK, 'candidateK', 60),
    rerankTopN: posInt(request.rerankTopN, 'rerankTopN', 20),
    rrfK: posInt(request.rrfK, 'rrfK', 60),
    weights,
    rerank: bool(request.rerank, 'rerank', true),
    skipRetryLadder: bool(request.skipRetryLadder, 'skipRetryLadder', false),
    bm25Fanout: bool(request.bm25Fanout, 'bm25Fanout', false), // FANOUT-1
    // PIPE-1, INTENT-13: a known table name; absent means the anchor table.
    intentTable: checkTableName(request.intentTable, 'request.intentTable'),
  };
  const aliasTable = parseAliases(request.aliases, 'request.aliases');
  // DSL-22: one named stopword list for every stage that filters stopwords.
  const stopwordList = stopwordListName(request.stopwordList, 'request.stopwordList');
  if (normalise(req.query) === '') throw invalid('request.query is empty after normalisation');
  const profiles = parseProfilesMember(request.profiles); // PIPE-10
  return { req, aliasTable, stopwordList, profiles };
}

// MODE-1..MODE-3
function resolveMode(mode, hasEmbedder) {
  if (mode === 'auto') return { effective: hasEmbedder ? 'hybrid' : 'bm25', fellBack: false };
  if (mode === 'bm25') return { effective: 'bm25', fellBack: false };
  if (hasEmbedder) return { effective: mode, fellBack: false };
  return { effective: 'bm25', fellBack: true };
}

function legError(e) {
  if (e instanceof HrcError && e.kind === 'index_error') return { kind: 'index_error', message: e.message };
  throw e;
}

// MODE-4, PIPE-8: a leg runs when its mode runs it and its weight is not 0; else a skip reason.
const legSkip = (inMode, w) => (!inMode ? 'mode' : w === 0 ? 'zero_weight' : null);

// PIPE-12: the request's query, then the profiles' variants; repeats after TEXT-1..4 dropped.
export function variantList(query, profiles) {
  const out = [query];
  const seen = new Set([normalise(query)]);
  for (const v of profiles.queryVariants(query)) {
    const key = normalise(v);
    if (key === '') throw invalid('a query variant is empty after normalisation');
    if (!seen.has(key)) {
      seen.add(key);
      out.push(v);
    }
  }
  return out;
}

// PIPE-3 stages 1, 3 and 4 (and the graph leg) for one query variant, with the lists stage 5
// fuses (PIPE-12); fusion waits until every variant ran (PIPE-15 is checked first).
function runVariant(text, ctx) {
  const { req, aliasTable, stopwordList, profiles, backends, effective, graphBackend } = ctx;
  // 1. parse and compile, after the profiles' rewrites (PIPE-11)
  const query = profiles.rewriteQuery(text, req.bm25Fanout); // FANOUT-15: no temporal rewrite with the fanout
  const parsed = parse(query, aliasTable, stopwordList);
  const expression = compileTokens(parsed.tokens);
  const weights = profiles.adjustWeights(query, req.weights); // PIPE-11
  const bm25Skip = legSkip(effective === 'bm25' || effective === 'hybrid', weights.bm25);
  let vectorSkip = legSkip(effective === 'semantic' || effective === 'hybrid', weights.vector);
  // PIPE-11: a profile may run the vector leg at weight 0; it is then neither fused nor a voter.
  const vectorUnfused = vectorSkip === 'zero_weight' && profiles.runsAtZeroWeight('vector');
  if (vectorUnfused) vectorSkip = null;
  const graphSkip = legSkip(effective === 'hybrid', weights.graph); // GRAPH-3
  const bm25Runs = bm25Skip === null;
  const vectorRuns = vectorSkip === null;
  const graphRuns = graphBackend !== null && graphSkip === null;

  // 3. BM25 leg
  let bm25 = { ran: false, attempts: [], usedRetry: false, winningRung: null, hits: [], error: null };
  if (req.bm25Fanout) bm25.firstPass = []; // FANOUT-19: [] when the leg does not run
  if (bm25Runs) {
    const index = backends.index;
    // FANOUT-13..15: the plan of the query and its base (the temporal-augmented query)
    const firstPass = req.bm25Fanout ? planExpressions(query, profiles.fanoutBase(query), aliasTable, stopwordList) : null;
    const leg = runBm25Leg({
      firstPass,
      query,
      aliasTable,
      compiled: expression,
      candidateK: req.candidateK,
      skipRetryLadder: req.skipRetryLadder,
      index: {
        searchBm25: (expression, limit) =>
          profiles.legSearch('bm25', limit, (n) => index.searchBm25(expression, n))(limit),
        chunks: () => index.chunks(),
      },
      trigramFilter: (limit, run) => {
        // Profiles filter candidates: show them each hit's chunk, keep the hits whose chunk stays.
        const byChunk = new Map();
        const ask = profiles.legSearch('bm25', limit, (n) => run(n).map((hit) => {
          byChunk.set(hit.chunk, hit);
          return hit.chunk;
        }));
        return ask(limit).map((c) => byChunk.get(c));
      },
      stopwordList,
    });
    bm25 = { ran: true, ...leg };
  }

  // 4. vector leg
  let vector = { ran: false, hits: [], error: null };
  if (vectorRuns) {
    vector = { ran: true, hits: [], error: null };
    const embedded = profiles.vectorQuery(parsed.normalised); // PIPE-11
    try {
      const ask = profiles.legSearch('vector', req.candidateK, (n) =>
        backends.vector.search(backends.embedder.embed(embedded), n));
      vector.hits = ask(req.candidateK).slice(0, req.candidateK);
    } catch (e) {
      vector.error = legError(e);
      vector.hits = [];
    }
  }

  // GRAPH-3: the graph leg, after the vector leg.
  let graph = { ran: false, hits: [], error: null };
  if (graphRuns) {
    graph = { ran: true, hits: [], error: null };
    try {
      const ask = profiles.legSearch('graph', req.candidateK, (n) => graphBackend.search(parsed.normalised, n));
      graph.hits = ask(req.candidateK).slice(0, req.candidateK);
    } catch (e) {
      graph.error = legError(e);
      graph.hits = [];
    }
  }

  // the lists of stage 5
  const lists = [];
  if (bm25Runs) lists.push({ name: 'bm25', weight: weights.bm25, items: bm25.hits });
  if (vectorRuns && !vectorUnfused) lists.push({ name: 'vector', weight: weights.vector, items: vector.hits });
  if (graphRuns) lists.push({ name: 'graph', weight: weights.graph, items: graph.hits }); // GRAPH-4
  const ranLegs = [bm25Runs ? bm25 : null, vectorRuns ? vector : null, graphRuns ? graph : null].filter(Boolean);
  return {
    text, query, parsed, expression, bm25, bm25Runs, bm25Skip, vector, vectorRuns, vectorSkip, vectorUnfused,
    graph, graphRuns, graphSkip, lists, ranLegs, fused: [],
  };
}

// PIPE-5 per variant, then PIPE-12: one variant's fused list as is; several merge by RRF of
// their ranks, weight 1 each.
function mergeVariants(runs, k) {
  for (const run of runs) run.fused = fuse(run.lists, k);
  if (runs.length === 1) return { lists: runs[0].lists, fused: runs[0].fused };
  const lists = runs.map((run, i) => ({ name: `variant:${i}`, weight: 1, items: run.fused }));
  return { lists, fused: fuse(lists, k) };
}

// TRACE-7, TRACE-9: a variant's legs in the trace's form.
function legsJson(run, withGraph) {
  const out = {
    bm25: {
      ran: run.bm25.ran,
      skip: run.bm25Skip,
      attempts: run.bm25.attempts,
      usedRetry: run.bm25.usedRetry,
      winningRung: run.bm25.winningRung,
      hits: run.bm25.hits.length,
      error: run.bm25.error,
      ...(run.bm25.firstPass !== undefined ? { firstPass: run.bm25.firstPass } : {}),
    },
    vector: { ran: run.vector.ran, skip: run.vectorSkip, hits: run.vector.hits.length, error: run.vector.error },
  };
  if (withGraph) {
    out.graph = { ran: run.graph.ran, skip: run.graphRuns ? null : run.graphSkip, hits: run.graph.hits.length, error: run.graph.error };
  }
  return out;
}

const listsJson = (lists) => lists.map((l) => ({ name: l.name, weight: l.weight, size: l.items.length }));

/**
 * backends: {index, embedder, vector, reranker} (see backends/scripted.mjs and backends/corpus.mjs).
 * Returns {results, trace}; throws HrcError for invalid input, or when no BM25 leg ran and
 * every leg that ran errored (PIPE-15; a BM25 error is recorded and answered, PIPE-7).
 */
export function search(request, backends) {
  const t0 = performance.now();
  const { req, aliasTable, stopwordList, profiles: enabled } = validateRequest(request);
  const profiles = new ProfileRun(enabled, backends.profiles); // PIPE-9: checked up front
  const variants = variantList(req.query, profiles); // PIPE-12, before any backend call

  // 2. mode, once for every variant (PIPE-12)
  const { effective, fellBack: fb } = resolveMode(req.mode, backends.embedder !== null);
  // GRAPH-2: a scripted graph takes precedence over one a profile supplies.
  const graphBackend = backends.graph ?? profiles.graphBackend();
  const ctx = { req, aliasTable, stopwordList, profiles, backends, effective, graphBackend };
  const runs = variants.map((text) => runVariant(text, ctx));

  // PIPE-7, PIPE-15, PIPE-12: a BM25 error never fails the call; without a BM25 leg in any
  // variant, the call fails when every leg that ran, of every variant, errored.
  const ranLegs = runs.flatMap((run) => run.ranLegs);
  const bm25Ran = runs.some((run) => run.bm25Runs);
  if (!bm25Ran && ranLegs.length > 0 && ranLegs.every((l) => l.error !== null)) {
    throw new HrcError('index_error', ranLegs.map((l) => l.error.message).join('; '));
  }
  // MODE-6: any variant's vector error in hybrid.
  const fellBackToBM25 = fb || (effective === 'hybrid' && runs.some((run) => run.vector.error !== null));
  const { lists, fused } = mergeVariants(runs, req.rrfK);
  const first = runs[0];
  const { query, parsed, expression, bm25, vector } = first;
  const bm25Runs = first.bm25Runs;
  const vectorRuns = first.vectorRuns;

  // 6. intent, then the profiles' post-fusion stages (PIPE-11)
  const intent = reweight(query, fused, req.intentTable);
  const afterIntent = profiles.afterFusion(query, intent.rows.map((row) => {
    const item = { ...row.item, score: row.score, exact: row.exact }; // exact after intent (INTENT-9)
    return item;
  }));

  // 7 + 8. unanimity (evaluated at the unanimity step of RERANK-10) and rerank
  let unan = { evaluated: false, agreements: null, fired: false };
  const reranker = backends.reranker
    ? { name: backends.reranker.name, rerank: (head) => backends.reranker.rerank(query, head) }
    : null;
  const reranked = applyRerank(afterIntent, {
    enabled: req.rerank && profiles.rerankEnabled(), // PIPE-11
    reranker,
    topN: req.rerankTopN,
    unanimityFired: () => {
      if (!bm25Runs || !vectorRuns || first.vectorUnfused) return false; // UNAN-6: a vote between two fused legs that ran
      const u = unanimity(
        bm25.hits.map((h) => h.id),
        vector.hits.map((h) => h.id),
      );
      unan = { evaluated: true, agreements: u.agreements, fired: u.fired };
      return u.fired;
    },
  });

  // 9. the profiles' post-rerank removals (PIPE-11), then truncation
  const kept = profiles.afterRerank(query, reranked.items, reranked.report.outcome);
  const results = kept.slice(0, req.topK).map(({ item, rerankScore }) => ({
    id: item.id,
    path: item.path,
    title: item.title,
    summary: item.summary,
    content: item.content,
    metadata: item.metadata,
    score: item.score,
    rerankScore,
  }));

  const requestWeights = { bm25: req.weights.bm25, vector: req.weights.vector };
  if (graphBackend !== null) requestWeights.graph = req.weights.graph; // GRAPH-5
  const trace = {
    specVersion: SPEC_VERSION,
    request: {
      query: req.query,
      mode: req.mode,
      topK: req.topK,
      candidateK: req.candidateK,
      rerankTopN: req.rerankTopN,
      rrfK: req.rrfK,
      weights: requestWeights,
      rerank: req.rerank,
      skipRetryLadder: req.skipRetryLadder,
    },
    requestedMode: req.mode,
    effectiveMode: effective,
    fellBackToBM25,
    query: {
      normalised: parsed.normalised,
      hasOperators: parsed.hasOperators,
      tokens: parsed.tokens,
      expression,
    },
    ...legsJson(first, graphBackend !== null),
    fusion: {
      k: req.rrfK,
      lists: listsJson(lists),
      fusedHits: fused.length,
    },
    intent: {
      preference: intent.detection.preference,
      concreteFact: intent.detection.concreteFact,
      label: intent.detection.label,
      adjusted: intent.adjusted,
    },
    unanimity: unan,
    rerank: reranked.report,
    resultIds: results.map((r) => r.id),
    timings: { totalMs: Math.max(0, performance.now() - t0) },
  };
  if (runs.length > 1) {
    // TRACE-16: one entry per variant, before `profiles` as in the reference.
    trace.variants = runs.map((run) => ({
      query: run.text,
      ...legsJson(run, graphBackend !== null),
      lists: listsJson(run.lists),
      fusedHits: run.fused.length,
    }));
  }
  if (profiles.calls.length > 0) trace.profiles = profiles.traceJson(); // PIPE-11, TRACE-15
  return { results, trace };
}
