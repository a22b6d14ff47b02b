import { test } from 'node:test';
import assert from 'node:assert/strict';
import { variantList } from '../src/pipeline.mjs';

const profilesWith = (variants) => ({ queryVariants: () => variants });

test('PIPE-12: the query first, repeats after normalisation dropped', () => {
  assert.deepEqual(
    variantList('acme', profilesWith(['Beta  widgets', 'Beta widgets', ' acme\u200b'])),
    ['acme', 'Beta  widgets'],
  );
});

test('PIPE-12: an empty variant is invalid input', () => {
  assert.throws(() => variantList('acme', profilesWith(['beta', ' \u200b '])), (e) => e.kind === 'invalid_input');
});
