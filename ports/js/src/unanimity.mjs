// The unanimity shortcut (spec/unanimity.md, UNAN-1..UNAN-6).
export function unanimity(bm25Ids, vectorIds) {
  const a = new Set(bm25Ids.slice(0, 3));
  const b = new Set(vectorIds.slice(0, 3));
  let agreements = 0;
  for (const id of a) if (b.has(id)) agreements++;
  const fired = bm25Ids.length >= 3 && vectorIds.length >= 3 && agreements >= 2;
  return { agreements, fired };
}
