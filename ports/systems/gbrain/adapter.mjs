// An honest hrc adapter around garrytan/gbrain's own extractPageLinks (see README.md): it
// translates shapes and never fixes behaviour. Build the bundle first (build.mjs).
//
//   hrc run --adapter "node ports/systems/gbrain/adapter.mjs" --select profiles/gbrain
//
// Only `gbrain.extract_links` is declared: gbrain's traversal and search run in its Postgres
// engines, which an offline adapter cannot host, so those cases are not_applicable.
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const gbrain = await import(join(here, '.bundle', 'gbrain.mjs'));
const commit = readFileSync(join(here, '.bundle', 'commit.txt'), 'utf8').trim();

// gbrain implements no version of this kit: the adapter declares the versions of the checkout
// it lives in, so that the runner measures the code against this suite without a warning.
function versionIn(file, label) {
  const text = readFileSync(join(here, '..', '..', '..', 'spec', file), 'utf8');
  return new RegExp(`${label} \\*\\*([0-9.]+)\\*\\*`).exec(text)[1];
}
const SPEC_VERSION = versionIn('README.md', 'Spec version');
const PROFILE_VERSION = versionIn(join('profiles', 'gbrain.md'), 'Profile version');

// The page type a plain note gets: none of the code's page-type rules (media, image, meeting,
// person priors) apply, as the kit's operation has no page type (spec/profiles/gbrain.md).
const PAGE_TYPE = 'concept';
// No page database: every lookup answers nothing, as a page write before any page exists.
const NO_PAGES = { resolve: async () => null };

function codePointOrder(a, b) {
  // GBRAIN-9 orders edges by code point (TEXT-9); JavaScript's < compares UTF-16 units.
  const x = Array.from(a, (c) => c.codePointAt(0));
  const y = Array.from(b, (c) => c.codePointAt(0));
  for (let i = 0; i < Math.min(x.length, y.length); i += 1) {
    if (x[i] !== y[i]) return x[i] - y[i];
  }
  return x.length - y.length;
}

async function extractLinks(input) {
  const { path, markdown } = input;
  if (typeof path !== 'string' || typeof markdown !== 'string') {
    return { error: ['invalid_input', 'path and markdown must be strings'] };
  }
  const page = gbrain.pathToSlug(path);
  if (!page) return { error: ['invalid_input', `no page slug for path ${JSON.stringify(path)}`] };
  const found = await gbrain.extractPageLinks(page, markdown, {}, PAGE_TYPE, NO_PAGES,
    { skipFrontmatter: true });
  // The kit's edge is (from, to, type); the code's candidate carries more (context, source).
  const edges = found.candidates.map((c) => ({ from: c.fromSlug ?? page, to: c.targetSlug, type: c.linkType }));
  edges.sort((a, b) => codePointOrder(a.to, b.to) || codePointOrder(a.type, b.type));
  return { output: { page, edges } };
}

const OPERATIONS = { 'gbrain.extract_links': extractLinks };

function write(message) {
  process.stdout.write(`${JSON.stringify(message)}\n`);
}

async function answer(message) {
  const op = OPERATIONS[message.op];
  try {
    const got = await op(message.input ?? {});
    if (got.error) {
      write({ type: 'error', seq: message.seq, error: { kind: got.error[0], message: got.error[1] } });
    } else {
      write({ type: 'result', seq: message.seq, output: got.output });
    }
  } catch (err) {
    write({ type: 'error', seq: message.seq, error: { kind: 'internal_error', message: String(err?.stack ?? err) } });
  }
}

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  if (!line.trim()) continue;
  const message = JSON.parse(line);
  if (message.type === 'hello') {
    write({
      type: 'hello', protocol: 1, name: 'gbrain (garrytan/gbrain, unmodified)', version: commit.slice(0, 12),
      specVersion: SPEC_VERSION, profiles: { gbrain: PROFILE_VERSION },
      operations: Object.keys(OPERATIONS), capabilities: ['profile:gbrain'],
    });
  } else if (message.type === 'run') {
    await answer(message);
  } else if (message.type === 'bye') {
    break;
  }
}
