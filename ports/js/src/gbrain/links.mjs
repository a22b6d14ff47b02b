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
    wikilinkText: p.wikilink.text,
    markdown: new RegExp(p.markdown.source, 'g'),
    markdownGroup: p.markdown.target,
    markdownText: p.markdown.text,
    typed: new RegExp(p.typed.source),
    typedGroup: p.typed.label,
    window: doc.window,
    defaultType: doc.defaultType,
    types: doc.types.map((t) => {
      if (!/^i?$/.test(t.flags)) throw new Error(`hrc-js: ${DATA_FILE}: unknown flags ${t.flags}`);
      return [t.type, new RegExp(t.source, t.flags)];
    }),
    directories: new Set(doc.directories),
  };
  if (!Number.isInteger(table.window) || table.window < 1 || table.types.length === 0) {
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

// GBRAIN-8: the text the code looks a wikilink up by (pass 2b: its text; 2c: its target).
function wikilinkName(target, text, t) {
  const head = target.split('#')[0];
  let slug = head.trim().replace(/\\+$/, '');
  if (slug.endsWith('.md')) slug = slug.slice(0, -3);
  const name = text ? text.trim() : slug;
  const slash = head.indexOf('/');
  const listed = slash > 0 && t.directories.has(head.slice(0, slash)) && slash + 1 < head.length;
  return { lookup: listed ? name : slug, fallback: name };
}

// GBRAIN-5: wikilinks first, then markdown links on the line with wikilinks blanked; images skipped.
function linkSpans(line, t) {
  const spans = [];
  let rest = line;
  for (const m of line.matchAll(t.wikilink)) {
    const target = m[t.wikilinkGroup];
    spans.push({ start: m.index, target, ...wikilinkName(target, m[t.wikilinkText], t) });
    rest = rest.slice(0, m.index) + ' '.repeat(m[0].length) + rest.slice(m.index + m[0].length);
  }
  for (const m of rest.matchAll(t.markdown)) {
    if (m.index > 0 && rest[m.index - 1] === '!') continue;
    const name = m[t.markdownText];
    spans.push({ start: m.index, target: m[t.markdownGroup], lookup: name, fallback: name });
  }
  return spans.sort((a, b) => a.start - b.start);
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

// GBRAIN-2..9: {page, edges} with edges unique by (to, type), ordered by code point.
export function extractLinks(path, markdown) {
  const t = linkTable();
  const page = pageOfPath(path);
  if (page === null) return null;
  const base = page.split('/').slice(0, -1);
  const lines = stripCode(markdown.replace(/\r\n/g, '\n').replace(/\r/g, '\n')).split('\n');
  const found = new Map();
  const types = new Map();
  lines.forEach((blanked) => {
    if (!blanked.includes('[')) return;
    const spans = linkSpans(blanked, t);
    if (spans.length === 0) return;
    const label = typedLabel(blanked, t);
    spans.forEach((span) => {
      const to = targetPage(span.target, base);
      if (to === null || to === page) return;
      let type = label;
      if (type === null) {
        const key = JSON.stringify([span.lookup, span.fallback]);
        if (!types.has(key)) types.set(key, inferType(contextOf(markdown, span.lookup, span.fallback, t.window), t));
        type = types.get(key);
      }
      found.set(JSON.stringify([to, type]), { from: page, to, type });
    });
  });
  const edges = [...found.values()].sort(
    (a, b) => compareCodePoints(a.to, b.to) || compareCodePoints(a.type, b.type),
  );
  return { page, edges };
}
