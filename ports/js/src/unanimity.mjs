// The unanimity shortcut (spec/unanimity.md, UNAN-1..UNAN-7): the anchor's positional count.
export function unanimity(bm25Ids, vectorIds) {
  // UNAN-4: a leg with fewer than three entries is not compared.
  if (bm25Ids.length < 3 || vectorIds.length < 3) return { agreements: 0, fired: false };
  let agreements = 0;
  for (let i = 0; i < 3; i++) if (bm25Ids[i] === vectorIds[i]) agreements++; // UNAN-2, UNAN-5
  return { agreements, fired: agreements >= 2 }; // UNAN-3
}
