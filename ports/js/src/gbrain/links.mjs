// Profile gbrain: zero-LLM link extraction and link-type inference (spec/profiles/gbrain.md
// GBRAIN-1..9). Positions are UTF-16 offsets of one blanked line, used consistently.
import { loadSpecData } from '../data.mjs';
import { compareCodePoints } from '../text.mjs';

const DATA_FILE = 'profiles/gbrain/links.json';
const EXTERNAL = /^[A-Za-z][A-Za-z0-9+.\-]*:/;

let table = null;

// GBRAIN-1: load links.json; fail loudly when missing or malformed.
export function linkTable() {
  if (table !== null) return table;
  const doc = loadSpecData(DATA_FILE);
  const p = doc.patterns;
  table = {
    wikilink: new RegExp(p.wikilink.source, 'g'), // matchAll copies it, so reuse is safe
    wikilinkGroup: p.wikilink.target,
    markdown: new RegExp(p.markdown.source, 'g'),
    markdownGroup: p.markdown.target,
    typed: new RegExp(p.typed.source),
    typedGroup: p.typed.label,
    window: doc.window,
    defaultType: doc.defaultType,
    triggers: doc.types.map((t) => [t.type, t.triggers.map((w) => w.split(' '))]),
  };
  if (!Number.isInteger(table.window) || table.window < 1 || table.triggers.length === 0) {
    throw new Error(`hrc-js: ${DATA_FILE} has no types or no window`);
  }
  return table;
}

// GBRAIN-3, GBRAIN-4: gbrain's stripCodeBlocks on the whole text. From ``` to the next ```
// anywhere (or the end), and from one backtick to the next with no line end between, the span
// becomes one space per UTF-16 code unit (JavaScript string indices); other backticks stay.
export function stripCode(text) {
  if (!text.includes('`')) return text;
  let out = '';
  let i = 0;
  const n = text.length;
  while (i < n) {
    const tick = text.indexOf('`', i);
    if (tick === -1) {
      out += text.slice(i);
      break;
    }
    out += text.slice(i, tick);
    i = tick;
    if (text.startsWith('```', i)) {
      const end = text.indexOf('```', i + 3);
      const stop = end === -1 ? n : end + 3;
      out += ' '.repeat(stop - i);
      i = stop;
      continue;
    }
    const end = text.indexOf('`', i + 1);
    if (end === -1 || text.slice(i + 1, end).includes('\n')) {
      out += '`';
      i++;
      continue;
    }
    out += ' '.repeat(end + 1 - i);
    i = end + 1;
  }
  return out;
}

// GBRAIN-6 steps 3-6.
export function resolve(target, base) {
  let t = target.normalize('NFC');
  if (t.endsWith('.md')) t = t.slice(0, -3);
  const segs = t.startsWith('./') || t.startsWith('../') ? [...base] : [];
  for (const seg of t.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (segs.length === 0) return null;
      segs.pop();
      continue;
    }
    segs.push(seg);
  }
  return segs.length === 0 ? null : segs.join('/');
}

// GBRAIN-6: the page a target names, or null.
export function targetPage(target, base) {
  if (EXTERNAL.test(target) || target.startsWith('//')) return null;
  const h = target.indexOf('#');
  return resolve(h >= 0 ? target.slice(0, h) : target, base);
}

// GBRAIN-5: wikilinks first, then markdown links with wikilinks blanked; images skipped.
function linkSpans(line, t) {
  const spans = [];
  const pieces = [];
  let pos = 0;
  for (const m of line.matchAll(t.wikilink)) {
    const end = m.index + m[0].length;
    spans.push({ start: m.index, end, target: m[t.wikilinkGroup] });
    pieces.push(line.slice(pos, m.index), ' '.repeat(m[0].length));
    pos = end;
  }
  pieces.push(line.slice(pos));
  const rest = pieces.join('');
  for (const m of rest.matchAll(t.markdown)) {
    if (m.index > 0 && rest[m.index - 1] === '!') continue;
    spans.push({ start: m.index, end: m.index + m[0].length, target: m[t.markdownGroup] });
  }
  return spans.sort((a, b) => a.start - b.start);
}

// GBRAIN-8: maximal [a-z0-9] runs after ASCII-only lowercasing.
function wordsOf(text) {
  const lowered = text.replace(/[A-Z]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 32));
  return lowered.match(/[a-z0-9]+/g) ?? [];
}

function sentenceEnds(line, spans) {
  const inside = new Array(line.length).fill(false);
  for (const s of spans) for (let i = s.start; i < s.end; i++) inside[i] = true;
  const ends = [];
  for (let p = 0; p < line.length; p++) {
    const ch = line[p];
    if ((ch === '.' || ch === '!' || ch === '?') && !inside[p]) {
      if (p + 1 === line.length || line[p + 1] === ' ' || line[p + 1] === '\t') ends.push(p);
    }
  }
  return ends;
}

function occurrences(words, trigger) {
  const out = [];
  for (let i = 0; i + trigger.length <= words.length; i++) {
    if (trigger.every((w, k) => words[i + k] === w)) out.push(i);
  }
  return out;
}

// GBRAIN-8: per span, the last `window` words of its sentence before it and the first after
// it, every link span a separator. The line is tokenised once, left to right, so the cost is
// linear in its length; re-tokenising the sentence per link was quadratic (issue 29).
function linkWindows(line, spans, ends, window) {
  const bounds = spans.map((s, k) => [s.start, s.end, k]);
  for (const p of ends) bounds.push([p, p + 1, -1]);
  bounds.sort((a, b) => a[0] - b[0]);
  const words = [];
  const marks = new Array(spans.length);
  const stops = [];
  let first = 0;
  let pos = 0;
  for (const [lo, hi, k] of bounds) {
    for (const w of wordsOf(line.slice(pos, lo))) words.push(w);
    pos = hi;
    if (k < 0) {
      stops.push(words.length);
      first = words.length;
    } else marks[k] = [first, words.length, stops.length];
  }
  for (const w of wordsOf(line.slice(pos))) words.push(w);
  stops.push(words.length);
  return marks.map(([lo, at, sentence]) => [
    words.slice(Math.max(lo, at - window), at),
    words.slice(at, Math.min(stops[sentence], at + window)),
  ]);
}

// GBRAIN-8: the type of the nearest trigger among a link's window words.
function inferType(before, after, t) {
  let best = null;
  t.triggers.forEach(([, triggers], rank) => {
    for (const trigger of triggers) {
      for (const i of occurrences(before, trigger)) {
        const cand = [before.length - (i + trigger.length - 1), rank];
        if (best === null || cand[0] < best[0] || (cand[0] === best[0] && cand[1] < best[1])) best = cand;
      }
      for (const j of occurrences(after, trigger)) {
        const cand = [j + 1, rank];
        if (best === null || cand[0] < best[0] || (cand[0] === best[0] && cand[1] < best[1])) best = cand;
      }
    }
  });
  return best === null ? t.defaultType : t.triggers[best[1]][0];
}

// GBRAIN-7
function typedLabel(line, t) {
  const m = t.typed.exec(line);
  if (m === null) return null;
  const label = m[t.typedGroup]
    .replace(/[A-Z]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 32))
    .replace(/[ _-]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return label === '' ? null : label;
}

export function pageOfPath(path) {
  return resolve(path, []);
}

// GBRAIN-2..9: {page, edges} with edges unique by (to, type), ordered by code point.
export function extractLinks(path, markdown) {
  const t = linkTable();
  const page = pageOfPath(path);
  if (page === null) return null;
  const base = page.split('/').slice(0, -1);
  const lines = stripCode(markdown.replace(/\r\n/g, '\n').replace(/\r/g, '\n')).split('\n');
  const found = new Map();
  lines.forEach((blanked) => {
    if (!blanked.includes('[')) return;
    const spans = linkSpans(blanked, t);
    if (spans.length === 0) return;
    const label = typedLabel(blanked, t);
    const windows = label === null ? linkWindows(blanked, spans, sentenceEnds(blanked, spans), t.window) : [];
    spans.forEach((span, k) => {
      const to = targetPage(span.target, base);
      if (to === null || to === page) return;
      const type = label !== null ? label : inferType(windows[k][0], windows[k][1], t);
      found.set(JSON.stringify([to, type]), { from: page, to, type });
    });
  });
  const edges = [...found.values()].sort(
    (a, b) => compareCodePoints(a.to, b.to) || compareCodePoints(a.type, b.type),
  );
  return { page, edges };
}
