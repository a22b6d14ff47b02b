// DSL-10, DSL-11: stopwords loaded from spec/data/stopwords.json.
import { loadSpecData } from './data.mjs';
import { cpLength } from './text.mjs';

let SET = null;
function stopSet() {
  if (SET) return SET;
  const data = loadSpecData('stopwords.json');
  if (!data || !Array.isArray(data.en) || !Array.isArray(data.nl) || data.en.length === 0 || data.nl.length === 0) {
    throw new Error('hrc-js: spec/data/stopwords.json lacks the en/nl lists');
  }
  SET = new Set([...data.en, ...data.nl]);
  return SET;
}

// The word is compared as given, without folding.
export function isStopword(word) {
  return cpLength(word) <= 2 || stopSet().has(word);
}
