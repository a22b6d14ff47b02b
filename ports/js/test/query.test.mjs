import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compile, parse, parseAliases, sanitise } from '../src/query.mjs';
import { isStopword, stopwordListName } from '../src/stopwords.mjs';
import { strongestTerm } from '../src/strongest.mjs';

test('DSL worked examples', () => {
  const rows = [
    ['kubernetes setup guide', '"kubernetes" OR "setup" OR "guide"'],
    ['how do I set up the cluster', '"set" OR "cluster"'],
    ['foo AND bar NOT baz', '"foo" AND "bar" NOT "baz"'],
    ['NOT alpha bravo', '"alpha" OR "bravo"'],
    ['"Hello  World" foo*', '"hello world" OR "foo"*'],
    ['"unterminated phrase', '"unterminated phrase"'],
    ['C++ and C# devs', '"devs"'],
    ['foo:bar title^2', '"foobar" OR "title2"'],
    ['NEAR(a b)', '"neara"'],
    ['foo AND ++ bar', '"foo" OR "bar"'],
  ];
  for (const [q, e] of rows) assert.equal(compile(q), e, q);
});

test('aliases: the anchor substitution, after stopword filtering (DSL-13, DSL-14)', () => {
  const t = parseAliases({ k8s: ['kubernetes', 'Kube Cluster'], ml: ['machine learning', 'ml'] });
  assert.equal(compile('k8s NOT ml', t), '"kubernetes" OR "kube cluster" NOT "machine learning" OR "ml"');
  assert.equal(compile('deploy AND k8s', t), '"deploy" AND "kubernetes" OR "kube cluster"');
  assert.equal(compile('ml models', t), '"models"'); // ml is filtered before expansion
  assert.deepEqual(sanitise('How do I set up k8s AND ml?', t), {
    tokens: ['set', 'k8s'],
    expression: '"set" OR "kubernetes" OR "kube cluster"',
  });
  assert.deepEqual(parse('dbs guide', parseAliases({ dbs: ['?!'] })).tokens.map((x) => x.text), ['dbs', 'guide']);
  assert.throws(() => parseAliases({ K8s: [], k8s: [] }), { kind: 'invalid_input' });
});

test('strip before lowercase keeps medial sigma', () => {
  assert.equal(parse('ΟΔΟΣ-Α').tokens[0].text, 'οδοσα');
});

test('stopwords count code points, not UTF-16 units or bytes', () => {
  assert.equal(isStopword('日本'), true);
  assert.equal(isStopword('\u{1D41C}\u{1D41A}'), true);
  assert.equal(isStopword('東京都'), false);
  assert.equal(isStopword('\u{1D41C}\u{1D41A}\u{1D42D}'), false);
  assert.equal(isStopword('The'), false);
  assert.equal(isStopword('the'), true);
});

test('strongest term: longest by code points, leftmost on ties', () => {
  assert.equal(strongestTerm('pasta pizza'), 'pasta');
  assert.equal(strongestTerm('\u{1D41C}\u{1D41A}\u{1D42D} dogs'), 'dogs');
  assert.equal(strongestTerm('kino über'), 'kino');
  assert.equal(strongestTerm('ok \u{1D41C}\u{1D41A}'), '');
});

test('named stopword lists: anchor by default, hrc-1.0 on request (DSL-22)', () => {
  // words in one list and not the other, both directions
  for (const w of ['near', 'tips', 'please', 'buiten']) {
    assert.equal(isStopword(w), true, w);
    assert.equal(isStopword(w, 'hrc-1.0'), false, w);
  }
  for (const w of ['not', 'however', 'dont', 'daar']) {
    assert.equal(isStopword(w), false, w);
    assert.equal(isStopword(w, 'hrc-1.0'), true, w);
  }
  assert.equal(compile('however kubernetes tips'), '"however" OR "kubernetes"');
  assert.equal(compile('however kubernetes tips', new Map(), 'hrc-1.0'), '"kubernetes" OR "tips"');
  assert.equal(strongestTerm('recommendations AND helm'), 'helm');
  assert.equal(strongestTerm('recommendations AND helm', 'hrc-1.0'), 'recommendations');
  assert.equal(stopwordListName(undefined), 'anchor');
  assert.equal(stopwordListName(null), 'anchor');
  for (const bad of ['Anchor', '', 'hrc-2.0', 1]) {
    assert.throws(() => stopwordListName(bad), { kind: 'invalid_input' });
  }
});
