// Shared input validation helpers (OP-1, OP-2).
import { invalid } from './errors.mjs';

export function isObject(v) {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

export function requireObject(v, field) {
  if (!isObject(v)) throw invalid(`${field} must be an object`);
  return v;
}

export function requireString(v, field) {
  if (typeof v !== 'string') throw invalid(`${field} must be a string`);
  return v;
}

export function requireArray(v, field) {
  if (!Array.isArray(v)) throw invalid(`${field} must be a list`);
  return v;
}

export function requireStringList(v, field) {
  requireArray(v, field);
  v.forEach((s, i) => requireString(s, `${field}[${i}]`));
  return v;
}

export function requireNonEmptyId(v, field) {
  if (typeof v !== 'string' || v === '') throw invalid(`${field} must be a non-empty string`);
  return v;
}

// OP-4: the largest integer any input accepts (Int32 collection sizes; RRF-1's bound on k).
export const MAX_INTEGER = 2 ** 31 - 1;

// A whole number in [min, max]; JSON 60.0 is 60. Booleans and strings are rejected.
export function wholeNumber(v, field, { min = 1, max = MAX_INTEGER } = {}) {
  if (typeof v !== 'number' || !Number.isFinite(v) || !Number.isInteger(v) || v < min || v > max) {
    throw invalid(`${field} must be a whole number between ${min} and ${max}`);
  }
  return v;
}

// OP-5: null in an optional field is absent.
export function isAbsent(v) {
  return v === undefined || v === null;
}

export function optionalString(v, field) {
  if (isAbsent(v)) return '';
  return requireString(v, field);
}

// A candidate {id, path, title?, summary?, content?, metadata?} (spec/operations.md).
export function candidate(v, field) {
  requireObject(v, field);
  const c = {
    id: v.id,
    path: v.path, // required (spec/operations.md: `{id, path, title?, …}`; FINDINGS F5)
    title: optionalString(v.title, `${field}.title`),
    summary: optionalString(v.summary, `${field}.summary`),
    content: optionalString(v.content, `${field}.content`),
    metadata: {},
  };
  if (typeof v.id !== 'string' || v.id === '') throw invalid(`${field}: candidate id must be a non-empty string`);
  if (typeof v.path !== 'string') throw invalid(`${field}: candidate path must be a string`);
  if (!isAbsent(v.metadata)) {
    if (!isObject(v.metadata)) throw invalid(`${field}.metadata must be an object of strings`);
    for (const [k, val] of Object.entries(v.metadata)) {
      if (typeof val !== 'string') throw invalid(`${field}.metadata.${k} must be a string`);
      c.metadata[k] = val;
    }
  }
  return c;
}

// A chunk {id, path, title?, summary?, content}.
export function chunk(v, field) {
  requireObject(v, field);
  if (typeof v.content !== 'string') throw invalid(`${field}.content must be a string`);
  return candidate(v, field);
}
