// LADDER-8, LADDER-9: the strongest term, under the named stopword list (DSL-22).
import { longestLeftmost } from './text.mjs';
import { isStopword, DEFAULT_STOPWORD_LIST } from './stopwords.mjs';
import { parse } from './query.mjs';

export function strongestOf(wordList, stopwordList = DEFAULT_STOPWORD_LIST) {
  const best = longestLeftmost(wordList.filter((w) => !isStopword(w, stopwordList)));
  return best ?? '';
}

// LADDER-9: over parse(query) without aliases, term and prefix tokens.
export function strongestTerm(query, stopwordList = DEFAULT_STOPWORD_LIST) {
  const { tokens } = parse(query, new Map(), stopwordList);
  return strongestOf(
    tokens.filter((t) => t.kind === 'term' || t.kind === 'prefix').map((t) => t.text),
    stopwordList,
  );
}
