// Real backends (BACKEND-1..BACKEND-35, BACKEND-41): SQLite FTS5 through node-sqlite3-wasm (a
// WebAssembly build, no native compilation), the hrc-hash-v1 embedder, the exact integer vector
// store and the reference reranker hrc-lexical-v1. Only this module loads SQLite.
import { createRequire } from 'node:module';
import { indexError, invalid } from '../errors.mjs';
import { repoPath } from '../data.mjs';
import { chunkTree } from '../chunker.mjs';
import { hashEmbedder, embed } from '../embedder.mjs';
import { VectorStore } from '../vectorstore.mjs';
import { lexicalReranker } from '../lexical.mjs';

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
    try {
      db.exec('CREATE VIRTUAL TABLE probe USING fts5(x)');
    } finally {
      db.close();
    }
    return true;
  } catch {
    return false;
  }
}

function versionAtLeast(v, [a, b, c]) {
  const [x, y, z] = v.split('.').map(Number);
  return x !== a ? x > a : y !== b ? y > b : z >= c;
}

const SEARCH_SQL =
  'SELECT id, path, title, summary, content, bm25(chunks, 0.0, 3.0, 10.0, 5.0, 1.0) AS score ' +
  'FROM chunks WHERE chunks MATCH :expression ORDER BY score, path, id LIMIT :limit';

// An FTS5 index (BACKEND-1..BACKEND-11). Call close() when done: the WASM heap is not collected.
export class FtsIndex {
  constructor() {
    this.db = new sqlite.Database(':memory:');
    try {
      const version = this.db.get('SELECT sqlite_version() AS v').v;
      if (!versionAtLeast(version, [3, 27, 0])) throw new Error(`SQLite ${version} is older than 3.27.0 (BACKEND-2)`);
      this.db.exec("PRAGMA encoding = 'UTF-8'");
      this.db.exec(
        "CREATE VIRTUAL TABLE chunks USING fts5(id UNINDEXED, path, title, summary, content, tokenize = 'unicode61 remove_diacritics 2')",
      );
      // BACKEND-3: this WASM build answers PRAGMA reads with no row, so check the encoding through
      // a UTF-8-only behaviour instead: the byte length of a non-ASCII text.
      if (this.db.get("SELECT length(CAST('\u00e9' AS BLOB)) AS n").n !== 2) {
        throw new Error('database encoding is not UTF-8 (BACKEND-3)');
      }
    } catch (e) {
      this.db.close();
      throw e;
    }
  }

  // One transaction (BACKEND-9, BACKEND-19): delete the rows of `removePaths`, insert `chunks`.
  write({ removePaths = [], chunks = [] }) {
    const db = this.db;
    db.exec('BEGIN');
    try {
      if (removePaths.length) {
        // One statement, one scan of the table: a DELETE per path scanned the FTS5 table
        // once per removed document (path is not a key), quadratic in removals (issue 29).
        db.run('DELETE FROM chunks WHERE path IN (SELECT value FROM json_each(?))', [JSON.stringify(removePaths)]);
      }
      if (chunks.length) {
        const ins = db.prepare('INSERT INTO chunks (id, path, title, summary, content) VALUES (?, ?, ?, ?, ?)');
        try {
          for (const c of chunks) ins.run([c.id, c.path, c.title ?? '', c.summary ?? '', c.content]);
        } finally {
          ins.finalize();
        }
      }
      db.exec('COMMIT');
    } catch (e) {
      db.exec('ROLLBACK');
      throw e;
    }
  }

  // BACKEND-5..7: rows with the bm25 score (kept for the fts_search operation).
  searchRows(expression, limit) {
    try {
      return this.db.all(SEARCH_SQL, { ':expression': expression, ':limit': limit });
    } catch (e) {
      throw indexError(e.message);
    }
  }

  // BACKEND-6: hits as candidates with metadata {}.
  searchBm25(expression, limit) {
    return this.searchRows(expression, limit).map((r) => ({
      id: r.id,
      path: r.path,
      title: r.title,
      summary: r.summary,
      content: r.content,
      metadata: {},
    }));
  }

  // BACKEND-8: every row by path, then id; BINARY collation on UTF-8 is code point order (BACKEND-3).
  chunks() {
    return this.db
      .all('SELECT id, path, title, summary, content FROM chunks ORDER BY path, id')
      .map((r) => ({ id: r.id, path: r.path, title: r.title, summary: r.summary, content: r.content }));
  }

  close() {
    this.db.close();
  }
}

export function buildIndex(chunks) {
  const index = new FtsIndex();
  index.write({ chunks });
  return index;
}

const CORPORA = { demo: 'corpus/demo' };
const cache = new Map();

export function corpusBackends(name) {
  if (!Object.hasOwn(CORPORA, name)) throw invalid(`unknown corpus ${JSON.stringify(name)}`);
  if (!cache.has(name)) {
    const chunks = chunkTree(repoPath(CORPORA[name]));
    const index = buildIndex(chunks);
    const store = new VectorStore();
    for (const c of chunks) store.put(c, embed(c.content));
    const ordered = index.chunks();
    cache.set(name, { index, ordered, store });
  }
  const { index, ordered, store } = cache.get(name);
  return {
    index: {
      searchBm25: (expression, limit) => index.searchBm25(expression, limit),
      chunks: () => ordered.map((c) => ({ ...c })),
    },
    embedder: hashEmbedder,
    vector: store,
    reranker: lexicalReranker,
  };
}
