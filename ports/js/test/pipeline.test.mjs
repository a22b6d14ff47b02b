import { test } from 'node:test';
import assert from 'node:assert/strict';
import { search } from '../src/pipeline.mjs';
import { scriptedBackends } from '../src/backends/scripted.mjs';

test('the kubernets ladder walk (LADDER worked example)', () => {
  const backends = scriptedBackends({
    chunks: [
      { id: 'c1', path: 'a.md', content: 'Kubernetes setup guide' },
      { id: 'c2', path: 'b.md', content: 'Pasta recipes' },
    ],
  });
  const { trace } = search({ query: 'kubernets', mode: 'bm25' }, backends);
  assert.deepEqual(
    trace.bm25.attempts.map((a) => [a.rung, a.expression, a.searched, a.hits, a.skip]),
    [
      ['initial', '"kubernets"', true, 0, null],
      // strongest_term equals the whole folded query: not emitted (LADDER-9)
      ['force-refresh', '', false, 0, 'no_op'],
      ['refreshed_sanitised', '"kubernets"', true, 0, null],
      ['refreshed_strongest', '"kubernets"', true, 0, null],
      ['trigram_fuzzy', 'kubernets', true, 1, null],
    ],
  );
  assert.equal(trace.bm25.winningRung, 'trigram_fuzzy');
  assert.equal(trace.bm25.usedRetry, true);
});

test('hybrid worked example (PIPE)', () => {
  const hit = (id) => ({ id, path: `${id}.md` });
  const backends = scriptedBackends({
    bm25: { responses: { '"kubernetes" OR "setup"': [hit('a'), hit('b')] } },
    embedder: true,
    vector: { hits: [hit('b'), hit('c')] },
  });
  const { results, trace } = search({ query: 'kubernetes setup', mode: 'hybrid' }, backends);
  assert.deepEqual(results.map((r) => [r.id, r.score]), [['b', 0.03252247488101534], ['a', 0.01639344262295082], ['c', 0.016129032258064516]]);
  assert.equal(trace.rerank.outcome, 'no_reranker');
  assert.deepEqual(trace.unanimity, { evaluated: false, agreements: null, fired: false });
});

test('request validation (PIPE-1, PIPE-2)', () => {
  const b = scriptedBackends({});
  for (const bad of [{ query: '\u200b ' }, { query: 'x', topK: 0.5 }, { query: 'x', top_k: 3 }, { query: 'x', mode: 'fast' }, { query: 'x', weights: { bm25: -1 } }]) {
    assert.throws(() => search(bad, b), { kind: 'invalid_input' }, JSON.stringify(bad));
  }
});

test('integers <= 0 take their defaults (PIPE-13)', () => {
  const b = scriptedBackends({});
  const { trace } = search({ query: 'x', topK: 0, candidateK: -5, rerankTopN: -0.5, rrfK: 0 }, b);
  assert.deepEqual(
    [trace.request.topK, trace.request.candidateK, trace.request.rerankTopN, trace.request.rrfK],
    [10, 60, 20, 60],
  );
});

test('a leg of weight 0 makes no backend call and has no vote (PIPE-8, UNAN-6)', () => {
  const hit = (id) => ({ id, path: `${id}.md` });
  let indexCalls = 0;
  let vectorCalls = 0;
  const base = scriptedBackends({
    bm25: { responses: { '"kubernetes"': [hit('a'), hit('b'), hit('c')] } },
    embedder: true,
    vector: { hits: [hit('a'), hit('b'), hit('c')] },
    reranker: { name: 'scripted', results: [{ id: 'c', score: 3 }, { id: 'b', score: 2 }, { id: 'a', score: 1 }] },
  });
  const backends = {
    ...base,
    index: {
      searchBm25: (e, l) => { indexCalls += 1; return base.index.searchBm25(e, l); },
      chunks: () => { indexCalls += 1; return base.index.chunks(); },
    },
    vector: { search: (v, l) => { vectorCalls += 1; return base.vector.search(v, l); } },
  };
  const bm25Off = search({ query: 'kubernetes', mode: 'hybrid', weights: { bm25: 0 } }, backends);
  assert.equal(indexCalls, 0);
  assert.deepEqual(bm25Off.trace.bm25, { ran: false, skip: 'zero_weight', attempts: [], usedRetry: false, winningRung: null, hits: 0, error: null });
  assert.deepEqual(bm25Off.trace.unanimity, { evaluated: false, agreements: null, fired: false });
  assert.deepEqual(bm25Off.results.map((r) => r.id), ['c', 'b', 'a']);
  vectorCalls = 0;
  const vectorOff = search({ query: 'kubernetes', mode: 'hybrid', weights: { vector: 0 } }, backends);
  assert.equal(vectorCalls, 0);
  assert.deepEqual(vectorOff.trace.vector, { ran: false, skip: 'zero_weight', hits: 0, error: null });
  assert.equal(vectorOff.trace.rerank.outcome, 'reranked');
});

test('null is absent and integers stop at 2^31-1 (OP-4, OP-5, PIPE-1, PIPE-9)', async () => {
  const { validateRequest } = await import('../src/pipeline.mjs');
  const nulls = { mode: null, topK: null, candidateK: null, rerankTopN: null, rrfK: null, weights: null, rerank: null, skipRetryLadder: null, aliases: null };
  assert.deepEqual(validateRequest({ query: 'q', ...nulls }).req, validateRequest({ query: 'q' }).req);
  assert.equal(validateRequest({ query: 'q', weights: { vector: null } }).req.weights.vector, 1);
  for (const field of ['topK', 'candidateK', 'rerankTopN', 'rrfK']) {
    assert.equal(validateRequest({ query: 'q', [field]: 2 ** 31 - 1 }).req[field], 2 ** 31 - 1);
    assert.throws(() => validateRequest({ query: 'q', [field]: 2 ** 31 }), { kind: 'invalid_input' });
  }
  assert.throws(() => validateRequest({ query: null }), { kind: 'invalid_input' });
  assert.throws(() => validateRequest({ query: 'q', top_k: null }), { kind: 'invalid_input' });
  const backends = scriptedBackends({ bm25: { errors: { '"kubernetes"': 'must not be called' } } });
  assert.throws(() => search({ query: 'kubernetes', mode: 'bm25', rrfK: 2 ** 31 }, backends), { kind: 'invalid_input' });
});
