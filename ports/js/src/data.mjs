// Spec data files (spec/README.md: ports MUST load the same bytes, and fail loudly when missing).
// ports/js/src/ is three levels below the repository root.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export function repoPath(rel) {
  return fileURLToPath(new URL(`../../../${rel}`, import.meta.url));
}

const cache = new Map();

export function loadSpecData(name) {
  if (cache.has(name)) return cache.get(name);
  const path = repoPath(`spec/data/${name}`);
  let raw;
  try {
    raw = readFileSync(path, 'utf8');
  } catch (e) {
    throw new Error(`hrc-js: spec data file ${path} is missing or unreadable: ${e.message}`);
  }
  let value;
  try {
    value = JSON.parse(raw);
  } catch (e) {
    throw new Error(`hrc-js: spec data file ${path} is not valid JSON: ${e.message}`);
  }
  cache.set(name, value);
  return value;
}
