// The reference reranker hrc-lexical-v1 (BACKEND-33..BACKEND-35).
import { words } from './text.mjs';
import { isStopword } from './stopwords.mjs';

// One {id, score} per head item, in head order.
export function lexicalScores(query, head) {
  // BACKEND-34: hrc-lexical-v1 always uses the hrc-1.0 list (frozen with its name).
  const Q = new Set(words(query).filter((w) => !isStopword(w, 'hrc-1.0')));
  return head.map((item) => {
    if (Q.size === 0) return { id: item.id, score: 0.0 };
    // BACKEND-34: the union of the words of title, summary and content, each taken separately (F11).
    const D = new Set([...words(item.title ?? ''), ...words(item.summary ?? ''), ...words(item.content ?? '')]);
    let n = 0;
    for (const w of Q) if (D.has(w)) n++;
    return { id: item.id, score: n / Q.size };
  });
}

export const lexicalReranker = { name: 'hrc-lexical-v1', rerank: lexicalScores };
