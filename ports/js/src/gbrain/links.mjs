// Profile gbrain: zero-LLM link extraction and link-type inference (spec/profiles/gbrain.md
// GBRAIN-1..9). Positions are UTF-16 offsets of one blanked line, used consistently.
import { loadSpecData } from '../data.mjs';
import { compareCodePoints } from '../text.mjs';

const DATA_FILE = 'profiles/gbrain/links.json';

let table = null;

function pattern(entry) {
  return { re: new RegExp(entry.source, 'g'), target: entry.target ?? 0, text: entry.text ?? 0 };
}

// GBRAIN-1: load links.json; fail loudly when missing or malformed. The link patterns are
// JavaScript sources already: compiled as they are, flag g, no u.
export function linkTable() {
  if (table !== null) return table;
  const doc = loadSpecData(DATA_FILE);
  const p = doc.patterns;
  table = {
    markdown: pattern(p.markdown),
    sameDir: pattern(p.sameDir),
    qualified: pattern(p.qualified),
    wikilink: pattern(p.wikilink),
    labelWikilink: pattern(p.labelWikilink),
    generic: pattern(p.generic),
    typed: new RegExp(p.typed.source),
    typedGroup: p.typed.label,
    window: doc.window,
    defaultType: doc.defaultType,
    types: doc.types.map((t) => {
      if (!/^i?$/.test(t.flags)) throw new Error(`hrc-js: ${DATA_FILE}: unknown flags ${t.flags}`);
      return [t.type, new RegExp(t.source, t.flags)];
    }),
  };
  if (!Number.isInteger(table.window) || table.window < 1 || table.types.length === 0) {
    throw new Error(`hrc-js: ${DATA_FILE} has no types or no window`);
  }
  return table;
}

// GBRAIN-3, GBRAIN-4: gbrain's stripCodeBlocks on the whole text. From ``` to the next ```
// anywhere (or the end), and from one backtick to the next with no LF between, the span
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

// GBRAIN-2: a page id of a path (kit, G4): NFC, .md cut, ./, ../ and empty segments.
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

// GBRAIN-6: a target with % is decodeURIComponent'd; a malformed one stays raw.
function percentDecoded(target) {
  if (!target.includes('%')) return target;
  try {
    return decodeURIComponent(target);
  } catch {
    return target;
  }
}

const SLUG_DROP = /[^\p{Ll}\p{Lm}\p{Lo}\p{M}\p{N}._\s-]/gu;

// GBRAIN-6: the code's slugifySegment (sync.ts:574-592).
function slugifySegment(segment) {
  let s = segment.normalize('NFD');
  s = Array.from(s)
    .filter((c) => !((c >= '\u0300' && c <= '\u036f') || (c >= '\u0591' && c <= '\u05c7')))
    .join('');
  s = s.normalize('NFC').toLowerCase().replace(SLUG_DROP, '');
  s = s.replace(/\s+/g, '-').replace(/-+/g, '-');
  if (s.startsWith('-')) s = s.slice(1);
  if (s.endsWith('-')) s = s.slice(0, -1);
  return s;
}

// GBRAIN-6: the code's slugifyPath (sync.ts:602-607).
export function slugifyPath(path) {
  let p = path;
  const tail = p.slice(-4).toLowerCase();
  if (tail.endsWith('.md')) p = p.slice(0, -3);
  else if (tail === '.mdx') p = p.slice(0, -4);
  p = p.split('\\').join('/');
  if (p.startsWith('./')) p = p.slice(2);
  else if (p.startsWith('/')) p = p.slice(1);
  return p.split('/').map(slugifySegment).filter((x) => x !== '').join('/');
}

// the code's maskRanges: each UTF-16 unit of a range becomes a space, offsets kept.
function masked(text, ranges) {
  if (ranges.length === 0) return text;
  const units = text.split('');
  for (const [a, b] of ranges) for (let i = a; i < b && i < units.length; i++) units[i] = ' ';
  return units.join('');
}

// GBRAIN-6: a wikilink target: trimmed, trailing backslashes cut, skipped when empty or
// holding :// (or, pass 2c, any :), a final .md cut.
function wikilinkSlug(raw, generic) {
  const slug = raw.trim().replace(/\\+$/, '');
  if (slug === '' || slug.includes('://') || (generic && slug.includes(':'))) return null;
  return slug.endsWith('.md') ? slug.slice(0, -3) : slug;
}

// GBRAIN-6: resolveRelativeSlug: up folders above the page's folder, clamped at the root.
function upLevels(page, target, up) {
  if (up <= 0) return target;
  const folders = page.split('/').slice(0, -1);
  return [...folders.slice(0, Math.max(0, folders.length - up)), target].join('/');
}

// GBRAIN-5, GBRAIN-6: the code's passes 1, 1b, 2a, 2b, 2c over the code-stripped text.
export function entityRefs(stripped, page, t) {
  const refs = [];
  const folders = page.split('/').slice(0, -1);
  const mdRanges = [];
  for (const m of stripped.matchAll(t.markdown.re)) {
    const name = m[t.markdown.text];
    const raw = m[0].slice(m[0].indexOf('](') + 2, -1);
    const up = /^(?:\.\.\/)+/.exec(raw);
    const full = percentDecoded(m[t.markdown.target]);
    refs.push({ start: m.index, target: upLevels(page, full, up ? up[0].length / 3 : 0), lookup: name, fallback: name });
    mdRanges.push([m.index, m.index + m[0].length]);
  }
  for (const m of stripped.matchAll(t.sameDir.re)) {
    const name = m[t.sameDir.text];
    mdRanges.push([m.index, m.index + m[0].length]);
    const target = slugifyPath([...folders, percentDecoded(m[t.sameDir.target])].join('/'));
    if (target !== '' && target !== page) refs.push({ start: m.index, target, lookup: name, fallback: name });
  }
  const wikiRanges = [];
  for (const p of [t.qualified, t.wikilink]) {
    const view = masked(stripped, wikiRanges);
    for (const m of view.matchAll(p.re)) {
      const slug = wikilinkSlug(m[p.target], false);
      if (slug === null) continue;
      const name = (m[p.text] || slug).trim();
      refs.push({ start: m.index, target: slug, lookup: name, fallback: name });
      wikiRanges.push([m.index, m.index + m[0].length]);
    }
  }
  const labelRanges = [...stripped.matchAll(t.labelWikilink.re)].map((m) => [m.index, m.index + m[0].length]);
  const view = masked(stripped, [...mdRanges, ...wikiRanges, ...labelRanges]);
  for (const m of view.matchAll(t.generic.re)) {
    const slug = wikilinkSlug(m[t.generic.target], true);
    if (slug === null) continue;
    const name = (m[t.generic.text] || slug).trim();
    const target = slug.includes('/') ? slug : slugifyPath(slug);
    if (target !== '' && target !== page) refs.push({ start: m.index, target, lookup: slug, fallback: name });
  }
  return refs;
}

// GBRAIN-8: the code's excerpt(content, content.indexOf(name), window), or the fallback text.
function contextOf(markdown, lookup, fallback, window) {
  const idx = markdown.indexOf(lookup);
  if (idx < 0) return fallback;
  const half = Math.floor(window / 2);
  const cut = markdown.slice(Math.max(0, idx - half), Math.min(markdown.length, idx + half));
  return cut.toWellFormed().replace(/\s+/g, ' ').trim();
}

// GBRAIN-8: the type of the first regex of the table that matches the context.
function inferType(context, t) {
  for (const [type, re] of t.types) if (re.test(context)) return type;
  return t.defaultType;
}

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

// GBRAIN-7: the start of each line of the stripped text (ends LF, CR LF, CR) and its label.
function typedLines(stripped, t) {
  const starts = [];
  const labels = [];
  const re = /\r\n|\r|\n/g;
  let at = 0;
  for (;;) {
    const m = re.exec(stripped);
    const end = m === null ? stripped.length : m.index;
    starts.push(at);
    labels.push(typedLabel(stripped.slice(at, end), t));
    if (m === null) break;
    at = m.index + m[0].length;
  }
  return { starts, labels };
}

function lineOf(starts, pos) {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= pos) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

// GBRAIN-2..9: {page, edges} with edges unique by (to, type), ordered by code point.
export function extractLinks(path, markdown) {
  const t = linkTable();
  const page = pageOfPath(path);
  if (page === null) return null;
  const stripped = stripCode(markdown);
  const found = new Map();
  if (stripped.includes('[')) {
    const { starts, labels } = typedLines(stripped, t);
    const types = new Map();
    for (const ref of entityRefs(stripped, page, t)) {
      let type = labels[lineOf(starts, ref.start)];
      if (type === null) {
        const key = JSON.stringify([ref.lookup, ref.fallback]);
        if (!types.has(key)) types.set(key, inferType(contextOf(markdown, ref.lookup, ref.fallback, t.window), t));
        type = types.get(key);
      }
      found.set(JSON.stringify([ref.target, type]), { from: page, to: ref.target, type });
    }
  }
  const edges = [...found.values()].sort(
    (a, b) => compareCodePoints(a.to, b.to) || compareCodePoints(a.type, b.type),
  );
  return { page, edges };
}
