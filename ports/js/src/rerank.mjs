// Tail-preserving rerank (spec/rerank.md, RERANK-1..RERANK-12).

export class RerankerFailure extends Error {}

function emptyReport(outcome, provider) {
  return { outcome, provider, sent: [], missing: [], invented: [], duplicates: [], error: null };
}

/**
 * items: the list after intent reweighting (objects with `id`).
 * reranker: {name, rerank(headItems) -> [{id, score}]} or null.
 * Returns {items: [{item, rerankScore}], report}.
 */
export function applyRerank(items, { enabled = true, reranker = null, topN = 20, unanimityFired = () => false } = {}) {
  const unchanged = (report) => ({ items: items.map((item) => ({ item, rerankScore: null })), report });
  if (!enabled) return unchanged(emptyReport('disabled', reranker ? reranker.name : null));
  if (!reranker) return unchanged(emptyReport('no_reranker', null));
  if (items.length === 0) return unchanged(emptyReport('empty', reranker.name));
  if (unanimityFired()) return unchanged(emptyReport('unanimity', reranker.name));

  const headSize = Math.min(topN, items.length);
  const head = items.slice(0, headSize);
  const tail = items.slice(headSize);
  const sent = head.map((x) => x.id);
  const failed = (message) => ({
    items: items.map((item) => ({ item, rerankScore: null })),
    report: {
      outcome: 'failed',
      provider: reranker.name,
      sent,
      missing: [],
      invented: [],
      duplicates: [],
      error: { kind: 'reranker_error', message },
    },
  });

  let response;
  try {
    response = reranker.rerank(head);
  } catch (e) {
    return failed(e.message ?? String(e));
  }
  if (!Array.isArray(response)) return failed('unreadable reranker response');
  // RERANK-9: any non-finite score fails the whole response.
  for (const entry of response) {
    if (typeof entry.score !== 'number' || !Number.isFinite(entry.score)) return failed('non-finite score');
  }
  const headPos = new Map(head.map((x, i) => [x.id, i]));
  const accepted = new Map(); // id -> score
  const invented = [];
  const duplicates = [];
  for (const { id, score } of response) {
    if (!headPos.has(id)) {
      invented.push(id); // RERANK-4
      continue;
    }
    if (accepted.has(id)) {
      duplicates.push(id); // RERANK-5
      continue;
    }
    accepted.set(id, score);
  }
  const acceptedIds = [...accepted.keys()].sort((a, b) => {
    const sa = accepted.get(a);
    const sb = accepted.get(b);
    if (sa !== sb) return sb > sa ? 1 : -1; // 0.0 === -0.0, so they tie
    return headPos.get(a) - headPos.get(b); // RERANK-6
  });
  const missing = sent.filter((id) => !accepted.has(id)); // RERANK-7
  const byId = new Map(head.map((x) => [x.id, x]));
  const out = [
    ...acceptedIds.map((id) => ({ item: byId.get(id), rerankScore: accepted.get(id) })),
    ...missing.map((id) => ({ item: byId.get(id), rerankScore: null })),
    ...tail.map((item) => ({ item, rerankScore: null })), // RERANK-3
  ];
  return {
    items: out,
    report: { outcome: 'reranked', provider: reranker.name, sent, missing, invented, duplicates, error: null },
  };
}
