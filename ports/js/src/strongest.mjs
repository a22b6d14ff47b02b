// LADDER-8, LADDER-9: the strongest term.
import { longestLeftmost } from './text.mjs';
import { isStopword } from './stopwords.mjs';
import { parse } from './query.mjs';

export function strongestOf(wordList) {
  const best = longestLeftmost(wordList.filter((w) => !isStopword(w)));
  return best ?? '';
}

// LADDER-9: over parse(query) without aliases, term and prefix tokens.
export function strongestTerm(query) {
  const { tokens } = parse(query);
  return strongestOf(tokens.filter((t) => t.kind === 'term' || t.kind === 'prefix').map((t) => t.text));
}
