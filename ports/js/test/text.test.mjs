import { test } from 'node:test';
import assert from 'node:assert/strict';
import { normalise, fold, words, cpLength, sortStrings, compareCodePoints, isWhiteSpace, isPunctOrSymbol } from '../src/text.mjs';

test('TEXT worked examples (spec/portability.md)', () => {
  const rows = [
    [' Ta\u212Ae  NOTES\u200b!', 'TaKe NOTES!', 'take notes!', ['take', 'notes']],
    ['foo\u001fbar', 'foo bar', 'foo bar', ['foo', 'bar']],
    ['e\u200b\u0301t\u00e9', 'e\u0301t\u00e9', 'e\u0301t\u00e9', ['e\u0301t\u00e9']],
    ['snake_case\u00a0C++', 'snake_case C++', 'snake_case c++', ['snake', 'case', 'c']],
    ['ΟΔΟΣ', 'ΟΔΟΣ', 'οδος', ['οδος']],
  ];
  for (const [input, n, f, w] of rows) {
    assert.equal(normalise(input), n);
    assert.equal(fold(input), f);
    assert.deepEqual(words(input), w);
  }
});

test('Final_Sigma and İ: toLowerCase is locale-free full lowercasing', () => {
  assert.equal(fold('ΟΔΟΣ ΟΔΟΣ'), 'οδος οδος');
  assert.equal(fold('ΣΑ'), 'σα'); // medial sigma
  assert.deepEqual(Array.from(fold('İ')), ['i', '\u0307']);
});

test('.length counts UTF-16 units; TEXT-8 counts code points', () => {
  const cat = '\u{1D41C}\u{1D41A}\u{1D42D}';
  assert.equal(cat.length, 6);
  assert.equal(cpLength(cat), 3);
  assert.equal(cpLength('日本'), 2);
  assert.equal(cpLength('e\u0301'), 2);
});

test('astral strings sort by code point, not by UTF-16 unit', () => {
  const astral = '\u{1F600}'; // surrogates D83D DE00
  const bmpHigh = '\uE000';
  assert.deepEqual([astral, bmpHigh].sort(), [astral, bmpHigh]); // the default sort is wrong
  assert.deepEqual(sortStrings([astral, bmpHigh]), [bmpHigh, astral]);
  assert.deepEqual(sortStrings(['ab', 'a', '']), ['', 'a', 'ab']); // a proper prefix first
  assert.equal(compareCodePoints('cafe\u0301.md', 'caf\u00e9.md'), -1); // paths are never normalised
  assert.ok(compareCodePoints('\uFFFF', '\u{10000}') < 0);
});

test('White_Space is exactly the 25 code points, not JavaScript \\s', () => {
  let count = 0;
  for (let cp = 0; cp <= 0x10ffff; cp++) if (isWhiteSpace(cp)) count++;
  assert.equal(count, 25);
  assert.ok(/\s/.test('\uFEFF') && !isWhiteSpace(0xfeff)); // \s includes U+FEFF
  assert.ok(!/\s/.test('\u0085') && isWhiteSpace(0x85)); // \s misses U+0085
  assert.ok(!isWhiteSpace(0x180e) && !isWhiteSpace(0x200b) && !isWhiteSpace(0x1c));
  assert.deepEqual(words('a\u0085b\u180ec'), ['a', 'b\u180ec']);
});

test('P∪S comes from the shipped Unicode 14 table, not \\p{P}/\\p{S}', () => {
  assert.ok(isPunctOrSymbol('_'.codePointAt(0)));
  assert.ok(isPunctOrSymbol('$'.codePointAt(0)));
  assert.ok(!isPunctOrSymbol(0x1fae9)); // assigned in Unicode 16: not in the table
  assert.ok(/\p{S}/u.test('\u{1FAE9}')); // but Node's own Unicode says it is a symbol
  assert.deepEqual(words('x\u{1FAE9}y'), ['x\u{1FAE9}y']);
});

test('NFC happens before zero-width deletion; soft hyphen and word joiner stay', () => {
  assert.equal(normalise('e\u200b\u0301'), 'e\u0301');
  assert.equal(normalise('a\u2060b\ufeff'), 'a\u2060b');
  assert.equal(normalise('a\u00adb'), 'a\u00adb');
  assert.equal(normalise('a\u0000b'), 'a b');
});
