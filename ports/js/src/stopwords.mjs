// DSL-10, DSL-11, DSL-22: named stopword lists, each loaded from its own spec/data file.
import { loadSpecData } from './data.mjs';
import { invalid } from './errors.mjs';
import { cpLength } from './text.mjs';

export const DEFAULT_STOPWORD_LIST = 'anchor';
const LIST_FILES = new Map([
  ['anchor', 'stopwords-anchor.json'],
  ['hrc-1.0', 'stopwords-hrc-1.0.json'],
]);

const SETS = new Map();
function stopSet(name) {
  const cached = SETS.get(name);
  if (cached) return cached;
  const file = LIST_FILES.get(name);
  if (file === undefined) throw new Error(`hrc-js: unknown stopword list ${name}`);
  const data = loadSpecData(file);
  if (!data || !Array.isArray(data.en) || !Array.isArray(data.nl) || data.en.length === 0 || data.nl.length === 0) {
    throw new Error(`hrc-js: spec/data/${file} lacks the en/nl lists`);
  }
  const set = new Set([...data.en, ...data.nl]);
  SETS.set(name, set);
  return set;
}

// DSL-22: absent or null is the default; anything else must name a list exactly.
export function stopwordListName(value, field = 'stopwordList') {
  if (value === undefined || value === null) return DEFAULT_STOPWORD_LIST;
  if (typeof value !== 'string' || !LIST_FILES.has(value)) {
    throw invalid(`${field} must be one of ${[...LIST_FILES.keys()].join(', ')}, got ${JSON.stringify(value)}`);
  }
  return value;
}

// DSL-9: lowercase operator words are filler in a bare query (the anchor).
const FILLER = new Set(['and', 'or', 'not']);

// DSL-9, DSL-20: dropped by stopword filtering: a filler word or a stopword.
export function isFiltered(word, list = DEFAULT_STOPWORD_LIST) {
  return FILLER.has(word) || isStopword(word, list);
}

// The word is compared as given, without folding.
export function isStopword(word, list = DEFAULT_STOPWORD_LIST) {
  return cpLength(word) <= 2 || stopSet(list).has(word);
}
