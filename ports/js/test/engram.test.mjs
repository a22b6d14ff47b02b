// The engram profile's language traps in JavaScript (spec/profiles/engram.md).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { classify, parseDate, querySignal, ENGRAM_PROFILE } from '../src/engram.mjs';

test('ENGRAM-7: year 0001 is not 1901 (Date.UTC maps years 0..99 to 1900..1999)', () => {
  assert.equal(Date.UTC(1, 0, 1), Date.UTC(1901, 0, 1)); // the trap exists...
  const d = parseDate('0001-01-01');
  assert.equal(d.seconds / 86400, -719162); // ...and integer days from civil avoid it
});

test('ENGRAM-2: no u flag, so long s is not s and é is no word character', () => {
  assert.equal(classify('ſteps to reproduce').intent, 'what');
  assert.equal(new RegExp('\\bsteps\\b', 'iu').test('ſteps'), true); // what u would do
  assert.equal(classify('whyé').intent, 'why');
});

test('ENGRAM-3: the most matches win, ties to table order, not the order in the query', () => {
  assert.equal(classify('how to fix the bug before the release').intent, 'how');
  assert.equal(classify('debug it before friday').intent, 'when');
  assert.deepEqual(classify('why did the team fix it').matched, ['why', 'who', 'how']);
});

test('ENGRAM-6: counts above 2^53 - 1 are absent; Number() alone would round them', () => {
  assert.equal(Number('9007199254740993'), 9007199254740992);
  const run = (count) => ENGRAM_PROFILE.operations['engram.boost']({
    query: 'q', now: '2026-03-01',
    results: [{ id: 'a', path: 'a.md', score: 1, metadata: { 'engram.accessCount': count } }],
  }).results[0].access;
  assert.equal(run('9007199254740992'), 1);
  assert.notEqual(run('9007199254740991'), 1);
});

test('ENGRAM-8: one temporal signal, the first pattern in engram order that matches', () => {
  assert.equal(querySignal('at 2026-02-14T10:00'), '2026-02');
  assert.equal(querySignal('on 2026-02-30 or 2026-02-14'), '2026-02-30');
  assert.equal(querySignal('March 5 and 2026-01-03'), '2026-01-03');
  assert.equal(querySignal('march 5'), '2026-03-05');
  assert.equal(querySignal('yesterday'), null);
});
