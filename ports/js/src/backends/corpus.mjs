// Real backends over a shipped corpus (BACKEND-1..BACKEND-35, BACKEND-41): SQLite FTS5 through
// node-sqlite3-wasm (a WebAssembly build, no native compilation), the hrc-hash-v1 embedder, an
// exact integer vector store and the reference reranker hrc-lexical-v1.
import { createRequire } from 'node:module';
import { indexError, invalid } from '../errors.mjs';
import { repoPath } from '../data.mjs';
import { chunkTree } from '../chunker.mjs';
import { hashEmbedder, embed } from '../embedder.mjs';
import { words, compareCodePoints } from '../text.mjs';
import { isStopword } from '../stopwords.mjs';

const require = createRequire(import.meta.url);
let sqlite = null;
try {
  sqlite = require('node-sqlite3-wasm');
} catch {
  sqlite = null;
}

export function available() {
  if (!sqlite) return false;
  try {
    const db = new sqlite.Database(':memory:');
    db.exec('CREATE VIRTUAL TABLE probe USING fts5(x)');
    db.close();
    return true;
  } catch {
    return false;
  }
}

const CORPORA = { demo: 'corpus/demo' };
const cache = new Map();

function versionAtLeast(v, [a, b, c]) {
  const [x, y, z] = v.split('.').map(Number);
  return x !== a ? x > a : y !== b ? y > b : z >= c;
}

export function buildIndex(chunks) {
  const db = new sqlite.Database(':memory:');
  const version = db.get('SELECT sqlite_version() AS v').v;
  if (!versionAtLeast(version, [3, 27, 0])) throw new Error(`SQLite ${version} is older than 3.27.0 (BACKEND-2)`);
  db.exec("PRAGMA encoding = 'UTF-8'");
  db.exec(
    "CREATE VIRTUAL TABLE chunks USING fts5(id UNINDEXED, path, title, summary, content, tokenize = 'unicode61 remove_diacritics 2')",
  );
  // BACKEND-3: this WASM build answers PRAGMA reads with no row, so check the encoding through
  // a UTF-8-only behaviour instead: the byte length of a non-ASCII text.
  if (db.get("SELECT length(CAST('\u00e9' AS BLOB)) AS n").n !== 2) throw new Error('database encoding is not UTF-8 (BACKEND-3)');
  db.exec('BEGIN');
  const stmt = db.prepare('INSERT INTO chunks (id, path, title, summary, content) VALUES (?, ?, ?, ?, ?)');
  for (const c of chunks) stmt.run([c.id, c.path, c.title, c.summary, c.content]);
  stmt.finalize();
  db.exec('COMMIT');
  return db;
}

// BACKEND-27..BACKEND-29: exact cosine order in integers.
function vectorStore(chunks) {
  const entries = chunks.map((c) => {
    const v = embed(c.content);
    let norm2 = 0n;
    for (const x of v) norm2 += BigInt(x) * BigInt(x);
    return { chunk: c, v, norm2 };
  });
  return {
    search(q, limit) {
      const hits = [];
      for (const e of entries) {
        let dot = 0n;
        for (let i = 0; i < q.length; i++) if (q[i] !== 0 && e.v[i] !== 0) dot += BigInt(q[i]) * BigInt(e.v[i]);
        if (dot > 0n) hits.push({ e, dot });
      }
      hits.sort((a, b) => {
        const l = a.dot * a.dot * b.e.norm2;
        const r = b.dot * b.dot * a.e.norm2;
        if (l !== r) return l > r ? -1 : 1;
        return compareCodePoints(a.e.chunk.path, b.e.chunk.path) || compareCodePoints(a.e.chunk.id, b.e.chunk.id);
      });
      return hits.slice(0, limit).map(({ e }) => ({ ...e.chunk, metadata: {} }));
    },
  };
}

// BACKEND-33..BACKEND-35
const lexicalReranker = {
  name: 'hrc-lexical-v1',
  rerank(query, head) {
    const Q = new Set(words(query).filter((w) => !isStopword(w)));
    return head.map((item) => {
      if (Q.size === 0) return { id: item.id, score: 0.0 };
      const D = new Set([...words(item.title ?? ''), ...words(item.summary ?? ''), ...words(item.content ?? '')]);
      let n = 0;
      for (const w of Q) if (D.has(w)) n++;
      return { id: item.id, score: n / Q.size };
    });
  },
};

export function corpusBackends(name) {
  if (!Object.hasOwn(CORPORA, name)) throw invalid(`unknown corpus ${JSON.stringify(name)}`);
  if (!cache.has(name)) {
    const chunks = chunkTree(repoPath(CORPORA[name]));
    const db = buildIndex(chunks);
    const ordered = [...chunks].sort((a, b) => compareCodePoints(a.path, b.path) || compareCodePoints(a.id, b.id));
    cache.set(name, { db, chunks: ordered, store: vectorStore(chunks) });
  }
  const { db, chunks, store } = cache.get(name);
  return {
    index: {
      searchBm25(expression, limit) {
        try {
          const rows = db.all(
            'SELECT id, path, title, summary, content, bm25(chunks, 0.0, 3.0, 10.0, 5.0, 1.0) AS score ' +
              'FROM chunks WHERE chunks MATCH :expression ORDER BY score, path, id LIMIT :limit',
            { ':expression': expression, ':limit': limit },
          );
          return rows.map((r) => ({ id: r.id, path: r.path, title: r.title, summary: r.summary, content: r.content, metadata: {} }));
        } catch (e) {
          throw indexError(e.message);
        }
      },
      chunks() {
        return chunks.map((c) => ({ ...c }));
      },
    },
    embedder: hashEmbedder,
    vector: store,
    reranker: lexicalReranker,
  };
}
