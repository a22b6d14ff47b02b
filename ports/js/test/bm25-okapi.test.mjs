import { test } from 'node:test';
import assert from 'node:assert/strict';
import { okapiLn, idf, queryTerms, Collection, checkParams, fuseGenie } from '../src/profiles/bm25-okapi.mjs';

test('OKAPI-5: the pinned ln, not Math.log', () => {
  assert.equal(okapiLn(3.3333333333333335), 1.203972804325936);
  assert.equal(Math.log(3.3333333333333335), 1.2039728043259361);
  assert.equal(okapiLn(2), 0.6931471805599453);
  assert.equal(okapiLn(1), 0);
  assert.throws(() => okapiLn(0.5), RangeError);
});

test('OKAPI-4: IDF of the worked example', () => {
  assert.equal(idf(4, 1), 1.203972804325936);
  assert.equal(idf(12, 1), 2.159484249353372);
});

test('OKAPI-2: query terms are distinct words in code point order', () => {
  assert.deepEqual(queryTerms('tea TEA Cup, \u{1D41C} \uFF41'), ['cup', 'tea', '\uFF41', '\u{1D41C}']);
});

test('OKAPI-8, OKAPI-9: the worked example', () => {
  const c = new Collection([
    { id: 'a', path: 'notes/a.md', content: 'Tea, tea and a cup.' },
    { id: 'b', path: 'notes/b.md', content: 'Coffee mug' },
    { id: 'c', path: 'notes/c.md', content: '' },
    { id: 'd', path: 'notes/d.md', content: 'green tea leaves' },
  ]);
  const { results } = c.score('tea cup', checkParams(null, null));
  assert.deepEqual(results, [
    { id: 'a', path: 'notes/a.md', score: 1.5796743752569702 },
    { id: 'd', path: 'notes/d.md', score: 0.6359148445504086 },
  ]);
});

test('OKAPI-3: parameter bounds', () => {
  assert.throws(() => checkParams(-1, null));
  assert.throws(() => checkParams(null, true));
  assert.deepEqual(checkParams(0, 1), { k1: 0, b: 1 });
});

test('OKAPI-24, OKAPI-25: the seed\'s RRF, ties in first-appearance order', () => {
  assert.deepEqual(fuseGenie(['z', 'y'], ['a', 'b']), [['z', 1 / 61], ['a', 1 / 61], ['y', 1 / 62], ['b', 1 / 62]]);
  assert.equal(fuseGenie(['a'], ['a'])[0][1], 0.03278688524590164);
});
