// Profiles this port implements (spec/profiles.md) and their pipeline hooks (spec/pipeline.md
// PIPE-10, PIPE-11). A profile module exports {name, version, operations, pipeline}; register it
// in PROFILE_MODULES below. `pipeline` hooks, all optional except parseRequest:
//   parseRequest(options) -> opts            validate request.profiles[NAME] (throw invalid())
//   parseBackends(raw | undefined) -> data   validate backends.profiles[NAME]
//   queryVariants(call, query) -> [string]   once, on request.query: more variants (PIPE-12)
//   rewriteQuery(call, query) -> query       before the DSL parse (once per variant)
//   adjustWeights(call, query, {bm25, vector, graph}) -> weights
//   legLimit(call, leg, n) -> n              hits asked of a leg's backend
//   filterLeg(call, leg, hits) -> hits       each backend answer, before the candidateK cut
//   graphBackend(call) -> {search(query, limit)} | null
//   afterFusion(call, query, items) -> items after intent reweighting, before unanimity
//   afterRerank(call, query, [{id, rerankScore}], outcome) -> ids to keep, before the topK cut
//   fanoutBase(call, query) -> query         the fanout's base text (FANOUT-15); with the fanout
//                                             on, a profile that has it does not rewrite
//   rerankEnabled(call) -> bool              every profile must allow the reranker to run it
//   vectorQuery(call, text) -> text          the text the vector leg embeds
//   runsAtZeroWeight(call, leg) -> bool      any profile may run a zero-weight leg
// `call` is {name, options, backend, trace}; what hooks put in call.trace becomes
// trace.profiles[NAME]. Enabled profiles run in code-point order of their names.
import { invalid } from './errors.mjs';
import { isObject } from './validate.mjs';
import { compareCodePoints } from './text.mjs';
import { SCOPED_FUSION } from './profiles/scoped-fusion.mjs';
import { temporalProfile } from './temporal.mjs';
import { profile as bm25Okapi } from './profiles/bm25-okapi.mjs';
import * as gbrain from './gbrain/index.mjs';
import { ENGRAM_PROFILE } from './engram.mjs';

const PROFILE_MODULES = [bm25Okapi, ENGRAM_PROFILE, gbrain, SCOPED_FUSION, temporalProfile];

export const PROFILES = new Map(PROFILE_MODULES.map((p) => [p.name, p]));

// PIPE-10: each enabled profile's parsed options, by name; null entries are absent (OP-5).
export function parseProfilesMember(raw) {
  const out = new Map();
  if (raw === null || raw === undefined) return out;
  if (!isObject(raw)) throw invalid('request.profiles must be an object');
  for (const name of Object.keys(raw).sort(compareCodePoints)) {
    const options = raw[name];
    if (options === null || options === undefined) continue;
    const profile = PROFILES.get(name);
    if (!profile || !profile.pipeline) throw invalid(`request.profiles.${name}: unknown profile`);
    if (!isObject(options)) throw invalid(`request.profiles.${name} must be an object`);
    out.set(name, profile.pipeline.parseRequest(options));
  }
  return out;
}

// PIPE-11: the enabled profiles of one search, applied in name order at each hook point.
export class ProfileRun {
  constructor(enabled, backendData) {
    this.calls = [];
    for (const [name, options] of enabled) {
      const hooks = PROFILES.get(name).pipeline;
      const raw = backendData ? backendData[name] : undefined;
      const backend = hooks.parseBackends ? hooks.parseBackends(raw ?? undefined) : undefined;
      this.calls.push({ hooks, call: { name, options, backend, trace: {}, state: {} } });
    }
  }

  // PIPE-12: every profile's variants of the request's query, in name order.
  queryVariants(query) {
    const out = [];
    for (const { hooks, call } of this.calls) if (hooks.queryVariants) out.push(...hooks.queryVariants(call, query));
    return out;
  }

  // With the fanout a profile with fanoutBase does not rewrite the query (FANOUT-15).
  rewriteQuery(query, fanout = false) {
    for (const { hooks, call } of this.calls) {
      if (fanout && hooks.fanoutBase) continue;
      if (hooks.rewriteQuery) query = hooks.rewriteQuery(call, query);
    }
    return query;
  }

  // FANOUT-15: the base query of the first pass (the query when no profile has one).
  fanoutBase(query) {
    for (const { hooks, call } of this.calls) if (hooks.fanoutBase) query = hooks.fanoutBase(call, query);
    return query;
  }

  adjustWeights(query, weights) {
    for (const { hooks, call } of this.calls) {
      if (!hooks.adjustWeights) continue;
      const w = hooks.adjustWeights(call, query, { ...weights });
      for (const leg of ['bm25', 'vector', 'graph']) {
        const v = w[leg];
        if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) throw invalid(`profile ${call.name}: weight ${leg} must be a finite number >= 0`);
      }
      weights = { bm25: w.bm25, vector: w.vector, graph: w.graph };
    }
    return weights;
  }

  // PIPE-11: false when an enabled profile switches the reranker off for this call.
  rerankEnabled() {
    return this.calls.every(({ hooks, call }) => !hooks.rerankEnabled || hooks.rerankEnabled(call));
  }

  // PIPE-11: the text the vector leg embeds (the normalised query unless a profile says).
  vectorQuery(text) {
    for (const { hooks, call } of this.calls) if (hooks.vectorQuery) text = hooks.vectorQuery(call, text);
    return text;
  }

  // PIPE-11: whether an enabled profile runs this leg although its weight is 0.
  runsAtZeroWeight(leg) {
    return this.calls.some(({ hooks, call }) => hooks.runsAtZeroWeight && hooks.runsAtZeroWeight(call, leg));
  }

  // PIPE-11: ask for the profiles' limit, filter each answer, then keep `limit` (PIPE-4).
  legSearch(leg, candidateK, ask) {
    let asked = candidateK;
    for (const { hooks, call } of this.calls) if (hooks.legLimit) asked = hooks.legLimit(call, leg, asked);
    const filters = this.calls.filter(({ hooks }) => hooks.filterLeg);
    if (asked === candidateK && filters.length === 0) return ask;
    return (limit) => {
      let hits = ask(Math.max(asked, limit));
      for (const { hooks, call } of filters) hits = hooks.filterLeg(call, leg, hits);
      return hits.slice(0, limit);
    };
  }

  graphBackend() {
    for (const { hooks, call } of this.calls) {
      if (!hooks.graphBackend) continue;
      const g = hooks.graphBackend(call);
      if (g) return g;
    }
    return null;
  }

  afterFusion(query, items) {
    for (const { hooks, call } of this.calls) if (hooks.afterFusion) items = hooks.afterFusion(call, query, items);
    return items;
  }

  // PIPE-11: each profile keeps a subsequence of the reranked list (the ids it returns).
  afterRerank(query, items, outcome) {
    for (const { hooks, call } of this.calls) {
      if (!hooks.afterRerank) continue;
      const keep = new Set(hooks.afterRerank(call, query, items.map(({ item, rerankScore }) => ({ id: item.id, rerankScore })), outcome));
      items = items.filter(({ item }) => keep.has(item.id));
    }
    return items;
  }

  traceJson() {
    return Object.fromEntries(this.calls.map(({ call }) => [call.name, call.trace]));
  }
}
