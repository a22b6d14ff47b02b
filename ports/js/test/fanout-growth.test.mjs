// The fanout plan is linear in connector words (issue 39, item 7): two sizes compared as a
// ratio (growth.mjs), never an absolute time.
import { test } from 'node:test';
import { assertLinear } from './growth.mjs';
import { planTexts } from '../src/fanout.mjs';

for (const unit of ['x and y or z plus ', 'and 1 or 2 plus 3 with 4 ', 'green and tea or pasta ']) {
  test(`FANOUT-6: phrase probes are linear in connectors (${unit.trim()})`, () => {
    const make = (n) => {
      const q = unit.repeat(n);
      return () => planTexts(q, q);
    };
    assertLinear(make, 12, unit.trim());
  });
}
