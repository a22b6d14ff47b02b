// The backend operations (spec/operations.md "Backend operations"), through runOp as the adapter
// calls them. The SQLite-backed ones skip without node-sqlite3-wasm.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runOp, loadCorpusSupport } from '../src/ops.mjs';

const run = (op, input) => runOp(op, input);
const kind = async (op, input) => {
  try {
    await run(op, input);
    return 'ok';
  } catch (e) {
    return e.kind ?? `not an HrcError: ${e}`;
  }
};

test('fnv1a: hash of the UTF-8 bytes as given, bucket mod 256 (BACKEND-22)', async () => {
  assert.deepEqual(await run('fnv1a', { text: 'a' }), { hash: 3826002220, bucket: 3826002220 % 256 });
  assert.deepEqual(await run('fnv1a', { text: '$ca' }), { hash: 456383555, bucket: 67 });
  assert.deepEqual(await run('fnv1a', { text: '' }), { hash: 2166136261, bucket: 2166136261 % 256 });
  // not normalised: e + U+0301 hashes differently from é
  assert.notEqual((await run('fnv1a', { text: 'e\u0301' })).hash, (await run('fnv1a', { text: '\u00e9' })).hash);
  assert.equal(await kind('fnv1a', { text: '\ud800' }), 'invalid_input'); // TextEncoder would hash U+FFFD
  assert.equal(await kind('fnv1a', {}), 'invalid_input');
});

test('embed_features and embed (BACKEND-21..23)', async () => {
  assert.deepEqual(await run('embed_features', { text: 'Cat, a' }), { features: ['$ca', 'cat', 'at$', '$a$'] });
  assert.deepEqual(await run('embed', { text: 'café' }), { dimension: 256, counts: [[67, 1], [106, 1], [243, 1], [253, 1]] });
  assert.deepEqual(await run('embed', { text: 'Cat, cat!' }), { dimension: 256, counts: [[7, 2], [67, 2], [196, 2]] });
  assert.deepEqual(await run('embed', { text: '!!!' }), { dimension: 256, counts: [] });
});

test('chunk_document: the example of backends.md, hash, base64 and errors', async () => {
  const text = '# Tea\n\nI prefer green tea.\nSencha, mostly.\n\n## Brewing\n75 degrees.\n';
  const out = await run('chunk_document', { path: 'notes/tea.md', text });
  assert.equal(out.title, 'Tea');
  assert.equal(out.summary, 'I prefer green tea. Sencha, mostly.');
  assert.equal(out.hash.length, 64);
  assert.deepEqual(out.chunks, [{ id: 'notes/tea.md#0', content: '# Tea\n\nI prefer green tea. Sencha, mostly.\n\n## Brewing\n\n75 degrees.' }]);
  const viaB64 = await run('chunk_document', { path: 'notes/tea.md', base64: Buffer.from(text).toString('base64') });
  assert.deepEqual(viaB64, out);
  // the empty-text SHA-256
  assert.deepEqual(await run('chunk_document', { path: 'e.md', text: '' }), {
    title: 'e',
    summary: '',
    hash: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    chunks: [],
  });
  assert.equal(await kind('chunk_document', { path: 'b.md', base64: '/w==' }), 'index_error'); // 0xFF
  for (const bad of ['eA', 'eA==\n', 'e-==', '====', 'eA=A']) {
    assert.equal(await kind('chunk_document', { path: 'b.md', base64: bad }), 'invalid_input', bad);
  }
  assert.equal(await kind('chunk_document', { path: 'b.md', text: 'x', base64: 'eA==' }), 'invalid_input');
  assert.equal(await kind('chunk_document', { path: 'b.md' }), 'invalid_input');
  assert.equal(await kind('chunk_document', { path: '', text: 'x' }), 'invalid_input');
});

test('chunk_document: title is the first heading with text, else the name without its last suffix (BACKEND-15)', async () => {
  const title = async (path, text) => (await run('chunk_document', { path, text })).title;
  assert.equal(await title('h.md', '#   \n\n## Real title\n\nbody\n'), 'Real title'); // FINDINGS B1
  assert.equal(await title('h.md', '#\n\nbody\n'), 'h');
  assert.equal(await title('notes.v2.md', 'body'), 'notes.v2');
  assert.equal(await title('d.x/README', 'body'), 'README');
  assert.equal(await title('a.', 'body'), 'a');
  assert.equal(await title('.md', 'body'), ''); // FINDINGS B2
});

test('vector_search: exact cosine order, path tie-break, reported similarity (BACKEND-27..30)', async () => {
  const tie = await run('vector_search', {
    queryVector: [1, 0],
    chunks: [
      { id: 'b', path: 'b.md', vector: [3, 3] },
      { id: 'a', path: 'a.md', vector: [1, 1] },
      { id: 'z', path: 'z.md', vector: [0, 5] },
    ],
  });
  assert.deepEqual(tie.hits, [
    { id: 'a', path: 'a.md', dot: 1, similarity: 0.7071067811865475 },
    { id: 'b', path: 'b.md', dot: 3, similarity: 0.7071067811865476 },
  ]);
  const cafe = await run('vector_search', { query: 'cat', chunks: [{ id: 'c', path: 'c.md', content: 'café' }] });
  assert.deepEqual(cafe.hits, [{ id: 'c', path: 'c.md', dot: 1, similarity: 0.2886751345948129 }]);
  const tea = await run('vector_search', { query: 'tea', chunks: [{ id: 'g', path: 'g.md', content: 'green tea' }], limit: 1.0 });
  assert.equal(tea.hits[0].similarity, 0.6123724356957946);
  // a vector with the maximal components: products beyond 2^64 stay exact
  const big = Array(256).fill(65535);
  const bigHits = await run('vector_search', { queryVector: big, chunks: [{ id: 'x', path: 'x.md', vector: big }] });
  assert.equal(bigHits.hits[0].dot, 256 * 65535 * 65535);
});

test('vector_search: validation (operations.md, OP-4)', async () => {
  const ok = { id: 'a', path: 'a.md', vector: [1] };
  const bad = [
    { query: 'x', queryVector: [1], chunks: [] },
    { chunks: [] },
    { queryVector: [], chunks: [] },
    { queryVector: Array(257).fill(1), chunks: [] },
    { queryVector: [65536], chunks: [] },
    { queryVector: [1.5], chunks: [] },
    { queryVector: [true], chunks: [] },
    { queryVector: [1, 1], chunks: [ok] },
    { queryVector: [1], chunks: [{ id: 'a', path: 'a.md', content: 'x' }] },
    { query: 'x', chunks: [{ id: 'a', path: 'a.md', content: 'x', vector: [1] }] },
    { query: 'x', chunks: [{ id: 'a', path: 'a.md' }] },
    { queryVector: [1], chunks: [ok, ok] },
    { queryVector: [1], chunks: [ok], limit: 0 },
    { queryVector: [1], chunks: [ok], limit: true },
    { query: '\udc00', chunks: [] },
  ];
  for (const input of bad) assert.equal(await kind('vector_search', input), 'invalid_input', JSON.stringify(input));
  assert.equal(await kind('vector_search', { queryVector: [2.0], chunks: [{ ...ok, vector: [3.0] }], limit: 2.0 }), 'ok');
});

test('lexical_rerank: BACKEND-35 example, head order, empty Q', async () => {
  const head = [
    { id: 'x', path: 'x.md', title: 'Green', content: 'tea' },
    { id: 'y', path: 'y.md' },
  ];
  assert.deepEqual(await run('lexical_rerank', { query: 'green tea preferences', head }), {
    results: [
      { id: 'x', score: 2 / 3 },
      { id: 'y', score: 0 },
    ],
  });
  assert.deepEqual((await run('lexical_rerank', { query: 'the of', head })).results.map((r) => r.score), [0, 0]);
  assert.equal(await kind('lexical_rerank', { query: 'tea', head: [head[0], head[0]] }), 'invalid_input');
  assert.equal(await kind('lexical_rerank', { query: 'tea', head: [{ id: 'z' }] }), 'invalid_input'); // path required
});

const sqlite = await loadCorpusSupport();
const needsSqlite = sqlite ? {} : { skip: 'node-sqlite3-wasm is not installed (npm ci)' };

test('fts_search: stored candidates with score, order and errors (BACKEND-1..7)', needsSqlite, async () => {
  const chunks = [
    { id: 'b#0', path: 'b.md', content: 'green tea', metadata: { k: 'v' } },
    { id: 'a#0', path: 'a.md', content: 'green tea' },
    { id: 'c#0', path: 'c.md', title: 'Café', content: 'coffee' },
  ];
  const out = await run('fts_search', { chunks, expression: '"tea"' });
  assert.deepEqual(out.hits.map((h) => h.id), ['a#0', 'b#0']); // exact score tie -> path
  assert.deepEqual(Object.keys(out.hits[0]), ['id', 'path', 'title', 'summary', 'content', 'metadata', 'score']);
  assert.deepEqual(out.hits[1].metadata, {});
  assert.equal(out.hits[0].title, '');
  assert.ok(out.hits[0].score < 0);
  assert.deepEqual((await run('fts_search', { chunks, expression: '"cafe"' })).hits.map((h) => h.id), ['c#0']); // remove_diacritics
  assert.equal((await run('fts_search', { chunks, expression: '"tea"', limit: 1 })).hits.length, 1);
  assert.equal(await kind('fts_search', { chunks, expression: '' }), 'index_error');
  assert.equal(await kind('fts_search', { chunks, expression: 'NEAR(' }), 'index_error');
  assert.equal(await kind('fts_search', { chunks: [chunks[0], chunks[0]], expression: '"tea"' }), 'invalid_input');
  assert.equal(await kind('fts_search', { chunks: [{ id: 'x', path: 'x.md' }], expression: '"tea"' }), 'invalid_input');
});

test('index_documents: incremental runs, failed runs, selection and searches (BACKEND-8..19, 26)', needsSqlite, async () => {
  const out = await run('index_documents', {
    batches: [
      [
        { path: 'b.md', text: 'green tea' },
        { path: 'a.md', text: '# A\n\ntea' },
        { path: '.hidden.md', base64: '/w==' },
        { path: 'img.png', base64: '/w==' },
        { path: 'UP.MD', text: 'tea' },
      ],
      [
        { path: 'a.md', text: '# A\n\ntea' },
        { path: 'c.txt', text: '' },
        { path: 'd/e.md', text: 'coffee' },
      ],
      [
        { path: 'a.md', text: 'changed' },
        { path: 'z.md', base64: '/w==' },
        { path: 'y.md', base64: '/w==' },
      ],
      [
        { path: 'a.md', text: 'tea again' },
        { path: 'c.txt', text: '' },
        { path: 'd/e.md', text: 'coffee' },
      ],
    ],
    searches: [{ expression: '"tea"' }],
    vectorSearches: [{ query: 'tea', limit: 1 }],
  });
  assert.deepEqual(out.runs, [
    { committed: true, failedPath: null, added: ['a.md', 'b.md'], updated: [], unchanged: [], removed: [] },
    { committed: true, failedPath: null, added: ['c.txt', 'd/e.md'], updated: [], unchanged: ['a.md'], removed: ['b.md'] },
    { committed: false, failedPath: 'y.md', added: [], updated: [], unchanged: [], removed: [] },
    { committed: true, failedPath: null, added: [], updated: ['a.md'], unchanged: ['c.txt', 'd/e.md'], removed: [] },
  ]);
  assert.deepEqual(out.chunks, [
    { id: 'a.md#0', path: 'a.md', title: 'a', summary: 'tea again', content: 'tea again' },
    { id: 'd/e.md#0', path: 'd/e.md', title: 'e', summary: 'coffee', content: 'coffee' },
  ]);
  assert.deepEqual(out.searches[0].hits.map((h) => h.id), ['a.md#0']);
  assert.deepEqual(out.vectorSearches[0].hits.map((h) => h.id), ['a.md#0']);
  const bad = [
    [{ path: 'a.md', text: 'x' }, { path: 'a.md', text: 'y' }],
    [{ path: 'a', text: 'x' }, { path: 'a/b.md', text: 'y' }],
    [{ path: 'a//b.md', text: 'x' }],
    [{ path: './b.md', text: 'x' }],
    [{ path: '../b.md', text: 'x' }],
    [{ path: 'b\\c.md', text: 'x' }],
    [{ path: 'b\u0000.md', text: 'x' }],
    [{ path: '/b.md', text: 'x' }],
  ];
  for (const batch of bad) assert.equal(await kind('index_documents', { batches: [batch] }), 'invalid_input', JSON.stringify(batch));
  assert.equal(await kind('index_documents', { batches: [[{ path: 'a.md', text: 'x' }]], searches: [{ expression: '' }] }), 'index_error');
});

test('index_documents equals an index built from scratch (BACKEND-11)', needsSqlite, async () => {
  const files = [
    { path: 'a.md', text: 'tea tea green' },
    { path: 'b.md', text: 'green tea with a long path' },
    { path: 'n/c.md', text: '# Tea\n\nnotes about tea' },
  ];
  const searches = [{ expression: '"tea"' }, { expression: '"green" OR "notes"' }];
  const incremental = await run('index_documents', {
    batches: [[{ path: 'a.md', text: 'coffee' }, { path: 'x.md', text: 'tea tea tea' }], files],
    searches,
  });
  const scratch = await run('index_documents', { batches: [files], searches });
  assert.deepEqual(incremental.searches, scratch.searches);
  assert.deepEqual(incremental.chunks, scratch.chunks);
});
