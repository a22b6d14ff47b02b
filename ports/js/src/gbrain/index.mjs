// Profile gbrain (spec/profiles/gbrain.md): version and operations.
import { invalid } from '../errors.mjs';
import { extractLinks, linkTable } from './links.mjs';
import { edgesFromJson, traverse, walkOptions } from './traverse.mjs';
import { intentTable } from './routing.mjs';
import { adjustWeights, afterFusion, afterRerank, rerankEnabled, defaultExcludes, filterLeg, graphBackend, legLimit, parseGraphData, parseOptions, queryVariants } from './graph.mjs';

export const name = 'gbrain';
export const version = '2.0.0';

// GBRAIN-13..23: the profile inside search.
export const pipeline = {
  parseRequest: parseOptions,
  parseBackends: parseGraphData,
  queryVariants,
  adjustWeights,
  legLimit,
  filterLeg,
  graphBackend,
  afterFusion,
  afterRerank,
  rerankEnabled,
};

export function load() {
  linkTable();
  defaultExcludes();
  intentTable();
}

export const operations = {
  // GBRAIN-2
  'gbrain.extract_links'(input) {
    if (typeof input.path !== 'string' || typeof input.markdown !== 'string') {
      throw invalid('path and markdown must be strings');
    }
    const out = extractLinks(input.path, input.markdown);
    if (out === null) throw invalid(`path ${JSON.stringify(input.path)} names no page`);
    return out;
  },
  // GBRAIN-10..12
  'gbrain.traverse'(input) {
    const edges = edgesFromJson(input.edges, 'edges');
    const seeds = input.seeds;
    if (!Array.isArray(seeds) || !seeds.every((s) => typeof s === 'string' && s !== '')) {
      throw invalid('seeds must be a list of non-empty strings');
    }
    if (new Set(seeds).size !== seeds.length) throw invalid('seeds must be distinct');
    return { results: traverse(edges, seeds, walkOptions(input, '')) };
  },
};
