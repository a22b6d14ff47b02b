// Profile gbrain (spec/profiles/gbrain.md): version and operations.
import { invalid } from '../errors.mjs';
import { extractLinks, linkTable } from './links.mjs';
import { edgesFromJson, traverse, traverseOptions } from './traverse.mjs';
import { intentTable } from './routing.mjs';
import { opSearch, sources } from './search.mjs';

export const name = 'gbrain';
export const version = '4.0.0';

export function load() {
  linkTable();
  sources();
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
  // GBRAIN-28..39: seed 004's own search
  'gbrain.search'(input) {
    return opSearch(input);
  },
  // GBRAIN-10..12, GBRAIN-41
  'gbrain.traverse'(input) {
    const options = traverseOptions(input);
    const edges = edgesFromJson(input.edges, 'edges');
    const seeds = input.seeds;
    if (!Array.isArray(seeds) || !seeds.every((s) => typeof s === 'string' && s !== '')) {
      throw invalid('seeds must be a list of non-empty strings');
    }
    if (new Set(seeds).size !== seeds.length) throw invalid('seeds must be distinct');
    return { results: traverse(edges, seeds, options) };
  },
};
