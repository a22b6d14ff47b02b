// Profile temporal (spec/profiles/temporal.md): the day-number calendar against Date in UTC
// (years 1000..9999, where Date has no two-digit-year mapping), and the traps a Date-based port
// falls into.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { civilFromDays, daysFromCivil, monthsBack, slash, weekday, parseQuestionDate, expandTemporal } from '../src/temporal.mjs';

const DAY = 86400000;

test('civil conversion and weekday agree with Date.UTC (TEMPORAL-9, TEMPORAL-10)', () => {
  for (let n = daysFromCivil(1000, 1, 1); n <= daysFromCivil(9999, 12, 31); n += 997) {
    const d = new Date(n * DAY);
    assert.deepEqual(civilFromDays(n), [d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate()]);
    assert.equal(weekday(n), d.getUTCDay());
    assert.equal(daysFromCivil(...civilFromDays(n)), n);
  }
});

test('monthsBack is setUTCMonth (TEMPORAL-12)', () => {
  for (let n = daysFromCivil(1100, 1, 28); n <= daysFromCivil(9999, 12, 31); n += 331) {
    for (const k of [1, 2, 13, 25]) {
      const d = new Date(n * DAY);
      d.setUTCMonth(d.getUTCMonth() - k);
      assert.equal(monthsBack(n, k), Math.floor(d.getTime() / DAY));
    }
  }
});

test('the Date traps the port avoids (TEMPORAL-8, TEMPORAL-13)', () => {
  // Date.UTC reads year 50 as 1950 and rolls 2026-02-30 into March; the port does neither.
  assert.equal(new Date(Date.UTC(50, 2, 31)).getUTCFullYear(), 1950);
  assert.equal(slash(monthsBack(daysFromCivil(50, 3, 31), 1)), '0050/03/03');
  assert.equal(new Date(Date.UTC(2026, 1, 30)).getUTCMonth(), 2);
  assert.equal(parseQuestionDate('2026-02-30'), null);
  // JavaScript % is truncating: the weekday of 1969-12-27 (day -5) is Saturday, not -1.
  assert.equal((-5 + 4) % 7, -1);
  assert.equal(weekday(-5), 6);
});

test('expandTemporal: the anchor worked example (TEMPORAL-20)', () => {
  const e = expandTemporal('what did I watch 2 weeks ago last Friday?', '2026-04-18 (Sat)');
  assert.deepEqual(e.dateHints, ['2026/04/04', '2026/04/17']);
  assert.equal(e.expandedQuery, 'what did I watch 2 weeks ago (around 2026/04/04) last Friday (2026/04/17)?');
});
