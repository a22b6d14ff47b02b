import { test } from 'node:test';
import assert from 'node:assert/strict';
import { detect, reweight, patterns, checkTableName, holds } from '../src/intent.mjs';
import { loadSpecData } from '../src/data.mjs';

test('patterns are the file strings of the named table, anchor by default', () => {
  for (const name of ['anchor', 'hrc-1.0']) {
    const data = loadSpecData(`intent-${name}.json`);
    const p = patterns(name);
    assert.deepEqual(Object.keys(p), [...data.queryPatterns, ...data.documentPatterns].map((x) => x.name));
  }
  assert.deepEqual(patterns(), patterns('anchor'));
  assert.equal(patterns('anchor').date_tag, '\\[(?:date|observed on):');
  assert.equal(patterns('hrc-1.0').memory_path, '^memory/');
});

test('an unknown table name is invalid_input (INTENT-13)', () => {
  assert.throws(() => checkTableName('hrc-2.0'), (e) => e.kind === 'invalid_input');
  assert.throws(() => checkTableName(1), (e) => e.kind === 'invalid_input');
  assert.equal(checkTableName('hrc-1.0'), 'hrc-1.0');
});

test('nested conditions: all, any (empty is true), none', () => {
  const t = (n) => ({ a: true, b: false, c: true })[n];
  assert.equal(holds({ all: ['a'], any: [], none: ['b'] }, t), true);
  assert.equal(holds({ any: ['b', { all: ['a', 'c'] }] }, t), true);
  assert.equal(holds({ none: [{ any: ['b', 'c'] }] }, t), false);
});

test('anchor detection: one pattern, or two together (INTENT-4)', () => {
  assert.equal(detect('any tips?').label, 'preference');
  assert.equal(detect('did I like the film').label, '');
  assert.equal(detect('Have I booked the hotel?').label, 'concrete-fact');
  assert.equal(detect('list some tips').label, 'preference+concrete-fact');
  for (const q of ['What do I prefer?', 'my favourite pizza place', "what's the version of X?", 'When did Y happen?']) {
    assert.equal(detect(q).label, '', q);
    assert.notEqual(detect(q, 'hrc-1.0').label, '', q);
  }
});

test('the i flag without u is ASCII-only; \\b is ASCII (INTENT-3)', () => {
  assert.equal(detect('any sugge\u017ftion?').preference, false); // long s is not s
  assert.equal(/suggestion/iu.test('sugge\u017ftion'), true); // what a /iu port would wrongly accept
  assert.equal(detect('d\u0131d i bought it').concreteFact, false); // dotless i is not i
  assert.equal(detect('tips\u00e9').preference, true);
  assert.equal(detect('r\u00e9sum\u00e9 du projet').concreteFact, true);
  assert.equal(detect('what have \u0130 bought').concreteFact, true); // i U+0307: boundary after i
  assert.equal(detect('did I boo\u212aed the hotel').concreteFact, true); // Kelvin sign folds to k
});

test('anchor multipliers: exclusive tiers and composition (INTENT-6, INTENT-7)', () => {
  const item = (id, path, content, score = 1.0) => ({ id, path, title: '', summary: '', content, score });
  const pref = reweight('any tips?', [
    item('u', 'memory/global/user-preference-tea.md', 'I prefer green tea'),
    item('g', 'memory/global/tea.md', 'I prefer green tea'),
    item('r', 'docs/tea.md', 'a recap of tea tips'),
  ]);
  const p = Object.fromEntries(pref.rows.map((r) => [r.item.id, r]));
  assert.deepEqual(p.u.rules, ['preference_user_preference_boost']);
  assert.equal(p.g.multiplier, 2.1);
  assert.equal(p.r.multiplier, 0.82 * 0.9);
  const fact = reweight('how many hotels did I book', [
    item('roll', 'notes/tea.md', 'summary of tea tips'),
    item('uf', 'memory/global/user-fact-car.md', 'overview'),
  ]);
  const f = Object.fromEntries(fact.rows.map((r) => [r.item.id, r]));
  assert.equal(f.roll.multiplier, 0.3375);
  assert.equal(f.uf.multiplier, 0.9900000000000001);
});

test('hrc-1.0: a dated rollup with score 1.0 ranks above an unmatched 0.99 (INTENT-9)', () => {
  const items = [
    { id: 'u', path: 'u.md', title: '', summary: '', content: 'nothing', score: 0.99 },
    { id: 'd', path: 'd.md', title: '', summary: '', content: '[date: x] summary', score: 1.0 },
  ];
  const { rows } = reweight('when did it happen', items, 'hrc-1.0');
  assert.deepEqual(rows.map((r) => r.item.id), ['d', 'u']);
});
