// TEXT-1..TEXT-10 (spec/portability.md). Everything iterates code points, never UTF-16 units.
import { loadSpecData } from './data.mjs';

const ZERO_WIDTH = new Set([0x200b, 0x200c, 0x200d, 0xfeff]); // TEXT-1 (the anchor's set)

// TEXT-4: exactly the 25 White_Space code points.
export function isWhiteSpace(cp) {
  return (
    (cp >= 0x09 && cp <= 0x0d) ||
    cp === 0x20 ||
    cp === 0x85 ||
    cp === 0xa0 ||
    cp === 0x1680 ||
    (cp >= 0x2000 && cp <= 0x200a) ||
    cp === 0x2028 ||
    cp === 0x2029 ||
    cp === 0x202f ||
    cp === 0x205f ||
    cp === 0x3000
  );
}

function isControl(cp) {
  return cp <= 0x1f || (cp >= 0x7f && cp <= 0x9f);
}

// TEXT-6: the shipped P∪S table, never \p{P}/\p{S}.
let PS_RANGES = null;
function psRanges() {
  if (PS_RANGES) return PS_RANGES;
  const data = loadSpecData('punct_symbol.json');
  if (!data || !Array.isArray(data.ranges) || data.ranges.length === 0) {
    throw new Error('hrc-js: spec/data/punct_symbol.json has no ranges');
  }
  const ranges = data.ranges.map(([lo, hi]) => [lo, hi]);
  ranges.sort((a, b) => a[0] - b[0]);
  PS_RANGES = ranges;
  return ranges;
}

export function isPunctOrSymbol(cp) {
  const r = psRanges();
  let lo = 0;
  let hi = r.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (cp < r[mid][0]) hi = mid - 1;
    else if (cp > r[mid][1]) lo = mid + 1;
    else return true;
  }
  return false;
}

// Split on runs of White_Space, dropping empty pieces (TEXT-4).
export function splitWhiteSpace(text) {
  const out = [];
  let cur = '';
  for (const ch of text) {
    if (isWhiteSpace(ch.codePointAt(0))) {
      if (cur !== '') out.push(cur);
      cur = '';
    } else {
      cur += ch;
    }
  }
  if (cur !== '') out.push(cur);
  return out;
}

// The normalised form: TEXT-3 (NFC) first, then TEXT-1, TEXT-2, TEXT-4.
export function normalise(text) {
  let s = '';
  for (const ch of text.normalize('NFC')) {
    const cp = ch.codePointAt(0);
    if (ZERO_WIDTH.has(cp)) continue; // TEXT-1
    if (isControl(cp) && !isWhiteSpace(cp)) s += ' '; // TEXT-2
    else s += ch;
  }
  return splitWhiteSpace(s).join(' '); // TEXT-4
}

// TEXT-5: full default lowercasing without locale (toLowerCase, never toLocaleLowerCase;
// V8 implements the unconditional SpecialCasing mappings and Final_Sigma).
export function lower(text) {
  return text.toLowerCase();
}

export function fold(text) {
  return lower(normalise(text));
}

// TEXT-7
export function words(text) {
  let s = '';
  for (const ch of fold(text)) {
    s += isPunctOrSymbol(ch.codePointAt(0)) ? ' ' : ch;
  }
  return splitWhiteSpace(s);
}

// TEXT-8: code points, not UTF-16 units.
export function cpLength(text) {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

export function codePoints(text) {
  return Array.from(text);
}

// TEXT-9: code point order (= UTF-8 byte order), a proper prefix first.
export function compareCodePoints(a, b) {
  if (a === b) return 0;
  let i = 0;
  while (i < a.length && i < b.length) {
    const ca = a.codePointAt(i);
    const cb = b.codePointAt(i);
    if (ca !== cb) return ca < cb ? -1 : 1;
    i += ca > 0xffff ? 2 : 1;
  }
  if (i < a.length) return 1;
  if (i < b.length) return -1;
  return 0;
}

export function sortStrings(strings) {
  return [...strings].sort(compareCodePoints);
}

// TEXT-10: the longest by code points, leftmost on ties.
export function longestLeftmost(items, key = (x) => x) {
  let best = null;
  let bestLen = -1;
  for (const item of items) {
    const len = cpLength(key(item));
    if (len > bestLen) {
      best = item;
      bestLen = len;
    }
  }
  return best;
}
