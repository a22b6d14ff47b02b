// __HRC_NAME__: an hrc adapter (spec/adapter-protocol.md). One JSON object per line.
import { createInterface } from 'node:readline';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Input = { [key: string]: Json };
type Message = { type: string; seq?: number; op?: string; input?: Input };

// TEXT-8: the length of `text` in Unicode code points. Not `text.length` (UTF-16 units).
function opLength(input: Input): Json {
  if (typeof input.text !== 'string') throw new TypeError('text must be a string');
  return { length: [...input.text].length };
}

// Throw it for an optional feature this port does not have: answered `unsupported` (OP-2).
class Unsupported extends Error {}

const OPERATIONS: Record<string, (input: Input) => Json> = { length: opLength }; // add yours

function answer(msg: Message): Json {
  const seq = msg.seq ?? null;
  try {
    const op = OPERATIONS[msg.op ?? ''];
    if (!op) throw new TypeError(`unknown operation ${msg.op}`);
    return { type: 'result', seq, output: op(msg.input ?? {}) };
  } catch (e) {
    // A TypeError is the input's fault (OP-2); anything else is a bug: stack on stderr.
    const kind = e instanceof Unsupported ? 'unsupported'
      : e instanceof TypeError ? 'invalid_input' : 'internal_error';
    if (kind === 'internal_error') process.stderr.write(`${(e as Error).stack}\n`);
    return { type: 'error', seq, error: { kind, message: String((e as Error).message) } };
  }
}

// JSON.stringify writes NaN and Infinity as null, silently: such an output is a bug (PROTO-2).
const finite = (v: Json): boolean => (typeof v === 'number' ? Number.isFinite(v)
  : Array.isArray(v) ? v.every(finite)
    : v !== null && typeof v === 'object' ? Object.values(v).every(finite) : true);
const send = (obj: Json): void => {
  const line = finite(obj) ? JSON.stringify(obj) : JSON.stringify({ type: 'error',
    seq: (obj as { seq?: Json }).seq ?? null,
    error: { kind: 'internal_error', message: 'output holds a non-finite number' } });
  process.stdout.write(`${line}\n`);
};

const rl = createInterface({ input: process.stdin, terminal: false });
rl.on('line', (line: string) => {
  if (line.trim() === '') return;
  const msg = JSON.parse(line) as Message;
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
