// Spec data files (spec/README.md: ports MUST load the same bytes, and fail loudly when missing).
// ports/js/src/ is three levels below the repository root.
// Every file read is hashed (SHA-256 of the bytes parsed) for the hello's dataFiles (PROTO-28).
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export function repoPath(rel) {
  return fileURLToPath(new URL(`../../../${rel}`, import.meta.url));
}

const cache = new Map();
const loaded = new Map();

export function loadSpecData(name) {
  if (cache.has(name)) return cache.get(name);
  const path = repoPath(`spec/data/${name}`);
  let bytes;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    throw new Error(`hrc-js: spec data file ${path} is missing or unreadable: ${e.message}`);
  }
  let value;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch (e) {
    throw new Error(`hrc-js: spec data file ${path} is not valid JSON: ${e.message}`);
  }
  cache.set(name, value);
  loaded.set(name, createHash('sha256').update(bytes).digest('hex'));
  return value;
}

// Names (relative to spec/data, '/' separators) of every *.json file the spec ships.
export function specDataNames() {
  const out = [];
  const walk = (rel) => {
    const dir = repoPath(`spec/data/${rel}`);
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const name = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) walk(name);
      else if (entry.isFile() && entry.name.endsWith('.json')) out.push(name);
    }
  };
  walk('');
  return out.sort();
}

// PROTO-28: every data file loaded so far -> SHA-256 hex of the bytes read, keys sorted.
export function loadedDataFiles() {
  return Object.fromEntries([...loaded.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
