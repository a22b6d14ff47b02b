// Bundle garrytan/gbrain's own link extraction, unmodified, from a checkout you supply, so that
// adapter.mjs can drive it under Node 20 (gbrain is TypeScript run by Bun). Nothing of gbrain is
// committed here: the bundle goes to .bundle/ (git-ignored).
//
//   node ports/systems/gbrain/build.mjs /path/to/gbrain   # a checkout at the pinned commit
//
// The commit is checked against PINNED (spec/profiles/gbrain.md names it); another commit is
// refused unless --any-commit is given, since the findings are for that commit only.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PINNED = '01aab110d0090eb38f706b6af84351b433a17597';
const here = dirname(fileURLToPath(import.meta.url));

function main(argv) {
  const args = argv.filter((a) => a !== '--any-commit');
  if (args.length !== 1) {
    process.stderr.write('usage: node build.mjs GBRAIN_CHECKOUT [--any-commit]\n');
    return 2;
  }
  const checkout = resolve(args[0]);
  let commit = '';
  try {
    commit = execFileSync('git', ['-C', checkout, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    commit = 'unknown (not a git work tree)';
  }
  if (commit !== PINNED && !argv.includes('--any-commit')) {
    process.stderr.write(`build.mjs: ${checkout} is at ${commit}, not the pinned ${PINNED}\n`);
    return 2;
  }
  const out = join(here, '.bundle');
  mkdirSync(out, { recursive: true });
  // The entry re-exports the two functions a page write uses; it adds no behaviour.
  const entry = join(out, 'entry.ts');
  writeFileSync(entry, [
    `export { extractPageLinks } from ${JSON.stringify(join(checkout, 'src/core/link-extraction.ts'))};`,
    `export { pathToSlug } from ${JSON.stringify(join(checkout, 'src/core/sync.ts'))};`,
    '',
  ].join('\n'));
  const esbuild = join(here, 'node_modules', '.bin', 'esbuild');
  execFileSync(esbuild, [entry, '--bundle', '--platform=node', '--format=esm',
    '--packages=external', '--log-level=warning', `--outfile=${join(out, 'gbrain.mjs')}`],
  { stdio: 'inherit' });
  writeFileSync(join(out, 'commit.txt'), `${commit}\n`);
  process.stdout.write(`bundled gbrain ${commit} -> ${join(out, 'gbrain.mjs')}\n`);
  return 0;
}

process.exitCode = main(process.argv.slice(2));
