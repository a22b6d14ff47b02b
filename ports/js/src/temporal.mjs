// Profile `temporal` (spec/profiles/temporal.md, TEMPORAL-*): the anchor's temporal expansion,
// written from the chapter. Calendar arithmetic is integer arithmetic on day numbers
// (TEMPORAL-9): no Date object anywhere, so no local time, no Date.UTC year mapping, no clock.
import { invalid } from './errors.mjs';
import { loadSpecData } from './data.mjs';
import { normalise, splitWhiteSpace } from './text.mjs';

export const TEMPORAL_VERSION = '1.0.0';
const DATA_FILE = 'profiles/temporal/recognisers.json';
const NAMES = ['relative_time', 'relative_day', 'last_week', 'last_weekday'];

let DATA = null;
// TEMPORAL-3: load the data file (never retyped); fail loudly when it is not the expected shape.
export function temporalData() {
  if (DATA !== null) return DATA;
  const d = loadSpecData(DATA_FILE);
  const names = Array.isArray(d?.recognisers) ? d.recognisers.map((r) => r.name) : [];
  if (names.join(',') !== NAMES.join(',') || !Array.isArray(d.weekdays) || d.weekdays.length !== 7) {
    throw new Error(`hrc-js: spec/data/${DATA_FILE} is malformed`);
  }
  DATA = {
    // INTENT-3 reading: flags 'g' plus the file's 'i', never 'u' (which would fold ſ and K).
    patterns: d.recognisers.map((r) => [r.name, r.source, `g${r.flags}`]),
    countWords: new Map(Object.entries(d.countWords)),
    units: new Map(Object.entries(d.units)),
    weekdays: d.weekdays,
    ordering: d.ordering.map((o) => [o.words, o.note]),
  };
  return DATA;
}

// TEMPORAL-9: floored division; JavaScript's % and truncation are wrong for negative numbers.
const fdiv = (a, b) => Math.floor(a / b);
const fmod = (a, b) => a - b * Math.floor(a / b);

function isLeap(y) {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}
function daysInMonth(y, m) {
  if (m === 2) return isLeap(y) ? 29 : 28;
  return [4, 6, 9, 11].includes(m) ? 30 : 31;
}
export function daysFromCivil(y, m, d) {
  const yy = m <= 2 ? y - 1 : y;
  const era = fdiv(yy, 400);
  const yoe = yy - era * 400;
  const mp = m > 2 ? m - 3 : m + 9;
  const doy = fdiv(153 * mp + 2, 5) + d - 1;
  const doe = yoe * 365 + fdiv(yoe, 4) - fdiv(yoe, 100) + doy;
  return era * 146097 + doe - 719468;
}
export function civilFromDays(n) {
  const z = n + 719468;
  const era = fdiv(z, 146097);
  const doe = z - era * 146097;
  const yoe = fdiv(doe - fdiv(doe, 1460) + fdiv(doe, 36524) - fdiv(doe, 146096), 365);
  const doy = doe - (365 * yoe + fdiv(yoe, 4) - fdiv(yoe, 100));
  const mp = fdiv(5 * doy + 2, 153);
  const d = doy - fdiv(153 * mp + 2, 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  return [yoe + era * 400 + (m <= 2 ? 1 : 0), m, d];
}
// TEMPORAL-10: 0 = Sunday; floored mod, so days before 1970 work.
export const weekday = (n) => fmod(n + 4, 7);
const MIN_DAY = daysFromCivil(1, 1, 1);
const MAX_DAY = daysFromCivil(9999, 12, 31);
const inRange = (n) => n >= MIN_DAY && n <= MAX_DAY; // TEMPORAL-11

// TEMPORAL-12: back `count` months, keep the day-of-month, let an overflow roll forward.
export function monthsBack(anchor, count) {
  const [y, m, d] = civilFromDays(anchor);
  const t = y * 12 + (m - 1) - count;
  const ty = fdiv(t, 12);
  const tm = fmod(t, 12) + 1;
  if (ty < 1) return null;
  const out = daysFromCivil(ty, tm, 1) + d - 1;
  return inRange(out) ? out : null;
}

// TEMPORAL-13: YYYY/MM/DD, the year always four digits.
export function slash(n) {
  const [y, m, d] = civilFromDays(n);
  const p = (v, w) => String(v).padStart(w, '0');
  return `${p(y, 4)}/${p(m, 2)}/${p(d, 2)}`;
}

// TEMPORAL-6..8: questionDate -> anchor day number, or null. ASCII digits only.
const FORM_A = /^([0-9]{4})[-/]([0-9]{2})[-/]([0-9]{2})(?: \([A-Za-z]{3}\))?(?: ([0-9]{2}):([0-9]{2})(?::([0-9]{2}))?)?$/;
const FORM_B = /^([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2})(?::([0-9]{2})(?:\.[0-9]+)?)?(Z|[-+][0-9]{2}:[0-9]{2})?$/;

function civilDay(ys, ms, ds) {
  const y = Number(ys);
  const m = Number(ms);
  const d = Number(ds);
  if (y < 1 || y > 9999 || m < 1 || m > 12 || d < 1 || d > daysInMonth(y, m)) return null;
  return daysFromCivil(y, m, d);
}
function clock(hs, ms, ss) {
  const h = Number(hs);
  const mi = Number(ms);
  const s = ss === undefined ? 0 : Number(ss);
  if (h > 23 || mi > 59 || s > 59) return null;
  return h * 60 + mi;
}
export function parseQuestionDate(value) {
  const s = splitWhiteSpace(value).join(' ');
  const a = FORM_A.exec(s);
  if (a !== null) {
    const day = civilDay(a[1], a[2], a[3]);
    if (day === null || (a[4] !== undefined && clock(a[4], a[5], a[6]) === null)) return null;
    return day;
  }
  const b = FORM_B.exec(s);
  if (b === null) return null;
  let day = civilDay(b[1], b[2], b[3]);
  let minutes = clock(b[4], b[5], b[6]);
  if (day === null || minutes === null) return null;
  const zone = b[7];
  if (zone !== undefined && zone !== 'Z') {
    const oh = Number(zone.slice(1, 3));
    const om = Number(zone.slice(4, 6));
    if (oh > 23 || om > 59) return null;
    const offset = oh * 60 + om;
    minutes -= zone[0] === '+' ? offset : -offset;
  }
  day += fdiv(minutes, 1440);
  return inRange(day) ? day : null;
}

// TEMPORAL-15: A-Z to a-z only (no locale, no Unicode mapping, no length change).
export const asciiLower = (s) => s.replace(/[A-Z]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 32));

// TEMPORAL-16: ASCII digits (decimal, leading zeros) or a count word; null if out of range.
function count(word) {
  if (/^[0-9]+$/.test(word)) {
    const digits = word.replace(/^0+/, '');
    return digits.length > 7 ? null : Number(word);
  }
  return temporalData().countWords.get(word) ?? null;
}

const within = (n) => (inRange(n) ? n : null);

const RESOLVERS = {
  relative_time(match, anchor) {
    const [w, u] = match.split(' ');
    const n = count(w);
    const unit = temporalData().units.get(u);
    if (n === null || unit === undefined) return null;
    const day = unit === 'month' ? monthsBack(anchor, n) : within(anchor - n * (unit === 'week' ? 7 : 1));
    return day === null ? null : [`(around ${slash(day)})`, [slash(day)]];
  },
  relative_day(match, anchor) {
    const day = within(match === 'yesterday' ? anchor - 1 : anchor);
    return day === null ? null : [`(${slash(day)})`, [slash(day)]];
  },
  last_week(_match, anchor) {
    if (!inRange(anchor - 7)) return null;
    const hints = [];
    for (let k = 7; k >= 1; k--) hints.push(slash(anchor - k));
    return [`(${hints[0]} to ${hints[6]})`, hints];
  },
  last_weekday(match, anchor) {
    const words = match.split(' ');
    const target = temporalData().weekdays.indexOf(words[words.length - 1]);
    for (let back = 1; back <= 7; back++) {
      const day = anchor - back;
      if (weekday(day) === target) return inRange(day) ? [`(${slash(day)})`, [slash(day)]] : null;
    }
    return null;
  },
};

// TEMPORAL-17: every match, left to right; the suffix goes right after the matched text.
function applyRecogniser(name, source, flags, s, anchor, hints) {
  const re = new RegExp(source, flags);
  let out = '';
  let pos = 0;
  for (const m of s.matchAll(re)) {
    const end = m.index + m[0].length;
    out += s.slice(pos, end);
    const r = RESOLVERS[name](asciiLower(m[0]), anchor);
    if (r !== null) {
      out += ` ${r[0]}`;
      hints.push(...r[1]);
    }
    pos = end;
  }
  return out + s.slice(pos);
}

const dedupe = (xs) => [...new Set(xs)];

// TEMPORAL-14..20.
export function expandTemporal(query, questionDate) {
  const unchanged = { expandedQuery: query, dateHints: [], resolved: false, augmentedQuery: query };
  const anchor = questionDate == null ? null : parseQuestionDate(questionDate);
  if (anchor === null) return unchanged;
  const normalised = normalise(query);
  let s = normalised;
  const hints = [];
  for (const [name, source, flags] of temporalData().patterns) s = applyRecogniser(name, source, flags, s, anchor, hints);
  if (hints.length === 0) return unchanged;
  const lowered = asciiLower(s);
  for (const [words, note] of temporalData().ordering) {
    if (words.some((w) => lowered.includes(w))) {
      s = `${s} ${note}`;
      break;
    }
  }
  const dateHints = dedupe(hints);
  const tokens = dedupe(dateHints.flatMap((h) => [`"${h}"`, `"${h.replaceAll('/', '-')}"`]));
  return { expandedQuery: s, dateHints, resolved: true, augmentedQuery: `${normalised} ${tokens.join(' ')}` };
}

// TEMPORAL-2 / TEMPORAL-21: questionDate is a string, null or absent.
export function questionDateInput(v, where = 'questionDate') {
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string') throw invalid(`${where} must be a string or null`);
  return v;
}

// TEMPORAL-21: request.profiles.temporal is {questionDate?}; the query becomes augmentedQuery.
function parseRequest(options) {
  for (const key of Object.keys(options)) {
    if (key !== 'questionDate') throw invalid(`request.profiles.temporal: unknown option ${key}`);
  }
  return { questionDate: questionDateInput(options.questionDate, 'request.profiles.temporal.questionDate') };
}

function rewriteQuery(call, query) {
  const e = expandTemporal(query, call.options.questionDate);
  Object.assign(call.trace, { questionDate: call.options.questionDate, ...e });
  return e.augmentedQuery;
}

temporalData(); // TEMPORAL-3: a missing or malformed data file fails at start-up.

export const temporalProfile = {
  name: 'temporal',
  version: TEMPORAL_VERSION,
  operations: {
    'temporal.expand'(input) {
      if (typeof input.query !== 'string') throw invalid('query must be a string');
      return expandTemporal(input.query, questionDateInput(input.questionDate));
    },
  },
  // FANOUT-15: with the fanout the augmented query is a first-pass query, not a rewrite
  pipeline: { parseRequest, rewriteQuery, fanoutBase: rewriteQuery },
};
