// Differential testing: send the same random inputs to two adapters and report every
// disagreement (after dropping `timings`; numbers compared under TEXT-13: bit-exact, except
// the bm25() scores TEXT-13's table names, which compare within a relative 1e-12).
// Usage: node tools/differential.mjs N SEED -- ADAPTER_A... -- ADAPTER_B...
import { openAdapter } from './adapter-client.mjs';

const args = process.argv.slice(2);
const n = Number(args[0] ?? 200);
let seed = Number(args[1] ?? 1);
const sep1 = args.indexOf('--');
const sep2 = args.indexOf('--', sep1 + 1);
const argvA = args.slice(sep1 + 1, sep2);
const argvB = args.slice(sep2 + 1);
// HRC_DIFF_OPS=op1,op2 restricts the run to those operations.
const ONLY = (process.env.HRC_DIFF_OPS ?? '').split(',').filter(Boolean);

function rnd() {
  // mulberry32
  seed |= 0;
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = (xs) => xs[Math.floor(rnd() * xs.length)];
const int = (a, b) => a + Math.floor(rnd() * (b - a + 1));

const PIECES = [
  'a', 'e', 'kubernetes', 'k8s', 'ml', 'the', 'and', 'AND', 'OR', 'NOT', 'not', 'tea', 'prefer', 'when did',
  'how many', 'tips', 'ideas', 'version 3', '2024-05-01', '[date: ', 'summary', 'roll-up', 'in total', '"', '*',
  '-', ':', '^', '(', ')', "'", '_', 'é', 'e\u0301', '\u200b', '\u00ad', '\u180e', '\u0007', '\u001f', '\u0085',
  '\u00a0', '\u3000', '\u2028', 'İ', 'ΟΔΟΣ', 'Σ', 'ß', 'ẞ', 'ﬁ', 'ſ', '\u212a', '𝐜𝐚𝐭', '日本', '東京都', '\ue000',
  '\uffff', '😀', '\u{1fae9}', '٣', 'ǅ', 'Ⅻ', '⓪', '\u0345', 'ΐ', 'İdeas', 'c++', 'C#', 'naïve', 'Zürich',
  '\t', '\n', '\r\n', ' ', '  ', 'NEAR', 'fo*o', 'foo**', '$', '€', '—', '“', '、', 'memory/', 'fact-x',
];
const text = (k = int(0, 8)) => Array.from({ length: k }, () => pick(PIECES)).join(pick(['', ' ', ' ', '']));
const word = () => pick(['', 'a', 'ab', 'abc', 'abcd', 'café', 'cafe', 'straße', 'strasse', '𝐜𝐚𝐭', '𝐜𝐨𝐭', 'kubernets', 'kubernetes', 'aaaa', text(2)]);
const DOC_PATHS = ['a.md', 'b.txt', 'notes/tea.md', 'notes.v2.md', 'x/y/z.md', 'A.MD', '.h.md', 'd/.x/e.md', '\ue000.md', '😀.md', 'cafe\u0301.md', 'p.md'];
const LINES = ['# Tea', '## Brewing', '#', '#   ', '####### Seven', '#nospace', '#\tTab', '', ' ', '\u000b', '\u2028', '\u200b', 'I prefer green tea.', 'Sencha, mostly.', '75 degrees.', 'x'.repeat(199) + ' y', 'w '.repeat(300)];
const docText = () => (rnd() < 0.1 ? '\ufeff' : '') + Array.from({ length: int(0, 7) }, () => (rnd() < 0.7 ? pick(LINES) : text(4))).join(pick(['\n', '\n', '\r\n', '\r', '\n\n']));
const fileBody = () => {
  const r = rnd();
  if (r < 0.1) return { base64: Buffer.from(pick([[0xff], [0x61, 0xc3], [0xef, 0xbb, 0xbf, 0x61]])).toString('base64') };
  if (r < 0.2) return { base64: Buffer.from(docText()).toString('base64') };
  return { text: docText() };
};
const weight = () => pick([1, 1, 0, 0.5, 2, 0.1, 0.3, 1e-7, 3, 0.7, 1.5]);
const ids = ['a', 'b', 'c', 'd', 'e', 'f', '\ue000', '😀', 'B', 'a1'];
const cand = () => {
  const c = { id: pick(ids) };
  if (rnd() < 0.9) c.path = pick(['a.md', 'b.md', 'memory/x.md', 'memory/fact-y.md', 'x/fact-z.md', '\ue000.md', '😀.md', '']);
  if (rnd() < 0.3) c.title = text(3);
  if (rnd() < 0.3) c.summary = text(3);
  if (rnd() < 0.5) c.content = text(int(0, 12));
  if (rnd() < 0.2) c.metadata = { k: pick(['', 'v', 'w']), ...(rnd() < 0.5 ? { j: pick(['', 'x']) } : {}) };
  return c;
};
const uniq = (xs) => {
  const seen = new Set();
  return xs.filter((x) => (seen.has(x.id) ? false : (seen.add(x.id), true)));
};
const aliases = () =>
  rnd() < 0.5 ? undefined : { [pick(['k8s', 'ml', 'tea', 'db'])]: [pick(['kubernetes', 'Kube Cluster', 'ML', '!!!', 'machine learning', 'Tea'])] };

const GEN = {
  normalise: () => ({ text: text() }),
  words: () => ({ text: text() }),
  length: () => ({ text: text() }),
  sort_strings: () => ({ strings: Array.from({ length: int(0, 6) }, () => text(2)) }),
  parse: () => ({ query: text(), aliases: aliases() }),
  compile: () => ({ query: text(), aliases: aliases() }),
  sanitise: () => ({ query: text(), aliases: aliases() }),
  strongest_term: () => ({ query: text() }),
  stopwords: () => ({ words: Array.from({ length: int(0, 5) }, () => word()) }),
  trigrams: () => ({ word: word() }),
  jaccard: () => ({ a: word(), b: word() }),
  trigram_search: () => ({
    tokens: Array.from({ length: int(0, 3) }, word),
    chunks: uniq(Array.from({ length: int(0, 5) }, () => ({ ...cand(), content: text(int(0, 8)) }))),
    candidateK: pick([undefined, 1, 2, 60]),
  }),
  intent_detect: () => ({ query: text() }),
  intent_reweight: () => ({
    query: pick(['when did', 'tips', 'how many tips', 'plain']),
    results: uniq(Array.from({ length: int(0, 6) }, () => ({ ...cand(), score: pick([1, 0.99, 1 / 61, 0.5, 2, 1e-3]) }))),
  }),
  rrf: () => ({
    lists: Array.from({ length: int(0, 3) }, () => ({ weight: weight(), items: Array.from({ length: int(0, 7) }, cand) })),
    k: pick([undefined, 1, 60, 2]),
  }),
  unanimity: () => ({ bm25: Array.from({ length: int(0, 4) }, () => pick(ids)), vector: Array.from({ length: int(0, 4) }, () => pick(ids)) }),
  rerank: () => {
    const fused = uniq(Array.from({ length: int(0, 6) }, () => ({ ...cand(), score: 0.5 })));
    return {
      fused,
      rerankTopN: pick([undefined, 1, 2, 3, 20]),
      reranker:
        rnd() < 0.1
          ? { name: 's', error: 'boom' }
          : { name: 's', results: Array.from({ length: int(0, 6) }, () => ({ id: pick(ids), score: pick([0.5, 0, -0, 1, 0.25, 'NaN']) })) },
    };
  },
  // Backend operations (spec/operations.md "Backend operations").
  fnv1a: () => ({ text: text() }),
  embed_features: () => ({ text: text() }),
  embed: () => ({ text: text() }),
  chunk_document: () => ({ path: pick(DOC_PATHS), ...fileBody() }),
  lexical_rerank: () => ({ query: text(), head: uniq(Array.from({ length: int(0, 5) }, cand)).filter((c) => c.path !== undefined) }),
  vector_search: () => {
    const given = rnd() < 0.4;
    const dim = given ? int(1, 4) : 256;
    const vec = () => Array.from({ length: dim }, () => pick([0, 0, 1, 2, 3, 65535]));
    const chunks = uniq(Array.from({ length: int(0, 6) }, cand)).map((c) => {
      const { content, ...rest } = c;
      if (given) return { ...rest, path: rest.path ?? 'p.md', vector: vec() };
      return { ...rest, path: rest.path ?? 'p.md', content: content ?? text(int(0, 6)) };
    });
    return { ...(given ? { queryVector: vec() } : { query: text() }), chunks, limit: pick([undefined, 1, 2, 3]) };
  },
  fts_search: () => ({
    chunks: uniq(Array.from({ length: int(0, 6) }, () => ({ ...cand(), path: pick(DOC_PATHS), content: text(int(0, 8)) }))),
    expression: pick(['"tea"', '"kubernetes" OR "tea"', '"a"*', '"é"', '""', '', '"ml" AND "tips"', 'NEAR(', '"cafe"', '"zurich"']),
    limit: pick([undefined, 1, 2, 60]),
  }),
  index_documents: () => {
    const batch = () => {
      const paths = [...new Set(Array.from({ length: int(0, 5) }, () => pick(DOC_PATHS)))];
      return paths.map((path) => ({ path, ...fileBody() }));
    };
    return {
      batches: Array.from({ length: int(1, 3) }, batch),
      searches: Array.from({ length: int(0, 2) }, () => ({ expression: pick(['"tea"', '"a"*', '"kubernetes" OR "tea"', '"md"']), limit: pick([undefined, 2]) })),
      vectorSearches: Array.from({ length: int(0, 2) }, () => ({ query: text(3), limit: pick([undefined, 2]) })),
    };
  },
  search: () => {
    const q = text(int(1, 5)) || 'kubernetes';
    const hits = () => Array.from({ length: int(0, 5) }, cand);
    const backends = {};
    if (rnd() < 0.8) backends.bm25 = { responses: {} };
    if (rnd() < 0.7) backends.chunks = uniq(Array.from({ length: int(0, 4) }, () => ({ ...cand(), content: text(int(1, 6)) })));
    if (rnd() < 0.7) backends.embedder = true;
    if (rnd() < 0.7) backends.vector = rnd() < 0.1 ? { error: 'vec down' } : { hits: hits() };
    if (rnd() < 0.6) backends.reranker = rnd() < 0.1 ? { name: 'r', error: 'timeout' } : { name: 'r', results: hits().map((h) => ({ id: h.id, score: pick([0.1, 0.9, 0.5]) })) };
    const request = { query: q, mode: pick([undefined, 'bm25', 'semantic', 'hybrid', 'auto']) };
    if (rnd() < 0.3) request.topK = int(1, 4);
    if (rnd() < 0.3) request.rerankTopN = int(1, 3);
    if (rnd() < 0.2) request.weights = { bm25: weight(), vector: weight() };
    if (rnd() < 0.2) request.skipRetryLadder = true;
    if (rnd() < 0.2) request.aliases = aliases() ?? {};
    return { request, backends, _scriptAll: true };
  },
};

function strip(v) {
  if (Array.isArray(v)) return v.map(strip);
  if (v && typeof v === 'object') {
    const o = {};
    for (const [k, x] of Object.entries(v)) if (k !== 'timings') o[k] = strip(x);
    return o;
  }
  return v;
}
// spec/portability.md TEXT-13: the only fields with a tolerance (op -> JSON-pointer pattern).
const TOLERANT = { fts_search: /^\/hits\/\d+\/score$/, index_documents: /^\/searches\/\d+\/hits\/\d+\/score$/ };
function diff(a, b, path = '', op = '') {
  if (typeof a === 'number' && typeof b === 'number') {
    if (a === b) return null;
    const tolerant = TOLERANT[op]?.test(path);
    if (tolerant && Math.abs(a - b) <= 1e-12 * Math.max(Math.abs(a), Math.abs(b))) return null;
    return `${path}: ${a} != ${b} (${tolerant ? 'tolerance 1e-12' : 'bit-exact'})`;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return `${path}: length ${a.length} != ${b.length}`;
    for (let i = 0; i < a.length; i++) {
      const d = diff(a[i], b[i], `${path}/${i}`, op);
      if (d) return d;
    }
    return null;
  }
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) {
      const d = diff(a[k], b[k], `${path}/${k}`, op);
      if (d) return d;
    }
    return null;
  }
  return JSON.stringify(a) === JSON.stringify(b) ? null : `${path}: ${JSON.stringify(a)} != ${JSON.stringify(b)}`;
}

const A = await openAdapter(argvA);
const B = await openAdapter(argvB);
const declared = (h) => new Set(h.hello.operations);
const ops = Object.keys(GEN).filter((op) => declared(A).has(op) && declared(B).has(op) && (!ONLY.length || ONLY.includes(op)));
let disagreements = 0;
const outcomes = new Map();
for (let i = 0; i < n; i++) {
  const op = ops[i % ops.length];
  const input = GEN[op]();
  if (input._scriptAll) {
    delete input._scriptAll;
    // script the bm25 backend with hits for whatever expressions the reference compiles
    const compiled = await A.run('compile', { query: input.request.query, aliases: input.request.aliases });
    if (compiled.output && input.backends.bm25 && rnd() < 0.5) {
      input.backends.bm25.responses[compiled.output.expression] = Array.from({ length: int(0, 4) }, cand);
    }
  }
  const [ra, rb] = [await A.run(op, input), await B.run(op, input)];
  const a = strip(ra);
  const b = strip(rb);
  const kindA = a.error ? a.error.kind : 'ok';
  const kindB = b.error ? b.error.kind : 'ok';
  const key = `${op}:${kindA}`;
  outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
  const d = kindA !== kindB ? `outcome ${kindA} != ${kindB}` : a.error ? null : diff(a.output, b.output, '', op);
  if (d) {
    disagreements++;
    process.stdout.write(`${JSON.stringify({ op, input, diff: d, a: a.error ?? undefined, b: b.error ?? undefined })}\n`);
  }
}
await A.close();
await B.close();
process.stderr.write(`outcomes (adapter A): ${[...outcomes].sort().map(([k, v]) => `${k}=${v}`).join(' ')}\n`);
process.stderr.write(`differential: ${n} inputs, ${disagreements} disagreement(s)\n`);
process.exitCode = disagreements ? 1 : 0;
