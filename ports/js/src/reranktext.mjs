// What a reranker is shown for one candidate (spec/rerank.md RERANK-13, RERANK-14).
import { isWhiteSpace, splitWhiteSpace } from './text.mjs';

const SNIPPET_MAX = 280; // code points (RERANK-14)

function trimWhiteSpace(s) {
  const cps = [...s];
  let a = 0;
  let b = cps.length;
  while (a < b && isWhiteSpace(cps[a].codePointAt(0))) a += 1;
  while (b > a && isWhiteSpace(cps[b - 1].codePointAt(0))) b -= 1;
  return cps.slice(a, b).join('');
}

// RERANK-14: collapsed, trimmed, the first 280 code points (never half a surrogate pair).
export function snippet(content) {
  return [...splitWhiteSpace(content).join(' ')].slice(0, SNIPPET_MAX).join('');
}

// RERANK-13: title \n summary, else title, else summary, else the snippet.
export function rerankText(title, summary, content) {
  const t = trimWhiteSpace(title);
  const s = trimWhiteSpace(summary);
  if (t !== '' && s !== '') return `${t}\n${s}`;
  return t || s || snippet(content);
}
