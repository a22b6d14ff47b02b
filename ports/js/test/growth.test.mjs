// The pattern-driven parsers stay near-linear in their input (issue 29, item 1): each test
// compares two input sizes as a ratio (growth.mjs), never an absolute time.
import { test } from 'node:test';
import { assertLinear } from './growth.mjs';
import { extractLinks, stripCode } from '../src/gbrain/links.mjs';
import { detect } from '../src/intent.mjs';
import { expandTemporal } from '../src/temporal.mjs';
import { classify as engramClassify, querySignal } from '../src/engram.mjs';
import { classify as gbrainClassify } from '../src/gbrain/routing.mjs';
import { FtsIndex } from '../src/backends/corpus.mjs';

const repeat = (fn, unit) => (n) => {
  const text = unit.repeat(n);
  return () => fn(text);
};

for (const unit of ['[[a]] ', '[x](a) ', '[[a]]. founded ', '[a](b) worked at [[c|d]] ']) {
  test(`GBRAIN-8: link extraction is linear in links per line (${unit})`, () => {
    // One line, so every link shares a sentence window: re-tokenising it per link was quadratic.
    assertLinear(repeat((s) => extractLinks('p.md', s), unit), Math.floor(1500 / unit.length) * 2, unit);
  });
}

test('GBRAIN-4: code stripping is linear in backticks cut by line ends', () => {
  // Each backtick whose next one lies past a line end stays; no rescan of the text per backtick.
  const make = (n) => {
    const text = '[a] ' + '`\n'.repeat(Math.floor(n / 2));
    return () => stripCode(text);
  };
  assertLinear(make, 4000, 'backticks cut by line ends');
});

const parsers = {
  intent: (s) => detect(s),
  'intent hrc-1.0': (s) => detect(s, 'hrc-1.0'),
  temporal: (s) => expandTemporal(s, '2026-03-01'),
  'engram classes': engramClassify,
  'engram dates': querySignal,
  'gbrain routing': gbrainClassify,
};
for (const [name, fn] of Object.entries(parsers)) {
  test(`${name} is linear in query length`, () => {
    for (const unit of ['3 days ago ', 'last monday ', '2026-01-01 ', 'did i bought ', '1 ', '  ']) {
      assertLinear(repeat(fn, unit), Math.floor(10000 / unit.length), `${name} on ${JSON.stringify(unit)}`);
    }
  });
}

test('BACKEND-11: removing documents from the index is linear in removals', () => {
  // A DELETE per path scanned the whole FTS5 table each time (issue 29, item 2).
  const make = (n) => {
    const index = new FtsIndex();
    const chunks = [];
    for (let i = 0; i < n; i++) {
      chunks.push({ id: `d${i}#0`, path: `d${i}.md`, title: 't', summary: '', content: `word${i % 50} text ${i}` });
    }
    index.write({ chunks });
    return () => {
      index.write({ removePaths: chunks.map((c) => c.path) });
      index.close();
    };
  };
  assertLinear(make, 400, 'removing documents');
});
