import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as Q from '../src/rational.mjs';

test('exact value of a binary64 from its bits', () => {
  assert.deepEqual(Q.exactFloat(0.5), { n: 1n, d: 2n });
  assert.deepEqual(Q.exactFloat(0.1), { n: 3602879701896397n, d: 36028797018963968n });
  assert.deepEqual(Q.exactFloat(-3), { n: -3n, d: 1n });
  assert.deepEqual(Q.exactFloat(5e-324), { n: 1n, d: 1n << 1074n }); // subnormal
  assert.deepEqual(Q.exactFloat(-0), Q.ZERO);
  assert.throws(() => Q.exactFloat(NaN));
});

test('2.2 × 0.45 is exactly above 0.99 although the float product prints 0.9900000000000001', () => {
  assert.equal(2.2 * 0.45, 0.9900000000000001);
  const exact = Q.mul(Q.exactFloat(2.2), Q.exactFloat(0.45));
  assert.equal(Q.compare(exact, Q.exactFloat(0.99)), 1);
});

test('cross-multiplication compares fractions exactly', () => {
  // 3/72 = 2/66 + 1/88 = 1/24 exactly, though the float sums differ
  const a = Q.add(Q.add(Q.rat(1, 72), Q.rat(1, 72)), Q.rat(1, 72));
  const b = Q.add(Q.add(Q.rat(1, 66), Q.rat(1, 66)), Q.rat(1, 88));
  assert.equal(Q.compare(a, b), 0);
  assert.notEqual(1 / 72 + 1 / 72 + 1 / 72, 1 / 66 + 1 / 66 + 1 / 88);
  assert.equal(Q.compare(Q.rat(3, 10), Q.rat(2, 7)), 1);
});
