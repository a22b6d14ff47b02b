// The BM25 leg: initial search and the zero-hit retry ladder (spec/ladder.md, LADDER-1..LADDER-15).
import { HrcError } from './errors.mjs';
import { compileTokens, parse, sanitise, ftsQuote } from './query.mjs';
import { strongestTerm } from './strongest.mjs';
import { fold } from './text.mjs';
import { trigramSearch } from './trigram.mjs';
import { kept, merge } from './fanout.mjs';

function row(rung, expression, searched, hits, skip, error) {
  return { rung, expression, searched, hits, skip, error };
}

function errorObject(e) {
  if (e instanceof HrcError && e.kind === 'index_error') return { kind: 'index_error', message: e.message };
  throw e;
}

/**
 * index: {searchBm25(expression, limit), chunks()}; returns
 * {attempts, usedRetry, winningRung, hits: [candidate], error}.
 */
export function runBm25Leg({ query, aliasTable, compiled, candidateK, skipRetryLadder, index, stopwordList, trigramFilter, firstPass = null }) {
  const attempts = [];
  let error = null;
  let winning = null;
  let hits = [];

  // One FTS5 rung. Returns 'hit', 'none' or 'error'. LADDER-3: a rung with nothing to
  // search emits no row, except `initial` (an `empty` row); LADDER-6: a repeat is searched.
  const ftsRung = (rung, expression) => {
    if (expression === '') {
      if (rung === 'initial') attempts.push(row(rung, '', false, 0, 'empty', null));
      return 'none';
    }
    let got;
    try {
      got = index.searchBm25(expression, candidateK);
    } catch (e) {
      error = errorObject(e);
      attempts.push(row(rung, expression, true, 0, null, error));
      return 'error';
    }
    got = got.slice(0, candidateK);
    attempts.push(row(rung, expression, true, got.length, null, null));
    if (got.length > 0) {
      winning = rung;
      hits = got;
      return 'hit';
    }
    return 'none';
  };

  let passes = null; // FANOUT-19: the first-pass rows, with the fanout
  const done = () => ({
    attempts,
    usedRetry: attempts.length > 1,
    winningRung: winning,
    hits,
    error,
    ...(passes !== null ? { firstPass: passes } : {}),
  });

  // FANOUT-16..19: every plan query, the kept answers merged; the initial row shows the first.
  const fanoutPass = (expressions) => {
    passes = [];
    if (expressions.length === 0) {
      attempts.push(row('initial', '', false, 0, 'empty', null));
      return 'none';
    }
    const lists = [];
    let primary = [];
    for (let i = 0; i < expressions.length; i += 1) {
      let got;
      try {
        got = index.searchBm25(expressions[i], candidateK);
      } catch (e) {
        error = errorObject(e);
        passes.push({ expression: expressions[i], hits: 0 });
        attempts.push(row('initial', expressions[0], true, 0, null, error));
        return 'error';
      }
      got = got.slice(0, candidateK);
      passes.push({ expression: expressions[i], hits: got.length });
      if (i === 0) primary = got;
      if (got.length > 0 && (i === 0 || kept(primary, expressions[i], got))) lists.push(got);
    }
    const merged = merge(lists, candidateK);
    attempts.push(row('initial', expressions[0], true, merged.length, null, null));
    if (merged.length > 0) {
      winning = 'initial';
      hits = merged;
      return 'hit';
    }
    return 'none';
  };

  // LADDER-7 (FANOUT-18 with the fanout)
  let r = firstPass === null ? ftsRung('initial', compiled) : fanoutPass(firstPass);
  if (r !== 'none' || skipRetryLadder) return done();

  // LADDER-9: not emitted when the term is the whole folded query
  const s1 = strongestTerm(query, stopwordList);
  r = ftsRung('strongest_term', s1 === '' || s1 === fold(query) ? '' : ftsQuote(s1));
  if (r !== 'none') return done();

  // LADDER-5
  attempts.push(row('force-refresh', '', false, 0, 'no_op', null));

  // LADDER-10
  r = ftsRung('refreshed_sanitised', sanitise(query, aliasTable, stopwordList).expression);
  if (r !== 'none') return done();

  // LADDER-11
  const plainTokens = sanitise(query, new Map(), stopwordList).tokens;
  r = ftsRung('refreshed_strongest', s1 === '' ? '' : ftsQuote(s1));
  if (r !== 'none') return done();

  // LADDER-12: trigram_fuzzy
  const expression = plainTokens.join(' ');
  if (plainTokens.length === 0) return done(); // LADDER-3: nothing to match, no row
  let chunks;
  try {
    chunks = index.chunks();
  } catch (e) {
    error = errorObject(e);
    attempts.push(row('trigram_fuzzy', expression, true, 0, null, error));
    return done();
  }
  if (chunks === null || chunks === undefined) {
    attempts.push(row('trigram_fuzzy', expression, false, 0, 'no_chunks', null));
    return done();
  }
  // PIPE-11: profiles may ask for more and filter the rung's hits (by chunk) before the cut.
  const tri = trigramFilter
    ? trigramFilter(candidateK, (n) => trigramSearch(plainTokens, chunks, n))
    : trigramSearch(plainTokens, chunks, candidateK);
  attempts.push(row('trigram_fuzzy', expression, true, tri.length, null, null));
  if (tri.length > 0) {
    winning = 'trigram_fuzzy';
    hits = tri.map(({ chunk }) => ({
      id: chunk.id,
      path: chunk.path,
      title: chunk.title ?? '',
      summary: chunk.summary ?? '',
      content: chunk.content,
      // a chunk's metadata travels with it (FINDINGS F9: the chunk shape does not list metadata)
      metadata: { ...(chunk.metadata ?? {}) },
    }));
  }
  return done();
}

export { parse, compileTokens };
