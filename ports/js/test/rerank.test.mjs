import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyRerank } from '../src/rerank.mjs';
import { unanimity } from '../src/unanimity.mjs';

const items = (ids) => ids.map((id) => ({ id }));
const reranker = (entries) => ({ name: 's', rerank: () => entries });

test('rerank worked example', () => {
  const out = applyRerank(items(['a', 'b', 'c', 'd', 'e']), {
    topN: 3,
    reranker: reranker([{ id: 'c', score: 0.9 }, { id: 'x', score: 0.8 }, { id: 'a', score: 0.2 }, { id: 'c', score: 0.1 }]),
  });
  assert.deepEqual(out.items.map((x) => [x.item.id, x.rerankScore]), [['c', 0.9], ['a', 0.2], ['b', null], ['d', null], ['e', null]]);
  assert.deepEqual(out.report, {
    outcome: 'reranked', provider: 's', sent: ['a', 'b', 'c'], missing: ['b'], invented: ['x'], duplicates: ['c'], error: null,
  });
});

test('equal scores go by head position, not returned order; -0 equals 0', () => {
  const out = applyRerank(items(['a', 'b']), { reranker: reranker([{ id: 'b', score: 0.5 }, { id: 'a', score: 0.5 }]) });
  assert.deepEqual(out.items.map((x) => x.item.id), ['a', 'b']);
  const z = applyRerank(items(['a', 'b']), { reranker: reranker([{ id: 'b', score: 0 }, { id: 'a', score: -0 }]) });
  assert.deepEqual(z.items.map((x) => x.item.id), ['a', 'b']);
});

test('non-finite scores fail the whole response', () => {
  const out = applyRerank(items(['a']), { reranker: reranker([{ id: 'zz', score: NaN }]) });
  assert.equal(out.report.outcome, 'failed');
  assert.deepEqual(out.report.error, { kind: 'reranker_error', message: 'non-finite score' });
});

test('unanimity counts equal positions of the top threes (UNAN-2..UNAN-5)', () => {
  assert.deepEqual(unanimity(['A', 'B', 'C'], ['B', 'A', 'C']), { agreements: 1, fired: false });
  assert.deepEqual(unanimity(['A', 'B', 'C'], ['A', 'B', 'X']), { agreements: 2, fired: true });
  assert.deepEqual(unanimity(['A', 'B'], ['A', 'B', 'C']), { agreements: 0, fired: false });
  assert.deepEqual(unanimity(['A', 'B', 'C', 'D'], ['X', 'Y', 'Z', 'D']), { agreements: 0, fired: false });
  assert.deepEqual(unanimity(['A', 'A', 'B'], ['A', 'B', 'C']), { agreements: 1, fired: false });
  assert.deepEqual(unanimity(['A', 'A', 'B'], ['A', 'A', 'C']), { agreements: 2, fired: true });
});
