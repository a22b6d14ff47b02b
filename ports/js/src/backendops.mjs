// The backend operations of spec/operations.md ("Backend operations"): fnv1a, embed_features,
// embed, chunk_document, vector_search and lexical_rerank need no SQLite; fts_search and
// index_documents need FTS5 (node-sqlite3-wasm) and are only offered when it loads.
import { createHash } from 'node:crypto';
import { invalid } from './errors.mjs';
import { isObject, requireArray, candidate, chunk, wholeNumber } from './validate.mjs';
import { fnv1a32, features, embed, DIM } from './embedder.mjs';
import { parseDocument } from './chunker.mjs';
import { compareCodePoints } from './text.mjs';
import { VectorStore } from './vectorstore.mjs';
import { lexicalScores } from './lexical.mjs';

const DEFAULT_LIMIT = 60; // the default candidateK

// A string that is valid Unicode: no lone surrogate (operations.md, "Backend operations").
export function requireText(v, field) {
  if (typeof v !== 'string') throw invalid(`${field} must be a string`);
  if (!v.isWellFormed()) throw invalid(`${field} is not valid Unicode (lone surrogate)`);
  return v;
}

// Every string inside a JSON value must be valid Unicode.
function requireWellFormedDeep(v, field) {
  if (typeof v === 'string') requireText(v, field);
  else if (Array.isArray(v)) v.forEach((x, i) => requireWellFormedDeep(x, `${field}[${i}]`));
  else if (isObject(v)) for (const [k, x] of Object.entries(v)) {
    requireText(k, `${field} key`);
    requireWellFormedDeep(x, `${field}.${k}`);
  }
}

function limitOf(v, field) {
  return v == null ? DEFAULT_LIMIT : wholeNumber(v, field, { min: 1 }); // OP-4, OP-5
}

function requireUniqueIds(items, field) {
  const seen = new Set();
  for (const it of items) {
    if (seen.has(it.id)) throw invalid(`${field}: repeated id ${JSON.stringify(it.id)}`);
    seen.add(it.id);
  }
}

// RFC 4648 base64 with padding; anything else (whitespace, URL alphabet, missing padding) is
// malformed. Non-zero pad bits are tolerated (RFC 4648 §3.5 makes rejecting them optional).
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
function decodeBase64(s, field) {
  if (typeof s !== 'string') throw invalid(`${field} must be a string`);
  if (!BASE64.test(s)) throw invalid(`${field} is not valid base64 (RFC 4648, padded)`);
  return new Uint8Array(Buffer.from(s, 'base64'));
}

const encoder = new TextEncoder();

// A file {path, text} or {path, base64}: its bytes. Path checks are the caller's.
function fileBytes(f, field) {
  if (!isObject(f)) throw invalid(`${field} must be an object`);
  requireText(f.path, `${field}.path`);
  const hasText = f.text != null; // OP-5: a null field is not given
  const hasB64 = f.base64 != null;
  if (hasText === hasB64) throw invalid(`${field}: exactly one of text and base64 must be given`);
  if (hasText) return encoder.encode(requireText(f.text, `${field}.text`));
  return decodeBase64(f.base64, `${field}.base64`);
}

function sha256Hex(bytes) {
  return createHash('sha256').update(bytes).digest('hex');
}

// A vector given in the input: 1 to 256 integers in [0, 2^16) (OP-4: 2.0 is 2).
function givenVector(v, field) {
  requireArray(v, field);
  if (v.length < 1 || v.length > DIM) throw invalid(`${field} must have 1 to ${DIM} components`);
  return v.map((x, i) => wholeNumber(x, `${field}[${i}]`, { min: 0, max: 65535 }));
}

function vectorHits(store, q, limit) {
  return store.searchExact(q, limit).map(({ chunk: c, dot, similarity }) => ({
    id: c.id,
    path: c.path,
    dot: Number(dot),
    similarity,
  }));
}

// FTS hits as fts_search answers them (operations.md): the stored candidate, metadata {}, score.
function ftsHits(index, expression, limit) {
  return index.searchRows(expression, limit).map((r) => ({
    id: r.id,
    path: r.path,
    title: r.title,
    summary: r.summary,
    content: r.content,
    metadata: {},
    score: r.score,
  }));
}

export const BACKEND_OPS = {
  fnv1a(input) {
    const hash = fnv1a32(requireText(input.text, 'text'));
    return { hash, bucket: hash % DIM };
  },
  embed_features(input) {
    return { features: features(requireText(input.text, 'text')) };
  },
  embed(input) {
    const v = embed(requireText(input.text, 'text'));
    const counts = [];
    v.forEach((c, b) => {
      if (c !== 0) counts.push([b, c]);
    });
    return { dimension: DIM, counts };
  },
  chunk_document(input) {
    const path = requireText(input.path, 'path');
    if (path === '') throw invalid('path must not be empty');
    const bytes = fileBytes(input, 'input');
    const hash = sha256Hex(bytes);
    const { title, summary, contents } = parseDocument(path, bytes); // index_error if not UTF-8
    return { title, summary, hash, chunks: contents.map((content, i) => ({ id: `${path}#${i}`, content })) };
  },
  vector_search(input) {
    const hasQuery = input.query != null; // OP-5
    const hasVector = input.queryVector != null;
    if (hasQuery === hasVector) throw invalid('exactly one of query and queryVector must be given');
    const q = hasQuery ? embed(requireText(input.query, 'query')) : givenVector(input.queryVector, 'queryVector');
    requireArray(input.chunks, 'chunks');
    const limit = limitOf(input.limit, 'limit');
    const store = new VectorStore();
    const seen = new Set();
    input.chunks.forEach((raw, i) => {
      const f = `chunks[${i}]`;
      if (!isObject(raw)) throw invalid(`${f} must be an object`);
      requireWellFormedDeep(raw, f);
      const hasContent = raw.content != null; // OP-5
      const hasVec = raw.vector != null;
      if (hasContent === hasVec) throw invalid(`${f}: exactly one of content and vector must be given`);
      const c = candidate(raw, f);
      const v = hasContent ? embed(c.content) : givenVector(raw.vector, `${f}.vector`);
      if (v.length !== q.length) throw invalid(`${f}: vector has ${v.length} components, the query has ${q.length}`);
      if (seen.has(c.id)) throw invalid(`${f}: repeated id ${JSON.stringify(c.id)}`);
      seen.add(c.id);
      store.put(c, v);
    });
    return { hits: vectorHits(store, q, limit) };
  },
  lexical_rerank(input) {
    const query = requireText(input.query, 'query');
    requireArray(input.head, 'head');
    const head = input.head.map((c, i) => {
      requireWellFormedDeep(c, `head[${i}]`);
      return candidate(c, `head[${i}]`);
    });
    requireUniqueIds(head, 'head');
    return { results: lexicalScores(query, head) };
  },
};

// Ops that need SQLite FTS5, given the loaded corpus module.
export function sqliteOps(mod) {
  return {
    fts_search(input) {
      requireArray(input.chunks, 'chunks');
      const chunks = input.chunks.map((c, i) => {
        requireWellFormedDeep(c, `chunks[${i}]`);
        return chunk(c, `chunks[${i}]`);
      });
      requireUniqueIds(chunks, 'chunks');
      const expression = requireText(input.expression, 'expression');
      const limit = limitOf(input.limit, 'limit');
      const index = new mod.FtsIndex();
      try {
        index.write({ chunks });
        return { hits: ftsHits(index, expression, limit) };
      } finally {
        index.close();
      }
    },
    index_documents(input) {
      requireArray(input.batches, 'batches');
      const batches = input.batches.map((b, i) => validateBatch(b, `batches[${i}]`));
      const searches = optionalList(input.searches, 'searches').map((s, i) => {
        const f = `searches[${i}]`;
        if (!isObject(s)) throw invalid(`${f} must be an object`);
        return { expression: requireText(s.expression, `${f}.expression`), limit: limitOf(s.limit, `${f}.limit`) };
      });
      const vectorSearches = optionalList(input.vectorSearches, 'vectorSearches').map((s, i) => {
        const f = `vectorSearches[${i}]`;
        if (!isObject(s)) throw invalid(`${f} must be an object`);
        return { query: requireText(s.query, `${f}.query`), limit: limitOf(s.limit, `${f}.limit`) };
      });
      const index = new mod.FtsIndex();
      try {
        const indexer = new Indexer(index);
        const runs = batches.map((files) => indexer.run(files));
        return {
          runs,
          chunks: index.chunks(),
          searches: searches.map((s) => ({ hits: ftsHits(index, s.expression, s.limit) })),
          vectorSearches: vectorSearches.map((s) => ({ hits: vectorHits(indexer.store, embed(s.query), s.limit) })),
        };
      } finally {
        index.close();
      }
    },
  };
}

function optionalList(v, field) {
  if (v == null) return []; // OP-5
  return requireArray(v, field);
}

// A batch: the complete list of files under the root (operations.md, index_documents).
function validateBatch(b, field) {
  requireArray(b, field);
  const files = b.map((f, i) => {
    const ff = `${field}[${i}]`;
    const bytes = fileBytes(f, ff);
    const path = f.path;
    if (path === '' || path.includes('\\') || path.includes('\0')) {
      throw invalid(`${ff}.path ${JSON.stringify(path)} is empty or holds a backslash or NUL`);
    }
    for (const seg of path.split('/')) {
      if (seg === '' || seg === '.' || seg === '..') throw invalid(`${ff}.path ${JSON.stringify(path)} has an empty, . or .. segment`);
    }
    return { path, bytes };
  });
  const paths = new Set();
  for (const f of files) {
    if (paths.has(f.path)) throw invalid(`${field}: repeated path ${JSON.stringify(f.path)}`);
    paths.add(f.path);
  }
  for (const f of files) {
    const segs = f.path.split('/');
    for (let n = 1; n < segs.length; n++) {
      const folder = segs.slice(0, n).join('/');
      if (paths.has(folder)) throw invalid(`${field}: ${JSON.stringify(folder)} is both a file and a folder of ${JSON.stringify(f.path)}`);
    }
  }
  return files;
}

// BACKEND-12: names ending in .md or .txt (case-sensitive), no file or folder name starting with
// `.`, in code point order of the paths.
function selectFiles(files) {
  return files
    .filter((f) => {
      const segs = f.path.split('/');
      if (segs.some((s) => s.startsWith('.'))) return false;
      const name = segs[segs.length - 1];
      return name.endsWith('.md') || name.endsWith('.txt');
    })
    .sort((a, b) => compareCodePoints(a.path, b.path));
}

// The incremental indexer (BACKEND-9, BACKEND-18, BACKEND-19, BACKEND-26) over one index and one
// hrc-hash-v1 store.
class Indexer {
  constructor(index) {
    this.index = index;
    this.store = new VectorStore();
    this.documents = new Map(); // path -> {hash, chunkIds: [id]}
  }

  run(files) {
    const selected = selectFiles(files);
    // BACKEND-19: read and chunk every file before writing anything.
    const docs = [];
    for (const f of selected) {
      const hash = sha256Hex(f.bytes);
      let chunks;
      try {
        const { title, summary, contents } = parseDocument(f.path, f.bytes);
        chunks = contents.map((content, i) => ({ id: `${f.path}#${i}`, path: f.path, title, summary, content }));
      } catch (e) {
        if (e && e.kind === 'index_error') {
          return { committed: false, failedPath: f.path, added: [], updated: [], unchanged: [], removed: [] };
        }
        throw e;
      }
      docs.push({ path: f.path, hash, chunks });
    }
    const added = [];
    const updated = [];
    const unchanged = [];
    const present = new Set();
    for (const d of docs) {
      present.add(d.path);
      const old = this.documents.get(d.path);
      if (!old) added.push(d);
      else if (old.hash === d.hash) unchanged.push(d);
      else updated.push(d);
    }
    const removed = [...this.documents.keys()].filter((p) => !present.has(p)).sort(compareCodePoints);
    const writes = [...added, ...updated];
    // BACKEND-9: one transaction.
    this.index.write({
      removePaths: [...updated.map((d) => d.path), ...removed],
      chunks: writes.flatMap((d) => d.chunks),
    });
    // BACKEND-19, BACKEND-26: the store follows after the commit.
    for (const p of [...updated.map((d) => d.path), ...removed]) {
      for (const id of this.documents.get(p).chunkIds) this.store.remove(id);
      this.documents.delete(p);
    }
    for (const d of writes) {
      for (const c of d.chunks) this.store.put(c, embed(c.content));
      this.documents.set(d.path, { hash: d.hash, chunkIds: d.chunks.map((c) => c.id) });
    }
    const paths = (list) => list.map((d) => d.path);
    return {
      committed: true,
      failedPath: null,
      added: paths(added),
      updated: paths(updated),
      unchanged: paths(unchanged),
      removed,
    };
  }
}
