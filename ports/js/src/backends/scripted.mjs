// Scripted backends of the `search` operation (spec/operations.md, BACKEND-36..BACKEND-40, BACKEND-42).
import { HrcError, invalid, indexError } from '../errors.mjs';
import { isObject, candidate, chunk, requireArray } from '../validate.mjs';

export function parseRerankScore(v, field) {
  if (typeof v === 'number') return v;
  if (v === 'NaN') return NaN;
  if (v === 'Infinity') return Infinity;
  if (v === '-Infinity') return -Infinity;
  throw invalid(`${field} must be a number or "NaN", "Infinity", "-Infinity"`);
}

export function parseRerankerEntries(results, field) {
  requireArray(results, field);
  return results.map((e, i) => {
    const f = `${field}[${i}]`;
    if (!isObject(e)) throw invalid(`${f} must be an object`);
    if (typeof e.id !== 'string') throw invalid(`${f}.id must be a string`);
    return { id: e.id, score: parseRerankScore(e.score, `${f}.score`) };
  });
}

/** Validate a scripted reranker spec {name?, results} | {name?, error}; returns a reranker. */
export function scriptedReranker(spec, field, { defaultName = 'scripted' } = {}) {
  if (!isObject(spec)) throw invalid(`${field} must be an object`);
  let name = defaultName;
  if (spec.name == null && defaultName === null) throw invalid(`${field}.name is required`);
  if (spec.name != null) {
    if (typeof spec.name !== 'string' || spec.name === '') throw invalid(`${field}.name must be a non-empty string`);
    name = spec.name;
  }
  const hasResults = spec.results != null;
  const hasError = spec.error != null;
  if (hasResults === hasError) throw invalid(`${field}: exactly one of results and error is required`);
  if (hasError) {
    if (typeof spec.error !== 'string') throw invalid(`${field}.error must be a string`);
    const message = spec.error;
    return {
      name,
      rerank() {
        throw indexError(message);
      },
    };
  }
  const entries = parseRerankerEntries(spec.results, `${field}.results`);
  return { name, rerank: () => entries.map((e) => ({ ...e })) };
}

// BACKEND-37, GRAPH-2: `{hits: [...]}` or `{error: "..."}` -> {search(_, limit)}; null when absent.
function scriptedList(spec, where) {
  if (spec == null) return null;
  if (!isObject(spec)) throw invalid(`${where} must be an object`);
  const hasHits = spec.hits != null;
  const hasError = spec.error != null;
  if (hasHits === hasError) throw invalid(`${where}: exactly one of hits and error is required`);
  let hits = [];
  if (hasError) {
    if (typeof spec.error !== 'string') throw invalid(`${where}.error must be a string`);
  } else {
    requireArray(spec.hits, `${where}.hits`);
    hits = spec.hits.map((h, i) => candidate(h, `${where}.hits[${i}]`));
  }
  const error = hasError ? spec.error : null;
  return {
    search(_query, limit) {
      if (error !== null) throw indexError(error);
      return hits.slice(0, limit);
    },
  };
}

// `FtsIndex` is the FTS5 index class of backends/corpus.mjs (null when SQLite is unavailable):
// with `bm25.fts5: true` it executes every unscripted expression over the chunks (BACKEND-42).
export function scriptedBackends(backends, FtsIndex = null) {
  if (backends == null) backends = {}; // OP-5: null is absent
  if (!isObject(backends)) throw invalid('backends must be an object');
  const field = 'backends';

  // bm25
  const responses = new Map();
  const errors = new Map();
  let execute = false;
  if (backends.bm25 != null) {
    const b = backends.bm25;
    if (!isObject(b)) throw invalid(`${field}.bm25 must be an object`);
    if (b.fts5 != null) {
      if (typeof b.fts5 !== 'boolean') throw invalid(`${field}.bm25.fts5 must be a boolean`);
      execute = b.fts5;
    }
    if (b.responses != null) {
      if (!isObject(b.responses)) throw invalid(`${field}.bm25.responses must be an object`);
      for (const [expr, hits] of Object.entries(b.responses)) {
        const f = `${field}.bm25.responses[${JSON.stringify(expr)}]`;
        requireArray(hits, f);
        responses.set(expr, hits.map((h, i) => candidate(h, `${f}[${i}]`)));
      }
    }
    if (b.errors != null) {
      if (!isObject(b.errors)) throw invalid(`${field}.bm25.errors must be an object`);
      for (const [expr, msg] of Object.entries(b.errors)) {
        if (typeof msg !== 'string') throw invalid(`${field}.bm25.errors[${JSON.stringify(expr)}] must be a string`);
        if (responses.has(expr)) throw invalid(`${field}.bm25: expression ${JSON.stringify(expr)} has both a response and an error`);
        errors.set(expr, msg);
      }
    }
  }

  // chunks
  let chunks = null;
  if (backends.chunks != null) {
    requireArray(backends.chunks, `${field}.chunks`);
    chunks = backends.chunks.map((c, i) => chunk(c, `${field}.chunks[${i}]`));
  }

  // BACKEND-42: an FTS5 index of the chunks answers every unscripted expression.
  let fts = null;
  if (execute) {
    if (chunks === null) throw invalid(`${field}.bm25.fts5 needs ${field}.chunks (the rows to search)`);
    const seen = new Set();
    chunks.forEach((c, i) => {
      if (seen.has(c.id)) throw invalid(`${field}.chunks[${i}]: id ${JSON.stringify(c.id)} repeats (BACKEND-42)`);
      seen.add(c.id);
    });
    if (FtsIndex === null) throw new HrcError('unsupported', `${field}.bm25.fts5 needs SQLite FTS5 (capability sqlite-fts5)`);
    fts = new FtsIndex();
    try {
      fts.write({ chunks });
    } catch (e) {
      fts.close();
      throw e;
    }
  }

  // embedder
  if (backends.embedder != null && typeof backends.embedder !== 'boolean') {
    throw invalid(`${field}.embedder must be a boolean`);
  }
  const embedder = backends.embedder === true ? { name: 'scripted', embed: () => [1.0] } : null;

  // vector (BACKEND-37), graph (GRAPH-2): the same scripted form
  const vector = scriptedList(backends.vector ?? { hits: [] }, `${field}.vector`); // omitted: zero hits
  const graph = scriptedList(backends.graph, `${field}.graph`);

  // profiles (PIPE-10): raw; each enabled profile validates its own member
  let profiles = {};
  if (backends.profiles != null) {
    if (!isObject(backends.profiles)) throw invalid(`${field}.profiles must be an object`);
    profiles = backends.profiles;
  }

  // reranker
  const reranker = backends.reranker != null ? scriptedReranker(backends.reranker, `${field}.reranker`) : null;

  return {
    index: {
      searchBm25(expression, limit) {
        if (errors.has(expression)) throw indexError(errors.get(expression));
        if (!responses.has(expression) && fts !== null) return fts.searchBm25(expression, limit);
        const hits = responses.get(expression) ?? [];
        return hits.slice(0, limit);
      },
      chunks() {
        return chunks;
      },
    },
    embedder,
    vector,
    reranker: reranker ? { name: reranker.name, rerank: (_query, head) => reranker.rerank(head) } : null,
    graph,
    profiles,
    close() {
      if (fts !== null) fts.close();
    },
  };
}
