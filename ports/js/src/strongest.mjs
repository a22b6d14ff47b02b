// LADDER-8, LADDER-9: the strongest term, under the named stopword list (DSL-22).
// Under `anchor` the ladder's own stop-word set (spec/data/stopwords-ladder.json, the anchor's
// STOP_WORDS); under `hrc-1.0` that list's DSL stopwords.
import { longestLeftmost, words, cpLength } from './text.mjs';
import { isStopword, DEFAULT_STOPWORD_LIST } from './stopwords.mjs';
import { loadSpecData } from './data.mjs';

let LADDER = null;
function ladderStopwords() {
  if (LADDER) return LADDER;
  const data = loadSpecData('stopwords-ladder.json');
  if (!data || !Array.isArray(data.words) || data.words.length === 0) {
    throw new Error('hrc-js: spec/data/stopwords-ladder.json lacks its words');
  }
  LADDER = new Set(data.words);
  return LADDER;
}

export function isLadderStopword(word, stopwordList = DEFAULT_STOPWORD_LIST) {
  if (stopwordList !== DEFAULT_STOPWORD_LIST) return isStopword(word, stopwordList);
  return cpLength(word) <= 2 || ladderStopwords().has(word);
}

export function strongestOf(wordList, stopwordList = DEFAULT_STOPWORD_LIST) {
  const best = longestLeftmost(wordList.filter((w) => !isLadderStopword(w, stopwordList)));
  return best ?? '';
}

// LADDER-9: over the query's sanitised words (TEXT-7).
export function strongestTerm(query, stopwordList = DEFAULT_STOPWORD_LIST) {
  return strongestOf(words(query), stopwordList);
}
