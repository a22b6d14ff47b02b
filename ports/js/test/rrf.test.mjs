import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fuse } from '../src/rrf.mjs';

const item = (id) => ({ id, path: `${id}.md`, title: '', summary: '', content: '', metadata: {} });
const list = (ids, weight = 1) => ({ name: '', weight, items: ids.map(item) });

test('two lists (RRF worked example)', () => {
  const out = fuse([list(['a', 'b']), list(['b', 'c'])], 60);
  assert.deepEqual(out.map((x) => x.id), ['b', 'a', 'c']);
  assert.equal(out[0].score, 0.03252247488101534);
  assert.equal(out[1].score, 0.01639344262295082);
  assert.equal(out[2].score, 0.016129032258064516);
});

test('the summation trap: every list order gives the same bits and order', () => {
  const L1 = ['a', 'b'];
  const L2 = ['b', 'f1', 'f2', 'f3', 'f4', 'f5', 'a'];
  const L3 = ['f0', 'a', 'f2', 'f3', 'f4', 'f5', 'b'];
  const perms = [[L1, L2, L3], [L1, L3, L2], [L2, L1, L3], [L2, L3, L1], [L3, L1, L2], [L3, L2, L1]];
  for (const p of perms) {
    const out = fuse(p.map((ids) => list(ids)), 60);
    assert.deepEqual(out.slice(0, 2).map((x) => [x.id, x.score]), [
      ['a', 0.0474478480153437],
      ['b', 0.0474478480153437],
    ]);
  }
});

test('exact tie with different floats is ordered by the emitted float (RRF-6)', () => {
  const pad = (n) => Array.from({ length: n }, (_, i) => `p${n}-${i}`);
  const lists = [
    list([...pad(5), 'b', ...pad(5).map((x) => `${x}x`), 'a']),
    list([...pad(5).map((x) => `${x}y`), 'b', ...pad(5).map((x) => `${x}z`), 'a']),
    list([...Array.from({ length: 11 }, (_, i) => `q${i}`), 'a', ...Array.from({ length: 15 }, (_, i) => `r${i}`), 'b']),
  ];
  const out = fuse(lists, 60).filter((x) => x.id === 'a' || x.id === 'b');
  assert.deepEqual(out.map((x) => x.id), ['b', 'a']);
  assert.equal(out[0].score, 0.04166666666666667);
  assert.equal(out[1].score, 0.041666666666666664);
});

test('weights, weight 0 and merge', () => {
  assert.equal(fuse([list(['a'], 2)], 60)[0].score, 0.03278688524590164);
  assert.equal(fuse([list(['a'], 0.5)], 60)[0].score, 0.00819672131147541);
  assert.deepEqual(fuse([list(['z'], 0)], 60), []);
  const l1 = { name: '', weight: 1, items: [{ ...item('c'), path: 'p.md', title: '' }] };
  const l2 = { name: '', weight: 1, items: [item('x'), { ...item('c'), path: 'p.md', title: 'Kept' }] };
  assert.equal(fuse([l1, l2], 60).find((x) => x.id === 'c').title, 'Kept');
  const m1 = { name: '', weight: 1, items: [{ ...item('c'), title: 'beta' }] };
  const m2 = { name: '', weight: 1, items: [{ ...item('c'), title: 'alpha' }] };
  assert.equal(fuse([m1, m2], 60)[0].title, 'beta'); // RRF-10: the first list seeds
  assert.equal(fuse([m2, m1], 60)[0].title, 'alpha');
});

test('repeats count per occurrence and fill blanks; paths from the best rank (RRF-4, RRF-13)', () => {
  const rep = { name: '', weight: 1, items: [item('x'), { ...item('x'), title: 'Later' }, item('y')] };
  const out = fuse([rep], 60);
  assert.deepEqual(out.map((x) => [x.id, x.score, x.title]), [['x', 1 / 61 + 1 / 62, 'Later'], ['y', 1 / 63, '']]);
  const p1 = { name: '', weight: 1, items: [item('m'), { ...item('c'), path: 'z-old.md' }] };
  const p2 = { name: '', weight: 1, items: [{ ...item('c'), path: 'a-new.md' }] };
  assert.equal(fuse([p1, p2], 60)[0].path, 'a-new.md');
  assert.equal(fuse([p2, p1], 60)[0].path, 'a-new.md');
});
