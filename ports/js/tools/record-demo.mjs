// Record the search_corpus output (results + trace) of every demo-corpus query (corpus/README.md)
// through any adapter, one JSON file per query, for `hrc diff`.
// Usage: node tools/record-demo.mjs OUTDIR ADAPTER_ARGV...
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openAdapter } from './adapter-client.mjs';

export const DEMO_QUERIES = [
  'kubernetes AND helicopter',
  'kubernets',
  'postgress',
  'sourdough starter',
  'kubernetes setup',
  'recommend a tea',
  'have I completed the postgres upgrade',
  'what tea do I prefer',
  'when did we upgrade postgres',
  'tea prefer',
  'upgrade postgres',
];

const [outDir, ...argv] = process.argv.slice(2);
if (!outDir || argv.length === 0) {
  process.stderr.write('usage: node tools/record-demo.mjs OUTDIR ADAPTER_ARGV...\n');
  process.exit(2);
}
mkdirSync(outDir, { recursive: true });
const adapter = await openAdapter(argv);
for (const query of DEMO_QUERIES) {
  const answer = await adapter.run('search_corpus', { corpus: 'demo', request: { query, mode: 'hybrid' } });
  const file = join(outDir, `${query.replace(/[^a-z0-9]+/gi, '-')}.json`);
  writeFileSync(file, `${JSON.stringify(answer, null, 2)}\n`);
  process.stdout.write(`${file}\n`);
}
await adapter.close();
