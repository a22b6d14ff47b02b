import { test } from 'node:test';
import assert from 'node:assert/strict';
import { trigrams, jaccard, trigramSearch } from '../src/trigram.mjs';

test('trigram worked examples', () => {
  const rows = [
    ['abcdef', 'abcdxyz', 3, 10, true],
    ['abcd', 'abcxy', 2, 7, false],
    ['café', 'cafe', 2, 6, true],
    ['straße', 'strasse', 3, 10, true],
    ['\u{1D41C}\u{1D41A}\u{1D42D}', '\u{1D41C}\u{1D428}\u{1D42D}', 0, 6, false],
    ['kubernets', 'kubernetes', 7, 12, true],
  ];
  for (const [a, b, i, u, s] of rows) assert.deepEqual(jaccard(a, b), { intersection: i, union: u, similar: s }, `${a}~${b}`);
  assert.deepEqual(trigrams('aaaa'), ['$aa', 'aa$', 'aaa']);
  assert.deepEqual(trigrams('a'), ['$a$']);
  assert.deepEqual(trigrams(''), []);
});

test('best pair and order', () => {
  const hits = trigramSearch(['kubernets'], [
    { id: 'c2', path: 'b.md', content: 'kubernetes' },
    { id: 'c1', path: 'a.md', content: 'Kubernetes: kubernet notes' },
  ]);
  assert.deepEqual(hits.map((h) => [h.chunk.id, h.intersection, h.union]), [['c1', 7, 10], ['c2', 7, 12]]);
  assert.throws(() => trigramSearch([], [{ id: 'x', path: '', content: '' }, { id: 'x', path: '', content: '' }]), {
    kind: 'invalid_input',
  });
});
