// Files, documents and chunks (BACKEND-12..BACKEND-17).
import { readdirSync, readFileSync, lstatSync } from 'node:fs';
import { join } from 'node:path';
import { normalise, isWhiteSpace, compareCodePoints, codePoints } from './text.mjs';
import { indexError } from './errors.mjs';

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

// BACKEND-12: relative paths of .md/.txt files, in code point order.
export function listFiles(root) {
  const out = [];
  const walk = (dir, rel) => {
    for (const ent of readdirSync(dir, { withFileTypes: true })) {
      if (ent.name.startsWith('.')) continue;
      const abs = join(dir, ent.name);
      const relPath = rel === '' ? ent.name : `${rel}/${ent.name}`;
      const st = lstatSync(abs);
      if (st.isDirectory()) walk(abs, relPath);
      else if (st.isFile() && (ent.name.endsWith('.md') || ent.name.endsWith('.txt'))) out.push(relPath);
    }
  };
  walk(root, '');
  return out.sort(compareCodePoints);
}

function isBlank(line) {
  for (const ch of line) if (!isWhiteSpace(ch.codePointAt(0))) return false;
  return true;
}

const HEADING = /^#{1,6}[ \t]/;

// BACKEND-13..BACKEND-16 for one document: {title, summary, contents: [string]}.
// A file that is not strict UTF-8 is an index_error naming the file (BACKEND-13).
export function parseDocument(path, bytes) {
  let text;
  try {
    text = decoder.decode(bytes);
  } catch (e) {
    throw indexError(`${path}: not valid UTF-8`);
  }
  if (text.startsWith('\ufeff')) text = text.slice(1);
  text = text.replaceAll('\r\n', '\n').replaceAll('\r', '\n');
  const lines = text.split('\n');
  const blocks = []; // {heading: bool, text}
  let run = [];
  const flush = () => {
    if (run.length) blocks.push({ heading: false, raw: run.join('\n') });
    run = [];
  };
  for (const line of lines) {
    if (isBlank(line)) flush();
    else if (HEADING.test(line)) {
      flush();
      blocks.push({ heading: true, raw: line });
    } else run.push(line);
  }
  flush();
  const norm = blocks.map((b) => ({ heading: b.heading, text: normalise(b.raw) })).filter((b) => b.text !== '');

  // BACKEND-15
  const name = path.split('/').pop();
  // The file name without its last `.`-suffix, literally: `.md` -> "" (only reachable through
  // chunk_document, since BACKEND-12 skips such names).
  const dot = name.lastIndexOf('.');
  let title = dot >= 0 ? name.slice(0, dot) : name;
  // The first heading block whose text (after the leading `#` run, normalised) is not empty; an
  // empty heading such as `#   ` is skipped, not a reason to fall back to the file name (FINDINGS B1).
  for (const b of norm) {
    if (!b.heading) continue;
    const t = normalise(b.text.replace(/^#+/, ''));
    if (t !== '') {
      title = t;
      break;
    }
  }
  const firstBody = norm.find((b) => !b.heading);
  let summary = '';
  if (firstBody) {
    summary = codePoints(firstBody.text).slice(0, 200).join('');
    if (summary.endsWith(' ')) summary = summary.slice(0, -1);
  }

  // BACKEND-16
  const contents = [];
  let cur = null;
  let curLen = 0;
  for (const b of norm) {
    const len = codePoints(b.text).length;
    if (cur !== null && curLen + 2 + len <= 1000) {
      cur += `\n\n${b.text}`;
      curLen += 2 + len;
    } else {
      if (cur !== null) contents.push(cur);
      cur = b.text;
      curLen = len;
    }
  }
  if (cur !== null) contents.push(cur);
  return { title, summary, contents };
}

// BACKEND-17: chunk i of a document.
export function chunkDocument(path, bytes) {
  const { title, summary, contents } = parseDocument(path, bytes);
  return contents.map((content, i) => ({ id: `${path}#${i}`, path, title, summary, content }));
}

export function chunkTree(root) {
  const chunks = [];
  for (const rel of listFiles(root)) {
    const bytes = readFileSync(join(root, ...rel.split('/')));
    chunks.push(...chunkDocument(rel, bytes));
  }
  return chunks;
}
