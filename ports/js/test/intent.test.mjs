import { test } from 'node:test';
import assert from 'node:assert/strict';
import { detect, reweight, patterns } from '../src/intent.mjs';
import { loadSpecData } from '../src/data.mjs';

test('patterns are the file strings, loaded from spec/data via import.meta.url', () => {
  const data = loadSpecData('intent.json');
  const p = patterns();
  assert.deepEqual(Object.keys(p), [...data.queryPatterns, ...data.documentPatterns].map((x) => x.name));
  assert.equal(p.memory_path, '^memory/');
});

test('\\b is ASCII without flags; folding instead of /i', () => {
  assert.equal(detect('WHEN DID it ship').concreteFact, true);
  assert.equal(detect('tips\u00e9').preference, true);
  assert.equal(detect('ideas\u0663').preference, true);
  assert.equal(detect('\u017fuggest').preference, false); // long s is not folded to s
  assert.equal(detect('İdeas').preference, false);
  assert.equal(new RegExp('\\bideas').test('\u0130deas'.toLowerCase()), false);
  assert.equal(/\bs/iu.test('\u017f'), true); // what a /iu port would wrongly accept
  assert.equal(detect('une suggestion de restaurant ?').label, 'preference');
  assert.equal(detect('wat is mijn favoriete koffie?').label, '');
});

test('multipliers compose at run time; order is exact', () => {
  const s = 1 / 61;
  const item = (id, path, content, summary = '') => ({ id, path, title: '', summary, content, score: s });
  const { rows } = reweight('how many tips', [
    item('raw', 'notes/a.md', 'plain'),
    item('rollup', 'notes/r.md', 'x '.repeat(200), 'a recap'),
    item('dated', 'memory/fact-a.md', 'I prefer tea [date: 2024-05-01] recap'),
  ]);
  const byId = Object.fromEntries(rows.map((r) => [r.item.id, r]));
  assert.equal(byId.rollup.multiplier, 0.82 * 0.45 * 0.75);
  assert.equal(byId.dated.multiplier, 2.1 * 2.2 * 0.45);
  assert.deepEqual(byId.dated.rules, ['preference_memory_boost', 'fact_concise_boost', 'fact_rollup_damp']);
  assert.deepEqual(rows.map((r) => r.item.id), ['dated', 'raw', 'rollup']);
});

test('a dated rollup with score 1.0 ranks above an unmatched 0.99 (INTENT-9)', () => {
  const items = [
    { id: 'u', path: 'u.md', title: '', summary: '', content: 'nothing', score: 0.99 },
    { id: 'd', path: 'd.md', title: '', summary: '', content: '[date: x] summary', score: 1.0 },
  ];
  const { rows } = reweight('when did it happen', items);
  // 1.0 × 2.2 × 0.45 = 0.9900000000000001 exactly above 0.99
  assert.deepEqual(rows.map((r) => r.item.id), ['d', 'u']);
});
