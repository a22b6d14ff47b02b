// Benchmark: the JavaScript port's gbrain.extract_links over generated pages (not a test).
//   python benchmarks/gbrain_graph.py --dump pages.json --sizes 17000
//   node benchmarks/gbrain_extract_js.mjs pages.json
import { readFileSync } from 'node:fs';
import { extractLinks } from '../ports/js/src/gbrain/links.mjs';

const pages = JSON.parse(readFileSync(process.argv[2], 'utf8'));
extractLinks(pages[0][0], pages[0][1]); // load the data file first
const t0 = process.hrtime.bigint();
let edges = 0;
for (const [path, markdown] of pages) edges += extractLinks(path, markdown).edges.length;
const s = Number(process.hrtime.bigint() - t0) / 1e9;
console.log(`node ${process.version}: ${pages.length} pages, ${edges} edges, extract ${s.toFixed(2)} s`);
