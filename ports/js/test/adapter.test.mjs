import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';

const ADAPTER = fileURLToPath(new URL('../adapter.mjs', import.meta.url));
// The version the spec states (spec/README.md), so a bump of the spec fails here until the port follows.
const SPEC_README = readFileSync(new URL('../../../spec/README.md', import.meta.url), 'utf8');
const SPEC_VERSION = /^Spec version \*\*([0-9]+\.[0-9]+\.[0-9]+)\*\*/m.exec(SPEC_README)[1];

function session(lines) {
  const r = spawnSync(process.execPath, [ADAPTER], { input: lines.map((l) => `${l}\n`).join(''), encoding: 'utf8' });
  return { status: r.status, out: r.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l)), stderr: r.stderr };
}

test('hello, run, error and bye', () => {
  const { status, out } = session([
    '{"type":"hello","protocol":1}',
    '{"type":"run","seq":1,"case":"a/b/c","op":"length","input":{"text":"\\ud835\\udc1c"}}',
    '{"type":"run","seq":2,"case":"a/b/d","op":"rrf","input":{"lists":[],"k":1.5}}',
    '{"type":"run","seq":3,"case":"a/b/e","op":"no_such_op","input":{}}',
    '{"type":"bye"}',
  ]);
  assert.equal(status, 0);
  assert.equal(out[0].type, 'hello');
  assert.equal(out[0].name, 'hrc-js');
  assert.equal(out[0].specVersion, SPEC_VERSION);
  assert.ok(out[0].operations.includes('search'));
  assert.deepEqual(out[1], { type: 'result', seq: 1, output: { length: 1 } });
  assert.equal(out[2].error.kind, 'invalid_input');
  assert.equal(out[3].error.kind, 'unsupported');
});

test('bad input never crashes the adapter; EOF exits 0', () => {
  const { status, out } = session([
    '{"type":"hello","protocol":1}',
    'not json',
    '[1,2]',
    '{"type":"run","seq":1,"case":"a/b/c","op":"normalise","input":{"text":5}}',
    '{"type":"run","seq":2,"case":"a/b/c","op":"search","input":{"request":"x"}}',
    '{"type":"run","seq":3,"case":"a/b/c","op":"words","input":{"text":"ok\\r\\nfine"}}',
  ]);
  assert.equal(status, 0);
  assert.equal(out.length, 4);
  assert.equal(out[1].error.kind, 'invalid_input');
  assert.equal(out[2].error.kind, 'invalid_input');
  assert.deepEqual(out[3].output, { words: ['ok', 'fine'] });
});

test('hello reports the SHA-256 of every spec/data file it loaded (PROTO-28)', async () => {
  const { createHash } = await import('node:crypto');
  const { readFileSync } = await import('node:fs');
  const { repoPath, specDataNames } = await import('../src/data.mjs');
  const { out } = session(['{"type":"hello","protocol":1}', '{"type":"bye"}']);
  const names = specDataNames();
  assert.ok(names.length > 0);
  assert.deepEqual(Object.keys(out[0].dataFiles), names);
  for (const name of names) {
    const want = createHash('sha256').update(readFileSync(repoPath(`spec/data/${name}`))).digest('hex');
    assert.equal(out[0].dataFiles[name], want, name);
  }
  assert.ok(out[0].capabilities.includes('rrf-weights'));
});
