#!/usr/bin/env node
// hrc-js adapter: the NDJSON protocol of spec/adapter-protocol.md (PROTO-*), protocol 1.
import { createInterface } from 'node:readline';
import { HrcError } from './src/errors.mjs';
import { OPS, runOp, loadCorpusSupport, BASE_CAPABILITIES, SQLITE_OPERATIONS, SQLITE_CAPABILITIES } from './src/ops.mjs';
import { SPEC_VERSION } from './src/pipeline.mjs';
import { intentTable } from './src/intent.mjs';
import { isStopword } from './src/stopwords.mjs';
import { isPunctOrSymbol } from './src/text.mjs';
import { loadSpecData, loadedDataFiles, specDataNames } from './src/data.mjs';
import { PROFILES } from './src/profiles.mjs';

const PROTOCOL = 1;
const VERSION = '0.1.0';

function log(msg) {
  process.stderr.write(`hrc-js: ${msg}\n`);
}

// The JSON pointer of the first non-finite number in an output, or null (TEXT-11).
function nonFiniteAt(value, pointer) {
  if (typeof value === 'number') return Number.isFinite(value) ? null : pointer;
  if (value === null || typeof value !== 'object') return null;
  for (const [key, sub] of Array.isArray(value) ? value.entries() : Object.entries(value)) {
    const found = nonFiniteAt(sub, `${pointer}/${key}`);
    if (found !== null) return found;
  }
  return null;
}

function send(obj) {
  process.stdout.write(`${JSON.stringify(obj)}\n`);
}

// Fail loudly at start-up when a spec data file is missing (spec/README.md), then load every
// other file the spec ships, so that the hello's dataFiles names all of them (PROTO-28).
intentTable();
isStopword('the', 'anchor');
isStopword('the', 'hrc-1.0');
isPunctOrSymbol(0x21);
for (const name of specDataNames()) loadSpecData(name);
const dataFiles = loadedDataFiles();

const corpus = await loadCorpusSupport();
// SQLite-backed operations are declared only when the FTS5 probe succeeded (loadCorpusSupport).
// PROFILE-1, PROFILE-4: every registered profile's operations, capability and version.
const profileOps = [...PROFILES.values()].flatMap((p) => Object.keys(p.operations ?? {}));
const operations = [...Object.keys(OPS), ...(corpus ? SQLITE_OPERATIONS : []), ...profileOps];
// rrf-weights: RRF list weights other than 1 (RRF-3) are implemented (spec/operations.md);
// graph-leg: the optional third leg (spec/graph.md).
const capabilities = [
  ...(corpus ? SQLITE_CAPABILITIES : []),
  ...BASE_CAPABILITIES,
  'rrf-weights',
  'graph-leg',
  ...[...PROFILES.keys()].map((name) => `profile:${name}`),
];
const profileVersions = Object.fromEntries([...PROFILES.values()].map((p) => [p.name, p.version]));

const rl = createInterface({ input: process.stdin, crlfDelay: Infinity, terminal: false });
let closed = false;

async function handle(line) {
  if (line.endsWith('\r')) line = line.slice(0, -1);
  if (line.trim() === '') return;
  let msg;
  try {
    msg = JSON.parse(line);
  } catch (e) {
    log(`ignoring a line that is not JSON: ${e.message}`);
    return;
  }
  if (msg === null || typeof msg !== 'object' || Array.isArray(msg)) {
    log('ignoring a message that is not a JSON object');
    return;
  }
  switch (msg.type) {
    case 'hello':
      send({
        type: 'hello',
        protocol: PROTOCOL,
        name: 'hrc-js',
        version: VERSION,
        specVersion: SPEC_VERSION,
        operations,
        capabilities,
        dataFiles,
        ...(PROFILES.size > 0 ? { profiles: profileVersions } : {}),
      });
      return;
    case 'bye':
      closed = true;
      rl.close();
      return;
    case 'run': {
      const seq = Number.isInteger(msg.seq) && msg.seq >= 1 ? msg.seq : null;
      if (seq === null) {
        log('run request without a valid seq; cannot answer');
        return;
      }
      try {
        const input = msg.input !== null && typeof msg.input === 'object' && !Array.isArray(msg.input) ? msg.input : null;
        if (input === null) throw new HrcError('invalid_input', 'input must be an object');
        const output = await runOp(String(msg.op), input);
        // TEXT-11: JSON.stringify would write Infinity and NaN as null; the spec says invalid_input.
        const where = nonFiniteAt(output, '');
        if (where !== null) throw new HrcError('invalid_input', `the output would hold a non-finite number at ${where || '/'}`);
        send({ type: 'result', seq, output });
      } catch (e) {
        if (e instanceof HrcError) {
          send({ type: 'error', seq, error: { kind: e.kind, message: e.message } });
        } else {
          log(`internal error in ${msg.case ?? '?'} (${msg.op}): ${e && e.stack ? e.stack : e}`);
          send({ type: 'error', seq, error: { kind: 'internal_error', message: String(e && e.message ? e.message : e) } });
        }
      }
      return;
    }
    default:
      log(`ignoring a message of type ${JSON.stringify(msg.type)}`);
  }
}

// Exactly one request is in flight (PROTO-8), but answer strictly in order anyway.
let chain = Promise.resolve();
rl.on('line', (line) => {
  if (closed) return;
  chain = chain.then(() => handle(line)).catch((e) => log(`unexpected: ${e && e.stack ? e.stack : e}`));
});
rl.on('close', () => {
  chain.then(() => {
    process.exitCode = 0;
  });
});
