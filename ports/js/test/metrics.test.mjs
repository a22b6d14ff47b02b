import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluate, parseRun, parseQrels, parseK } from '../src/metrics.mjs';

const run = (r, q, k) => evaluate(parseRun(r), parseQrels(q), parseK(k));

test('worked example of spec/metrics.md', () => {
  const out = run({ q1: ['a', 'c', 'a', 'd', 'b'] }, { q1: { a: 2, b: 1, c: 0, d: -1, e: 3 } }, 5);
  assert.deepEqual(out.queries[0], {
    query: 'q1', relevant: 3, retrieved: 4, relevantRetrieved: 2, precision: 0.4,
    recall: 0.6666666666666666, reciprocalRank: 1, ndcg: 0.5104469282277887, hit: 1, averagePrecision: 0.5,
  });
});

test('query ids that look like array indices still sort by code point', () => {
  // JavaScript objects enumerate integer-like keys first, in numeric order: "10" before "9" must not leak.
  const out = run({ 9: ['a'], 10: ['a'], b: ['a'] }, { b: { a: 1 }, 9: { a: 1 }, 10: { a: 1 } }, 1);
  assert.deepEqual(out.queries.map((r) => r.query), ['10', '9', 'b']);
});

test('no evaluated query gives null means', () => {
  const out = run({}, { q: { a: 0 } }, undefined);
  assert.deepEqual(out.excluded, ['q']);
  assert.equal(out.mean.ndcg, null);
});

test('invalid inputs', () => {
  assert.throws(() => parseK(0));
  assert.throws(() => parseK(1001));
  assert.throws(() => parseQrels({ q: { a: 1.5 } }));
  assert.throws(() => parseQrels({ q: { a: true } }));
  assert.throws(() => parseRun({ q: [''] }));
  assert.throws(() => parseRun(['a']));
});
