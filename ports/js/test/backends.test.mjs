import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fnv1a32, embed } from '../src/embedder.mjs';
import { chunkDocument } from '../src/chunker.mjs';

const nonzero = (v) => Object.fromEntries(v.flatMap((x, i) => (x ? [[i, x]] : [])));

test('hrc-hash-v1 examples (BACKEND-22, BACKEND-23)', () => {
  assert.equal(fnv1a32('a'), 3826002220);
  assert.equal(fnv1a32('$ca'), 456383555);
  assert.deepEqual(nonzero(embed('cat')), { 7: 1, 67: 1, 196: 1 });
  assert.deepEqual(nonzero(embed('Cat, cat!')), { 7: 2, 67: 2, 196: 2 });
  assert.deepEqual(nonzero(embed('café')), { 67: 1, 106: 1, 243: 1, 253: 1 });
  assert.deepEqual(nonzero(embed('a')), { 182: 1 });
  assert.deepEqual(nonzero(embed('!!!')), {});
});

test('chunking example (BACKEND-14..17)', () => {
  const bytes = new TextEncoder().encode('# Tea\n\nI prefer green tea.\nSencha, mostly.\n\n## Brewing\n75 degrees.\n');
  assert.deepEqual(chunkDocument('notes/tea.md', bytes), [
    {
      id: 'notes/tea.md#0',
      path: 'notes/tea.md',
      title: 'Tea',
      summary: 'I prefer green tea. Sencha, mostly.',
      content: '# Tea\n\nI prefer green tea. Sencha, mostly.\n\n## Brewing\n\n75 degrees.',
    },
  ]);
  assert.equal(chunkDocument('notes.v2.md', new TextEncoder().encode('body'))[0].title, 'notes.v2');
  assert.throws(() => chunkDocument('bad.md', new Uint8Array([0xff])), /bad\.md/);
});

test('search_corpus over the demo corpus (skipped without node-sqlite3-wasm)', async (t) => {
  let mod;
  try {
    mod = await import('../src/backends/corpus.mjs');
  } catch {
    mod = null;
  }
  if (!mod || !mod.available()) {
    t.skip('node-sqlite3-wasm is not installed (npm ci)');
    return;
  }
  const { search } = await import('../src/pipeline.mjs');
  const out = search({ query: 'kubernets' }, mod.corpusBackends('demo'));
  assert.equal(out.trace.bm25.winningRung, 'trigram_fuzzy');
  assert.equal(out.trace.bm25.hits, 14);
  const ladder = search({ query: 'kubernetes AND helicopter' }, mod.corpusBackends('demo'));
  assert.equal(ladder.trace.bm25.winningRung, 'strongest_term');
  assert.equal(ladder.trace.bm25.hits, 19);
});
