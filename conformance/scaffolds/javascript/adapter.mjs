#!/usr/bin/env node
// __HRC_NAME__: an hrc adapter (spec/adapter-protocol.md). One JSON object per line.
import { createInterface } from 'node:readline';

// TEXT-8: the length of `text` in Unicode code points. Not `text.length` (UTF-16 units).
function opLength(input) {
  if (typeof input.text !== 'string') throw new TypeError('text must be a string');
  return { length: [...input.text].length };
}

const OPERATIONS = { length: opLength }; // add one entry per operation you implement

function answer(msg) {
  try {
    const op = OPERATIONS[msg.op];
    if (!op) throw new TypeError(`unknown operation ${msg.op}`);
    return { type: 'result', seq: msg.seq, output: op(msg.input) };
  } catch (e) {
    // A TypeError is the input's fault (OP-2); anything else is a bug: stack on stderr.
    const kind = e instanceof TypeError ? 'invalid_input' : 'internal_error';
    if (kind === 'internal_error') process.stderr.write(`${e.stack}\n`);
    return { type: 'error', seq: msg.seq, error: { kind, message: String(e.message) } };
  }
}

const send = (obj) => process.stdout.write(`${JSON.stringify(obj)}\n`);

const rl = createInterface({ input: process.stdin, terminal: false });
rl.on('line', (line) => {
  if (line.trim() === '') return;
  const msg = JSON.parse(line);
  if (msg.type === 'hello') {
    send({ type: 'hello', protocol: 1, name: '__HRC_NAME__', version: '0.0.1',
      specVersion: '__HRC_SPEC_VERSION__', operations: Object.keys(OPERATIONS).sort(),
      capabilities: [], dataFiles: {} }); // dataFiles: see README.md (PROTO-28)
  } else if (msg.type === 'run') {
    send(answer(msg));
  } else if (msg.type === 'bye') {
    rl.close();
  }
});
